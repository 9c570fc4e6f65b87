#include "actors/runtime/order_actor.hpp"

#include "actors/runtime/backoff.hpp"
#include "actors/runtime/mailbox_depth.hpp"
#include "actors/runtime/named_timers.hpp"
#include "k8s/log.hpp"
#include "protocol/timer_relay.hpp"

#include <caf/actor_system.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/send.hpp>
#include <caf/stateful_actor.hpp>

#include <chrono>
#include <algorithm>
#include <exception>
#include <utility>
#include <optional>

namespace c5c3::runtime {

namespace {

using protocol::order_phase;

double seconds(caf::timespan d) { return std::chrono::duration<double>(d).count(); }

struct order_state {
  static inline const char* name = "c5c3.order";

  caf::stateful_actor<order_state>* self = nullptr;
  order_actor_config cfg;
  backoff errors;
  named_timers timers;
  order_phase phase = order_phase::idle;
  bool stopping = false;
  bool wake_pending = false;
  k8s::object order;
  // The versions of the order delivered since the last pass began
  // (pass_context::delivered), at most `delivered_kept`; `delivered_lost`:
  // some older ones were dropped.
  static constexpr std::size_t delivered_kept = 32;
  std::vector<std::string> delivered;
  bool delivered_lost = false;
  std::uint64_t pass_number = 0;
  std::uint64_t passes_finished = 0;
  std::uint64_t idle_ticks = 0;
  std::string last_error;
  // Parking (order_actor.hpp): the last successful pass's question whether
  // its closure is settled (empty after a failure), whether the host is
  // being asked, and the tick the park timer's firing would have sent, held
  // until the host answered (a parked actor leaves no tick days away in
  // CAF's clock).
  std::function<bool(const k8s::object&, caf::actor_clock::time_point)> settled;
  bool offering = false;
  std::optional<named_timers::time_point> deferred_tick;
  // For explain: the last pass's report, when it ended and when the last
  // error happened (wall clock), and when each armed timer fires.
  protocol::pass_report report;
  std::string last_pass_at;
  std::string last_error_at;
  caf::actor_clock::time_point queued_at;
  caf::actor_clock::time_point started_at;
  std::shared_ptr<detail::pass_slot> slot;
  // Writes sent and not answered yet (pass_context::write_sent): a stopping
  // actor quits only once it is 0.
  std::shared_ptr<detail::write_count> writes = std::make_shared<detail::write_count>();

  controller_metrics* m() const { return cfg.metrics.get(); }
  caf::actor_clock::time_point now() const { return self->clock().now(); }
  std::chrono::system_clock::time_point wall(caf::actor_clock::time_point t) const {
    if (cfg.options.wall_clock) return cfg.options.wall_clock(t);
    return std::chrono::system_clock::now() +
           std::chrono::duration_cast<std::chrono::system_clock::duration>(t - now());
  }

  ~order_state() {
    // The actor is gone: a continuation finishing later must not reach it.
    writes->on_idle = nullptr;
    if (slot) {
      slot->open = false;
      slot->on_finish = nullptr;
    }
    if (auto* mm = m()) {
      if (phase == order_phase::running) mm->active_workers.dec();
      if (phase == order_phase::waiting_for_token) mm->depth.dec();
    }
  }

  void wake() {
    if (stopping) return;
    switch (phase) {
      case order_phase::running:
        if (!wake_pending) {
          wake_pending = true;
          if (auto* mm = m()) mm->adds.inc();
        }
        break;
      case order_phase::waiting_for_token:
        break;  // already queued: coalesced
      case order_phase::idle:
        enqueue(true);
        break;
      case order_phase::stopping:
      case order_phase::parked:  // never an actor's own phase
        break;
    }
  }

  void enqueue(bool count_add) {
    phase = order_phase::waiting_for_token;
    queued_at = now();
    if (auto* mm = m()) {
      if (count_add) mm->adds.inc();
      mm->depth.inc();
    }
    if (!cfg.limiter) {
      start_pass();
      return;
    }
    self->request(cfg.limiter, caf::infinite, protocol::acquire_atom::value)
        .then([this](protocol::grant_atom) { start_pass(); },
              [this](const caf::error&) {
                // The limiter is stopping or gone: no pass until woken again.
                if (phase != order_phase::waiting_for_token) return;
                phase = order_phase::idle;
                if (auto* mm = m()) mm->depth.dec();
              });
  }

