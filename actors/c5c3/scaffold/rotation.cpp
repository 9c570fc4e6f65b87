#include "actors/c5c3/scaffold/rotation.hpp"

namespace c5c3::c5c3 {

rotation_schedule rotation_of(const k8s::object& order) {
  rotation_schedule r;
  if (auto d = order.get_string({"spec", "rotation", "interval"}); !d.empty())
    if (auto parsed = k8s::parse_go_duration(d)) r.interval = *parsed;
  if (auto d = order.get_string({"spec", "rotation", "gracePeriod"}); !d.empty())
    if (auto parsed = k8s::parse_go_duration(d)) r.grace_period = *parsed;
  return r;
}

}  // namespace c5c3::c5c3
