#include "actors/runtime/order_metrics.hpp"

#include <algorithm>

namespace c5c3::runtime {

namespace {

std::optional<k8s::time_point> status_time(const k8s::object& order, std::string_view field) {
  auto text = order.get_string({"status", field});
  if (text.empty()) return std::nullopt;
  return k8s::parse_rfc3339(text);
}

double seconds(k8s::clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

std::optional<ready_state> ready_of(const k8s::object& order) {
  if (!order) return std::nullopt;
  auto c = order.find_condition("Ready");
  if (!c) return std::nullopt;
  return ready_state{c->status, c->reason};
}

std::optional<k8s::time_point> rotation_due(const k8s::object& order) {
  if (!order) return std::nullopt;
  return status_time(order, "nextRotation");
}

std::optional<double> rotation_lag(const k8s::object& before, const k8s::object& after) {
  if (!before || !after) return std::nullopt;
  auto due = rotation_due(before);
  auto last = status_time(after, "lastRotation");
  if (!due || !last) return std::nullopt;
  auto previous = status_time(before, "lastRotation");
  if (previous && *last <= *previous) return std::nullopt;  // no rotation this pass
  if (*last < *due) return std::nullopt;                   // ran before its time
  return seconds(*last - *due);
}

std::optional<double> most_overdue(const std::vector<k8s::time_point>& dues, k8s::time_point now) {
  if (dues.empty()) return std::nullopt;
  auto earliest = *std::min_element(dues.begin(), dues.end());
  return std::max(0.0, seconds(now - earliest));
}

const std::vector<double>& rotation_lag_buckets() {
  static const std::vector<double> b{1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 86400};
  return b;
}

std::shared_ptr<order_metrics> order_metrics::make(metrics::registry& reg, std::string controller, clock_fn now) {
  auto m = std::make_shared<order_metrics>(reg, std::move(controller), std::move(now));
  reg.add_collector([weak = std::weak_ptr<order_metrics>(m)] {
    auto live = weak.lock();
    if (live) live->collect();
    return static_cast<bool>(live);
  });
  return m;
}

order_metrics::order_metrics(metrics::registry& reg, std::string controller, clock_fn now)
    : controller_(std::move(controller)),
      now_(now ? std::move(now) : clock_fn{[] { return k8s::clock::now(); }}),
      orders_(reg.gauge("c5c3_orders", "Orders per controller by their Ready condition's status and reason",
                        {"controller", "ready", "reason"})),
      lag_(reg.histogram("c5c3_rotation_lag_seconds",
                         "How late a scheduled rotation completed: the new credential live (status.lastRotation) minus "
                         "the time it was due (status.nextRotation), in seconds",
                         {"controller"}, rotation_lag_buckets())),
      overdue_(reg.gauge("c5c3_rotation_overdue_seconds",
                         "Seconds the most overdue pending rotation of the controller's orders is past due "
                         "(0: none is)",
                         {"controller"})) {}

order_metrics::~order_metrics() { overdue_.remove({controller_}); }

void order_metrics::count(const std::optional<ready_state>& r, double by) {
  if (r) orders_.with({controller_, r->status, r->reason}).inc(by);
}

void order_metrics::settled(const protocol::order_key& key, const k8s::object& before, const k8s::object& after) {
  const auto& now = after ? after : before;
  auto ready = ready_of(now);
  auto due = rotation_due(now);
  auto lag = rotation_lag(before, after);
  std::lock_guard<std::mutex> guard{mutex_};
  auto& e = entries_[key];
  if (e.ready != ready) {
    count(e.ready, -1);
    count(ready, 1);
    e.ready = ready;
  }
  e.due = due;
  // The histogram's series appears with the first scheduled rotation.
  if (due || lag) {
    auto& h = lag_.with({controller_});
    if (lag) h.observe(*lag);
  }
}

void order_metrics::gone(const protocol::order_key& key) {
  std::lock_guard<std::mutex> guard{mutex_};
  auto it = entries_.find(key);
  if (it == entries_.end()) return;
  count(it->second.ready, -1);
  entries_.erase(it);
}

void order_metrics::collect() {
  std::vector<k8s::time_point> dues;
  {
    std::lock_guard<std::mutex> guard{mutex_};
    for (const auto& [key, e] : entries_)
      if (e.due) dues.push_back(*e.due);
  }
  if (auto worst = most_overdue(dues, now_()))
    overdue_.with({controller_}).set(*worst);
  else
    overdue_.remove({controller_});
}

}  // namespace c5c3::runtime