  void start_pass() {
    if (phase != order_phase::waiting_for_token) return;
    phase = order_phase::running;
    started_at = now();
    if (auto* mm = m()) {
      mm->depth.dec();
      mm->queue_duration.observe(seconds(started_at - queued_at));
      mm->active_workers.inc();
      mm->order_mailbox_depth.set(static_cast<double>(mailbox_depth(self)));
    }
    ++pass_number;
    slot = std::make_shared<detail::pass_slot>();
    slot->self = self;
    slot->wall_clock = cfg.options.wall_clock;
    slot->key = cfg.key;
    slot->order = order;
    slot->delivered = std::move(delivered);
    slot->delivered_all = !delivered_lost;
    delivered.clear();
    delivered_lost = false;
    slot->number = pass_number;
    slot->on_finish = [this](std::uint64_t n, pass_result r) { finish_pass(n, std::move(r)); };
    slot->writes = writes;
    if (cfg.options.pass_deadline > caf::timespan{0}) arm(deadline_timer, cfg.options.pass_deadline);
    pass_context ctx{slot};
    try {
      cfg.pass(ctx);
    } catch (const std::exception& e) {
      ctx.finish(pass_result::failed(std::string("pass threw: ") + e.what()));
    } catch (...) {
      ctx.finish(pass_result::failed("pass threw"));
    }
  }

  // The pass deadline and the park timer are named timers of their own
  // (never reported as armed).
  static constexpr const char* deadline_timer = "pass-deadline";
  static constexpr const char* park_timer = "park";
  static bool internal(const std::string& timer) { return timer == deadline_timer || timer == park_timer; }

  bool parkable() const {
    return static_cast<bool>(settled) && !stopping && !offering && !wake_pending && phase == order_phase::idle &&
           writes->in_flight == 0 && errors.failures() == 0 && cfg.options.park_after > caf::timespan{0} &&
           static_cast<bool>(cfg.host);
  }

