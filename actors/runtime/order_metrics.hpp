// The operator's metrics about its orders rather than its passes (issue 20),
// kept by the runner as passes settle and order actors go away:
//
//   c5c3_orders{controller,ready,reason}            gauge: orders by their Ready condition's status and
//                                                   reason (orders without one are not counted)
//   c5c3_rotation_lag_seconds{controller}           histogram: how late each scheduled rotation completed
//                                                   (status.lastRotation, set when the new credential
//                                                   goes live, - the status.nextRotation it was due at)
//   c5c3_rotation_overdue_seconds{controller}       gauge: the most overdue pending rotation at scrape
//                                                   time (0: none is past due); absent without one
//
// The rotation series exist for controllers whose orders carry status.nextRotation
// (RabbitMQVhost, KeystoneApplicationCredential). No order name is a label.
#pragma once

#include "actors/runtime/metrics.hpp"
#include "k8s/object.hpp"
#include "k8s/time.hpp"
#include "protocol/order.hpp"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::runtime {

struct ready_state {
  std::string status;  // "True", "False", "Unknown"
  std::string reason;
  friend auto operator<=>(const ready_state&, const ready_state&) = default;
};

// The order's Ready condition (none when it has none yet).
std::optional<ready_state> ready_of(const k8s::object& order);
// status.nextRotation (none: no schedule, or nothing provisioned yet).
std::optional<k8s::time_point> rotation_due(const k8s::object& order);
// How late the rotation a pass made ran, in seconds: status.lastRotation moved
// from `before` (the order as the pass started) to `after` (as it left it) and
// lies at or after before's status.nextRotation. None otherwise: no rotation,
// the first provisioning (nothing was due), or one run before its time (a
// declared generation, an expiry).
std::optional<double> rotation_lag(const k8s::object& before, const k8s::object& after);
// The largest `now - due` in seconds, 0 when none is past; none when `dues` is empty.
std::optional<double> most_overdue(const std::vector<k8s::time_point>& dues, k8s::time_point now);
// c5c3_rotation_lag_seconds buckets: 1 s to a day.
const std::vector<double>& rotation_lag_buckets();

class order_metrics {
 public:
  using clock_fn = std::function<k8s::time_point()>;
  // Registers the families and a collector (c5c3_rotation_overdue_seconds at
  // each render) that lasts as long as the object. `now` defaults to the
  // system clock (tests give virtual wall time).
  static std::shared_ptr<order_metrics> make(metrics::registry& reg, std::string controller, clock_fn now = {});

  // A pass of `key` settled: `before` is the order as it started, `after` as
  // the pass left it.
  void settled(const protocol::order_key& key, const k8s::object& before, const k8s::object& after);
  // The order's actor is gone (the order deleted, handed to another replica,
  // the host stopping): it no longer counts.
  void gone(const protocol::order_key& key);
  // Sets c5c3_rotation_overdue_seconds (the registry's collector calls it).
  void collect();

  order_metrics(metrics::registry& reg, std::string controller, clock_fn now);
  ~order_metrics();  // drops the overdue series
  order_metrics(const order_metrics&) = delete;
  order_metrics& operator=(const order_metrics&) = delete;

 private:
  struct entry {
    std::optional<ready_state> ready;
    std::optional<k8s::time_point> due;
  };
  void count(const std::optional<ready_state>& r, double by);

  std::string controller_;
  clock_fn now_;
  metrics::gauge_family& orders_;
  metrics::histogram_family& lag_;
  metrics::gauge_family& overdue_;
  std::mutex mutex_;
  std::map<protocol::order_key, entry> entries_;
};

}  // namespace c5c3::runtime
