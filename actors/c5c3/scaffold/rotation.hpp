// The rotation block the rotating order kinds share (apis.md 1.3, 1.8:
// spec.rotation {interval, gracePeriod}, Go durations; an interval of 0s turns
// the schedule off), resolved as the reconcilers do for an object stored
// without the schema defaults (the kinds have no webhook): an absent or
// unreadable field reads as its default, 720h and 24h.
#pragma once

#include "actors/c5c3/scaffold/pass_result.hpp"
#include "k8s/object.hpp"

namespace c5c3::c5c3 {

inline constexpr duration default_rotation_interval = std::chrono::hours(720);
inline constexpr duration default_rotation_grace_period = std::chrono::hours(24);

struct rotation_schedule {
  duration interval = default_rotation_interval;
  duration grace_period = default_rotation_grace_period;
  bool on() const { return interval > duration::zero(); }
};

rotation_schedule rotation_of(const k8s::object& order);

}  // namespace c5c3::c5c3
