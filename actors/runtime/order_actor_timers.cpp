// The order actor's timers (order_actor_state.hpp): named timers whose ticks
// go through the host when there is one, the pass deadline, and parking
// (order_actor.hpp, "Parking").
#include "actors/runtime/order_actor_state.hpp"

#include "protocol/timer_relay.hpp"

#include <caf/event_based_actor.hpp>
#include <caf/send.hpp>

#include <algorithm>
#include <utility>

namespace c5c3::runtime::detail {

namespace {
wake_cause timer_cause(const std::string& name) {
  if (name == timer_names::requeue) return wake_cause::requeue;
  if (name == timer_names::rotation) return wake_cause::rotation;
  if (name == timer_names::grace) return wake_cause::grace;
  return wake_cause::timer;
}
}  // namespace

bool order_state::parkable() const {
  return static_cast<bool>(settled) && !stopping && !offering && !wake_pending && phase == order_phase::idle &&
         writes->in_flight == 0 && errors.failures() == 0 && cfg.options.park_after > caf::timespan{0} &&
         static_cast<bool>(cfg.host);
}

// The park timer fired with nothing else due: ask the host once the
// closure is settled (the answer is always given, so the held tick is
// always sent, or dropped with the actor); not settled yet: ask again
// after park_after.
bool order_state::offer_park() {
  auto host = caf::actor_cast<caf::actor>(cfg.host);
  if (!parkable() || !host) return false;
  if (!settled(order, now())) {
    arm(park_timer, cfg.options.park_after);
    return false;
  }
  offering = true;
  auto epoch = pass_number;
  self->request(host, caf::infinite, protocol::park_atom::value, cfg.key, epoch)
      .then([this, host, epoch](bool go) { park_answered(host, go, epoch); },
            [this, host, epoch](const caf::error&) { park_answered(host, false, epoch); });
  return true;
}

void order_state::park_answered(const caf::actor& host, bool go, std::uint64_t epoch) {
  offering = false;
  if (go) {
    // The host holds what it would send from now on until it reads this.
    protocol::parked_order p;
    p.key = cfg.key;
    p.parked = parkable() && epoch == pass_number;
    if (p.parked) {
      p.probe = probe();
      p.probe.key = {};
      p.probe.phase = static_cast<std::uint8_t>(order_phase::parked);
      p.probe.ticks_in_flight = 0;
      std::optional<named_timers::time_point> next;
      for (const auto& name : timers.armed_names())
        if (auto at = timers.due(name); at && !internal(name) && (!next || *at < *next)) next = at;
      if (next) p.next_due = next->time_since_epoch().count();
    }
    bool parked = p.parked;
    self->send(host, std::move(p));
    if (parked) return self->quit();
  }
  send_tick(std::exchange(deferred_tick, std::nullopt));
  if (go && parkable()) arm(park_timer, cfg.options.park_after);  // a pass came between: later
}

void order_state::arm(const std::string& timer, caf::timespan d) {
  send_tick(timers.arm(timer, now() + std::max(d, caf::timespan{0})));
}

// Through the host when there is one (protocol::timer_relay): a tick in
// CAF's clock then holds the host, not this actor, which a parked order
// leaves behind.
void order_state::send_tick(std::optional<named_timers::time_point> at) {
  if (!at) return;
  auto delay = std::max(*at - now(), caf::timespan{0});
  auto count = at->time_since_epoch().count();
  if (auto host = caf::actor_cast<caf::actor>(cfg.host))
    caf::delayed_anon_send(host, delay, protocol::timer_relay{self->id(), count});
  else
    self->delayed_send(self, delay, protocol::timer_tick{count});
}

void order_state::on_tick(const protocol::timer_tick& t) {
  auto fired = timers.tick(named_timers::time_point{named_timers::time_point::duration{t.at}}, now());
  if (fired.names.empty()) ++idle_ticks;
  std::optional<wake_cause> wake_up;
  bool park_due = false;
  for (const auto& name : fired.names) {
    if (name == park_timer) {
      park_due = true;
    } else if (name != deadline_timer) {
      if (!wake_up) wake_up = timer_cause(name);
    } else if (phase == order_phase::running && slot) {
      pass_context ctx{slot};
      ctx.finish(pass_result::failed("pass did not finish within its deadline"));
    }
  }
  if (park_due && !wake_up && offer_park())
    deferred_tick = fired.next_tick;
  else
    send_tick(fired.next_tick);
  if (wake_up) wake(*wake_up);
}

}  // namespace c5c3::runtime::detail
