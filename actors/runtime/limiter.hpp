// The concurrency limiter: a global cap on passes running at once
// (--max-concurrent-reconciles). An order actor asks acquire_atom and gets
// grant_atom when a token is free (waiters are served first come, first
// served); it sends release_atom when its pass ends. A holder or waiter that
// dies gives its tokens back (the limiter monitors them).
//
// stop_atom: no more grants (waiters get an api_errc::shutting_down error),
// answered ok_atom once every token is back; then the limiter quits.
// probe_atom answers a protocol::limiter_probe.
#pragma once

#include "actors/runtime/controller_metrics.hpp"

#include <caf/actor.hpp>
#include <caf/fwd.hpp>

#include <cstdint>
#include <memory>

namespace c5c3::runtime {

// `max` below 1 counts as 1. The max_concurrent_reconciles gauge of each
// controller is the host's to set.
caf::actor spawn_limiter(caf::actor_system& sys, std::uint32_t max);

}  // namespace c5c3::runtime
