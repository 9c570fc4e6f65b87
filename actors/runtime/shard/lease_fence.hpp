// The write fence of a sharded replica (issue 17): the wall-clock time until
// which its own Lease of a ring is certainly held. The ring's membership
// actor moves it forward after each successful renewal (the renewal's
// renewTime + 2/3 of the duration, the same hold after which it drains its
// orders) and lapses it on stop; the order runner caps every write's deadline
// by it (runner_deps::fence), so a replica whose renewals fail (a partition)
// starts no write of its orders after that time, a third of the duration
// before any other replica may take them over, and an attempt in flight is
// cut at it (k8s/client write_options::deadline).
//
// Shared between the membership actor (the only writer) and the order actors
// of the ring's hosts (readers), on any thread: one atomic.
#pragma once

#include "k8s/time.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>

namespace c5c3::runtime::shard {

class lease_fence {
 public:
  // Held until `t` (a renewal succeeded).
  void hold_until(k8s::time_point t) {
    until_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count(),
                 std::memory_order_release);
  }
  // Not held (stopping, or released): every later write is past its deadline.
  void lapse() { until_.store(never, std::memory_order_release); }
  // Until when the Lease is certainly held; before it was ever held, the
  // clock's minimum (nothing may be written).
  k8s::time_point held_until() const {
    auto ns = until_.load(std::memory_order_acquire);
    if (ns == never) return k8s::time_point::min();
    return k8s::time_point(std::chrono::duration_cast<k8s::time_point::duration>(std::chrono::nanoseconds(ns)));
  }

 private:
  static constexpr std::int64_t never = std::numeric_limits<std::int64_t>::min();
  std::atomic<std::int64_t> until_{never};
};

}  // namespace c5c3::runtime::shard
