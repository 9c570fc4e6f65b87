// The instrumenter (rabbitmqvhost-reconciler.txt "Metrics Instrumentation"):
// each leg's outcome per pass, by sub_reconciler and the condition type it
// writes: c5c3_sub_reconciler_results_total{controller,sub_reconciler,
// condition_type,status,reason}. Reasons are the kind's fixed set, so the
// series stay bounded; messages never reach a label.
#pragma once

#include "actors/runtime/metrics.hpp"
#include "k8s/object.hpp"

#include <string>
#include <vector>

namespace c5c3::c5c3::rabbitmqvhost {

class sub_reconciler_metrics {
 public:
  sub_reconciler_metrics(runtime::metrics::registry& reg, std::string controller);
  // Records the legs' conditions of one pass (VhostReady, DeliveryReady);
  // other condition types are ignored.
  void record(const std::vector<k8s::condition>& conditions);

 private:
  std::string controller_;
  runtime::metrics::counter_family& results_;
};

}  // namespace c5c3::c5c3::rabbitmqvhost
