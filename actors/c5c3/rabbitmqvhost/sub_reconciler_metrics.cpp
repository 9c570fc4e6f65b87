#include "actors/c5c3/rabbitmqvhost/sub_reconciler_metrics.hpp"

#include "actors/c5c3/rabbitmqvhost/constants.hpp"

namespace c5c3::c5c3::rabbitmqvhost {

sub_reconciler_metrics::sub_reconciler_metrics(runtime::metrics::registry& reg, std::string controller)
    : controller_(std::move(controller)),
      results_(reg.counter("c5c3_sub_reconciler_results_total",
                           "Outcomes of an order kind's sub-reconcilers, by the condition each writes.",
                           {"controller", "sub_reconciler", "condition_type", "status", "reason"})) {}

void sub_reconciler_metrics::record(const std::vector<k8s::condition>& conditions) {
  for (const auto& c : conditions) {
    for (const auto& e : sub_reconcilers) {
      if (c.type != e.condition_type) continue;
      results_.with({controller_, std::string(e.sub_reconciler), c.type, c.status, c.reason}).inc();
    }
  }
}

}  // namespace c5c3::c5c3::rabbitmqvhost
