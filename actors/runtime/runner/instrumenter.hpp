// The sub-reconciler instrumenter every kind shares (rabbitmqvhost-reconciler
// and keystone-orders "Metrics Instrumentation"): each step's outcome per
// pass, by sub_reconciler and the condition type it writes:
// c5c3_sub_reconciler_results_total{controller,sub_reconciler,condition_type,
// status,reason}. Reasons are each kind's fixed set, so the series stay
// bounded; messages never reach a label.
#pragma once

#include "actors/runtime/metrics.hpp"
#include "actors/runtime/runner/declaration.hpp"
#include "k8s/object.hpp"

#include <string>
#include <vector>

namespace c5c3::runtime {

class sub_reconciler_metrics {
 public:
  sub_reconciler_metrics(metrics::registry& reg, std::string controller, std::vector<instrument_row> rows);
  // Records the conditions of one pass: those of a condition type in the
  // table; other types are ignored.
  void record(const std::vector<k8s::condition>& conditions);

 private:
  std::string controller_;
  std::vector<instrument_row> rows_;
  metrics::counter_family& results_;
};

}  // namespace c5c3::runtime
