#include "actors/runtime/runner/instrumenter.hpp"

namespace c5c3::runtime {

sub_reconciler_metrics::sub_reconciler_metrics(metrics::registry& reg, std::string controller,
                                               std::vector<instrument_row> rows)
    : controller_(std::move(controller)),
      rows_(std::move(rows)),
      results_(reg.counter("c5c3_sub_reconciler_results_total",
                           "Outcomes of an order kind's sub-reconcilers, by the condition each writes.",
                           {"controller", "sub_reconciler", "condition_type", "status", "reason"})) {}

void sub_reconciler_metrics::record(const std::vector<k8s::condition>& conditions) {
  for (const auto& c : conditions)
    for (const auto& row : rows_)
      if (c.type == row.condition_type)
        results_.with({controller_, row.sub_reconciler, c.type, c.status, c.reason}).inc();
}

}  // namespace c5c3::runtime
