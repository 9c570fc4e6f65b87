// The order actor base: one actor per order, running the kind's pass.
//
// - One pass at a time. A wake-up (an order update that passed the predicate,
//   a child event, a timer, a wake from another actor) during a pass is
//   coalesced into exactly one more pass after it. A child's event that is
//   only the echo of the order's own write (the last pass's
//   pass_result::echo says so: the runner's write memo holds that version
//   as an answer) wakes none.
// - A pass ends converged, requeue-after(d), requeue, or error. Errors and
//   requeues back off per order (5 ms doubling to 1000 s); success resets it.
// - Named timers (requeue, rotation, grace, ...) are re-armed or cancelled at
//   the end of every pass; a stale timer message is ignored.
// - Before a pass starts the actor takes a token from the limiter (the global
//   --max-concurrent-reconciles) and gives it back when the pass ends.
// - retire_atom / stop_atom: start no more passes; finish the one in flight,
//   and wait for every write its passes sent and that has not answered yet
//   (pass_context::write_sent: its answer or its request's timeout, which
//   outlasts the write's deadline), then quit. So the host's drain never
//   completes while a write of the order may still reach the API server.
// - Parking (options.park_after > 0 and a host): an actor whose last pass
//   succeeded, with no failure, no write in flight and no wake-up since,
//   asks after park_after whether the pass's closure is settled
//   (pass_result::settled; not yet: again after park_after) and then asks
//   its host to park it. The host agrees unless it is about to send it
//   something it must not lose (it holds what comes meanwhile); then the
//   actor hands the host its probe and its earliest timer and quits, unless
//   a pass began in between. The host keeps the order's closure, answers its
//   probe, and spawns a new actor (its counters go on from the probe) at the
//   next event that wakes it or when that timer is due, whose pass re-arms
//   every timer. A converged order then costs the host's entry, not an actor.
#pragma once

#include "actors/runtime/controller_metrics.hpp"
#include "actors/runtime/pass.hpp"
#include "protocol/order.hpp"

#include <caf/actor.hpp>
#include <caf/actor_addr.hpp>
#include <caf/fwd.hpp>
#include <caf/timespan.hpp>

#include <chrono>
#include <memory>
#include <string>

namespace c5c3::runtime {

// What every order actor of a kind shares.
struct order_actor_options {
  caf::timespan backoff_base = std::chrono::milliseconds(5);
  caf::timespan backoff_max = std::chrono::seconds(1000);
  // A pass still open after this long ends as an error (its late finish is
  // ignored): a lost continuation must not wedge the order. 0 disables it.
  caf::timespan pass_deadline = std::chrono::minutes(10);
  // What pass_context::wall_now() reads; empty: the system clock.
  wall_clock_fn wall_clock;
  // How long a settled, converged order stays idle before its actor asks
  // its host to park it. 0: never.
  caf::timespan park_after{0};
};

struct order_actor_config {
  protocol::order_key key;
  pass_fn pass;
  caf::actor limiter;                            // invalid: no limit
  std::shared_ptr<controller_metrics> metrics;   // null: no metrics
  order_actor_options options;
  // Its host (invalid: none, and it never parks): whom it asks to park, whom
  // its timer ticks go through, and whom its passes register what must
  // outlive the actor for (pass_context::host).
  caf::actor_addr host;
  // A parked order's probe: the new actor's counters, last report and last
  // error go on from it.
  std::shared_ptr<const protocol::order_probe> resume;
};

// Spawns an order actor. It starts idle: send it an order_update or wake_atom.
// It answers probe_atom with a protocol::order_probe.
caf::actor spawn_order_actor(caf::actor_system& sys, order_actor_config cfg);

}  // namespace c5c3::runtime
