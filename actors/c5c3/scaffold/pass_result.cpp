#include "actors/c5c3/scaffold/pass_result.hpp"

#include <algorithm>

namespace c5c3::c5c3 {

requeue order_pass_result(std::string_view cluster, bool converged, requeue asked) {
  if (asked) return asked;
  if (cluster.empty() && converged) return std::nullopt;
  return order_refresh_after;
}

requeue shortest_requeue(requeue a, requeue b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

requeue requeue_at(std::optional<k8s::time_point> at, k8s::time_point now, duration overdue) {
  if (!at) return std::nullopt;
  if (*at <= now) return overdue;
  return std::chrono::duration_cast<duration>(*at - now);
}

}  // namespace c5c3::c5c3