  // The park timer fired with nothing else due: ask the host once the
  // closure is settled (the answer is always given, so the held tick is
  // always sent, or dropped with the actor); not settled yet: ask again
  // after park_after.
  bool offer_park() {
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

  void park_answered(const caf::actor& host, bool go, std::uint64_t epoch) {
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

  void arm(const std::string& timer, caf::timespan d) {
    send_tick(timers.arm(timer, now() + std::max(d, caf::timespan{0})));
  }

  // Through the host when there is one (protocol::timer_relay): a tick in
  // CAF's clock then holds the host, not this actor, which a parked order
  // leaves behind.
  void send_tick(std::optional<named_timers::time_point> at) {
    if (!at) return;
    auto delay = std::max(*at - now(), caf::timespan{0});
    auto count = at->time_since_epoch().count();
    if (auto host = caf::actor_cast<caf::actor>(cfg.host))
      caf::delayed_anon_send(host, delay, protocol::timer_relay{self->id(), count});
    else
      self->delayed_send(self, delay, protocol::timer_tick{count});
  }

  void on_tick(const protocol::timer_tick& t) {
    auto fired = timers.tick(named_timers::time_point{named_timers::time_point::duration{t.at}}, now());
    if (fired.names.empty()) ++idle_ticks;
    bool wake_up = false;
    bool park_due = false;
    for (const auto& name : fired.names) {
      if (name == park_timer) {
        park_due = true;
      } else if (name != deadline_timer) {
        wake_up = true;
      } else if (phase == order_phase::running && slot) {
        pass_context ctx{slot};
        ctx.finish(pass_result::failed("pass did not finish within its deadline"));
      }
    }
    if (park_due && !wake_up && offer_park())
      deferred_tick = fired.next_tick;
    else
      send_tick(fired.next_tick);
    if (wake_up) wake();
  }

  void finish_pass(std::uint64_t n, pass_result r) {
    if (phase != order_phase::running || n != pass_number) return;
    phase = order_phase::idle;
    ++passes_finished;
    slot.reset();
    auto elapsed = seconds(now() - started_at);
    if (cfg.limiter) self->send(cfg.limiter, protocol::release_atom::value);
    std::optional<caf::timespan> requeue;
    auto* mm = m();
    if (mm) {
      mm->active_workers.dec();
      mm->reconcile_time.observe(elapsed);
      mm->work_duration.observe(elapsed);
    }
    report = std::move(r.report);
    last_pass_at = k8s::format_rfc3339(wall(now()));
    switch (r.outcome) {
      case pass_outcome::converged:
        errors.reset();
        if (mm) mm->reconcile_success.inc();
        break;
      case pass_outcome::requeue_after:
        errors.reset();
        requeue = r.after;
        if (mm) mm->reconcile_requeue_after.inc();
        break;
      case pass_outcome::requeue:
        requeue = errors.next();
        if (mm) {
          mm->reconcile_requeue.inc();
          mm->retries.inc();
        }
        break;
      case pass_outcome::error:
        requeue = errors.next();
        last_error = r.error;
        last_error_at = last_pass_at;
        // As controller-runtime's "Reconciler error": a failed pass (a refused write, say)
        // is visible in the log, naming the order; API errors carry no secret values.
        k8s::log::root().named("controller").error(
            "Reconciler error", r.error,
            {{"controller", mm ? mm->controller : std::string()}, {"namespace", cfg.key.namespace_},
             {"name", cfg.key.name}, {"cluster", cfg.key.cluster}, {"failures", errors.failures()}});
        if (mm) {
          mm->reconcile_error.inc();
          mm->reconcile_errors.inc();
          mm->retries.inc();
        }
        break;
    }
    timers.cancel_all();
    if (stopping) {
      quit_when_fenced();
      return;
    }
    settled = r.outcome == pass_outcome::converged || r.outcome == pass_outcome::requeue_after
                  ? std::move(r.settled)
                  : nullptr;
    // First: a timer days away armed after it sends no tick of its own (the
    // park tick is on its way before it), so a parked actor leaves none.
    if (parkable() && !wake_pending) arm(park_timer, cfg.options.park_after);
    for (const auto& [timer, d] : r.timers)
      if (timer != timer_names::requeue) arm(timer, d);
    if (requeue) arm(timer_names::requeue, *requeue);
    if (wake_pending) {
      wake_pending = false;
      enqueue(false);
    }
  }

  void stop() {
    if (stopping) return;
    stopping = true;
    wake_pending = false;
    timers.cancel_all();
    if (phase == order_phase::running) return;  // quits when the pass ends
    if (phase == order_phase::waiting_for_token) {
      phase = order_phase::idle;
      if (auto* mm = m()) mm->depth.dec();
    }
    quit_when_fenced();
  }

  // Stopping and no pass running: quits now, or once the last write sent is
  // answered (a write of this order must not reach the API server after the
  // drain: the host releases the order once the actor is gone).
  void quit_when_fenced() {
    if (writes->in_flight == 0) return self->quit();
    writes->on_idle = [this] {
      if (stopping && phase != order_phase::running) self->quit();
    };
  }

  protocol::order_probe probe() const {
    protocol::order_probe p;
    p.key = cfg.key;
    p.phase = static_cast<std::uint8_t>(stopping && (phase == order_phase::running || writes->in_flight > 0)
                                            ? order_phase::stopping
                                            : phase);
    p.writes_in_flight = writes->in_flight;
    p.wake_pending = wake_pending;
    p.passes_started = pass_number;
    p.passes_finished = passes_finished;
    p.idle_ticks = idle_ticks;
    p.ticks_in_flight = static_cast<std::uint32_t>(timers.ticks_in_flight());
    p.failures = errors.failures();
    for (auto& name : timers.armed_names())
      if (!internal(name)) p.armed_timers.push_back(std::move(name));
    p.last_error = last_error;
    p.report = report;
    p.last_pass_at = last_pass_at;
    p.last_error_at = last_error_at;
    for (const auto& name : p.armed_timers)
      if (auto at = timers.due(name)) p.timers_due.push_back(name + " " + k8s::format_rfc3339(wall(*at)));
    return p;
  }
};

caf::behavior order_actor(caf::stateful_actor<order_state>* self, order_actor_config cfg) {
  auto& st = self->state;
  st.self = self;
  st.errors = backoff{cfg.options.backoff_base, cfg.options.backoff_max};
  st.cfg = std::move(cfg);
  if (auto r = std::exchange(st.cfg.resume, nullptr)) {
    // Unparked: the order's history goes on.
    st.pass_number = r->passes_started;
    st.passes_finished = r->passes_finished;
    st.idle_ticks = r->idle_ticks;
    st.last_error = r->last_error;
    st.report = r->report;
    st.last_pass_at = r->last_pass_at;
    st.last_error_at = r->last_error_at;
  }
  return {
      [self](protocol::order_update& u) {
        auto& st = self->state;
        if (u.order) {
          if (st.delivered.size() == order_state::delivered_kept) {
            st.delivered.erase(st.delivered.begin());
            st.delivered_lost = true;
          }
          st.delivered.emplace_back(u.order.resource_version());
        }
        st.order = std::move(u.order);
        if (u.wake) st.wake();
      },
      [self](protocol::wake_atom) { self->state.wake(); },
      [self](const protocol::timer_tick& t) { self->state.on_tick(t); },
      [self](protocol::retire_atom) { self->state.stop(); },
      [self](protocol::stop_atom) { self->state.stop(); },
      [self](protocol::probe_atom) { return self->state.probe(); },
  };
}

}  // namespace

caf::actor spawn_order_actor(caf::actor_system& sys, order_actor_config cfg) {
  return sys.spawn(order_actor, std::move(cfg));
}

}  // namespace c5c3::runtime
