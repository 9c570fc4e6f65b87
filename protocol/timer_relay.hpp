// Order actor -> clock -> order host -> order actor: a hosted order actor's
// timer ticks (runtime/order_actor.cpp send_tick).
#pragma once

#include <caf/meta/type_name.hpp>

#include <cstdint>

namespace c5c3::protocol {

// A hosted order actor's timer tick, sent by the clock to its host (an
// anonymous delayed message) and passed on as a timer_tick if `actor` is
// still the order's actor. A delayed message holds a reference to its
// receiver and sender: sent to itself, a tick ten minutes away (the pass
// deadline) kept a parked actor's memory for ten minutes.
struct timer_relay {
  std::uint64_t actor = 0;  // caf::actor_id of the order actor (the host knows its order)
  std::int64_t at = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, timer_relay& x) {
  return f(caf::meta::type_name("c5c3::protocol::timer_relay"), x.actor, x.at);
}

}  // namespace c5c3::protocol
