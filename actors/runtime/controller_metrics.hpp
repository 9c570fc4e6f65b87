// The metrics controller-runtime exports, under its names and labels, for one
// controller (one order kind), plus the runtime's own: live order actors per
// kind and mailbox depth. The order actor base and the order host feed them;
// rest_client_metrics is for the cluster actors' HTTP client.
#pragma once

#include "actors/runtime/metrics.hpp"
#include "protocol/wake_cause.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace c5c3::runtime {

// controller_runtime_reconcile_time_seconds buckets.
const std::vector<double>& reconcile_time_buckets();
// workqueue_{queue,work}_duration_seconds buckets: ExponentialBuckets(10e-9, 10, 12).
const std::vector<double>& workqueue_duration_buckets();

using protocol::wake_cause;

struct controller_metrics {
  controller_metrics(metrics::registry& reg, const std::string& controller);

  std::string controller;
  // controller_runtime_reconcile_total{controller,result}
  metrics::counter& reconcile_success;
  metrics::counter& reconcile_error;
  metrics::counter& reconcile_requeue;
  metrics::counter& reconcile_requeue_after;
  metrics::counter& reconcile_errors;        // controller_runtime_reconcile_errors_total
  metrics::histogram& reconcile_time;        // controller_runtime_reconcile_time_seconds
  metrics::gauge& max_concurrent_reconciles; // controller_runtime_max_concurrent_reconciles
  metrics::gauge& active_workers;            // controller_runtime_active_workers
  // workqueue_*{name,controller}: the "queue" is the orders waiting for a pass.
  metrics::gauge& depth;
  metrics::counter& adds;
  metrics::histogram& queue_duration;
  metrics::histogram& work_duration;
  metrics::counter& retries;
  // c5c3_order_actors{controller}, c5c3_mailbox_depth{controller,actor}
  metrics::gauge& order_actors;
  metrics::gauge& orders_parked;  // c5c3_orders_parked{controller}
  // c5c3_child_echoes_total{controller}: child events that woke no pass,
  // the echoes of the order's own writes (pass_result::echo).
  metrics::counter& child_echoes;
  // c5c3_pass_wakes_total{controller,cause}: the wake-ups that queued a pass
  // (those coalesced into one already queued are not counted), by what woke
  // the order (protocol/wake_cause.hpp); a parked order counts by what
  // unparked it.
  metrics::counter& wakes(wake_cause c) const { return *wakes_[static_cast<std::size_t>(c)]; }
  metrics::gauge& host_mailbox_depth;
  metrics::gauge& order_mailbox_depth;  // the deepest order mailbox at its last pass start

 private:
  std::array<metrics::counter*, protocol::wake_causes.size()> wakes_{};
};

// rest_client_requests_total{code,method,host} (client-go's name). A request
// that got no HTTP answer counts with code "<error>".
class rest_client_metrics {
 public:
  explicit rest_client_metrics(metrics::registry& reg);
  void request(int code, std::string_view method, std::string_view host);

 private:
  metrics::counter_family& requests_;
};

}  // namespace c5c3::runtime
