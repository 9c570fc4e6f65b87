// The order actor base: one actor per order, running the kind's pass.
//
// - One pass at a time. A wake-up (an order update that passed the predicate,
//   a child event, a timer, a wake from another actor) during a pass is
//   coalesced into exactly one more pass after it.
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
#pragma once

#include "actors/runtime/controller_metrics.hpp"
#include "actors/runtime/pass.hpp"
#include "protocol/order.hpp"

#include <caf/actor.hpp>
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
};

struct order_actor_config {
  protocol::order_key key;
  pass_fn pass;
  caf::actor limiter;                            // invalid: no limit
  std::shared_ptr<controller_metrics> metrics;   // null: no metrics
  order_actor_options options;
};

// Spawns an order actor. It starts idle: send it an order_update or wake_atom.
// It answers probe_atom with a protocol::order_probe.
caf::actor spawn_order_actor(caf::actor_system& sys, order_actor_config cfg);

}  // namespace c5c3::runtime
