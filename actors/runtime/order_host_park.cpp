// The order host's parked orders (order_actor.hpp, "Parking"): a converged
// order's actor asks to park; the host agrees unless it is about to send it
// something, and from then holds what it would send until the actor's
// answer. A parked order keeps the host's entry (its last object, packed,
// its closure, the probe the actor left) and a place in the host's wheel of due
// timers; an event that wakes it, or its timer, spawns its actor again.
#include "actors/runtime/order_host_state.hpp"

#include <caf/event_based_actor.hpp>

#include <optional>

namespace c5c3::runtime::detail {

void host_state::deliver(entry& e, const order_key& key, protocol::order_update u) {
  if (e.parked) {
    // The entry holds the object; only a wake-up needs the actor.
    if (u.wake) unpark(key, e, u.cause);
    return;
  }
  if (e.parking) {
    e.held.push_back(std::move(u));
    return;
  }
  self->send(e.actor, std::move(u));
}

void host_state::retire(std::map<order_key, entry>::iterator i) {
  auto& e = i->second;
  e.respawn.reset();
  if (e.retiring) return;
  e.retiring = true;
  if (e.parked) return gone(i);  // no actor to drain
  self->send(e.actor, protocol::retire_atom::value);
}

bool host_state::park_asked(const order_key& key, const caf::actor_addr& from) {
  auto i = orders.find(key);
  if (stopping || i == orders.end()) return false;
  auto& e = i->second;
  if (e.retiring || e.parking || !e.actor || e.actor.address() != from) return false;
  e.parking = true;
  return true;
}

void host_state::park_answered(protocol::parked_order& p, const caf::actor_addr& from) {
  auto i = orders.find(p.key);
  if (i == orders.end()) return;
  auto& e = i->second;
  if (!e.parking || !e.actor || e.actor.address() != from) return;
  e.parking = false;
  auto held = std::exchange(e.held, {});
  auto held_wake = std::exchange(e.held_wake, std::nullopt);
  if (p.parked && !e.retiring && !stopping) {
    // The actor quits; its down message finds the entry without it.
    e.actor = caf::actor{};
    e.parked = compact(std::move(p.probe), shapes);
    ++parked_now;
    ++parks;
    pack_last(e);
    if (p.next_due != 0) wheel_add(i->first, e, time_point{time_point::duration{p.next_due}});
    auto wake = held_wake;
    for (const auto& u : held)
      if (u.wake && !wake) wake = u.cause;
    if (wake) unpark(i->first, e, *wake);
    return;
  }
  if (p.parked) return;  // retiring or stopping: its down message settles it
  for (auto& u : held) self->send(e.actor, std::move(u));
  if (held_wake) self->send(e.actor, protocol::wake_atom::value);
}

void host_state::unpark(const order_key& key, entry& e, protocol::wake_cause cause) {
  wheel_remove(e, key);
  --parked_now;
  ++unparks;
  auto resume = std::make_shared<const protocol::order_probe>(expand(*e.parked, key));
  e.parked.reset();
  unpack_last(e);
  e.actor = start_actor(key, e.pass, std::move(resume));
  self->send(e.actor, protocol::order_update{e.last, true, cause});
}

void host_state::keep_last(entry& e, const k8s::object& o) {
  e.terminating = o.terminating();
  if (e.packed_last) {
    e.packed_last = packer.pack(o);
  } else {
    e.last = o;
  }
}

void host_state::pack_last(entry& e) {
  if (!packs() || !e.last) return;
  e.packed_last = packer.pack(e.last);
  e.last = {};
  if (!packer.due(parked_now)) return;
  // A new dictionary: every packed object packed again with it.
  auto old = packer.renew();
  for (auto& [key, other] : orders)
    if (other.packed_last) other.packed_last = packer.repack(other.packed_last, old);
}

void host_state::unpack_last(entry& e) {
  if (!e.packed_last) return;
  e.last = packer.unpack(e.packed_last);
  e.packed_last = {};
}

void host_state::wheel_add(const order_key& key, entry& e, time_point due) {
  e.due = due;
  wheel.emplace(due, &key);
  wheel_arm();
}

// As named_timers: a tick is sent only when the earliest due comes before
// every tick on its way.
void host_state::wheel_arm() {
  if (wheel.empty()) return;
  auto next = wheel.begin()->first;
  if (!wheel_ticks.empty() && *wheel_ticks.begin() <= next) return;
  wheel_ticks.insert(next);
  self->delayed_send(self, std::max(next - self->clock().now(), caf::timespan{0}), park_tick_atom::value,
                     static_cast<std::int64_t>(next.time_since_epoch().count()));
}

void host_state::wheel_remove(entry& e, const order_key& key) {
  if (!e.due) return;
  // The wheel points at the orders map's own key; `key` may be a copy.
  for (auto w = wheel.lower_bound({*e.due, nullptr}); w != wheel.end() && w->first == *e.due; ++w) {
    if (*w->second == key) {
      wheel.erase(w);
      break;
    }
  }
  e.due.reset();
}

void host_state::wheel_tick(time_point at) {
  if (auto t = wheel_ticks.find(at); t != wheel_ticks.end()) wheel_ticks.erase(t);
  const auto now = self->clock().now();
  std::vector<order_key> due;
  for (auto w = wheel.begin(); w != wheel.end() && w->first <= now; ++w) due.push_back(*w->second);
  for (const auto& key : due)
    if (auto i = orders.find(key); i != orders.end() && i->second.parked)
      unpark(key, i->second, protocol::wake_cause::timer);
  wheel_arm();
}

}  // namespace c5c3::runtime::detail
