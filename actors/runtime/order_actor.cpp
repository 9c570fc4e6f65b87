// The order actor (order_actor.hpp): its passes, wake-ups, stopping and probe;
// its timers and parking are in order_actor_timers.cpp.
#include "actors/runtime/order_actor.hpp"

#include "actors/runtime/mailbox_depth.hpp"
#include "actors/runtime/order_actor_state.hpp"
#include "k8s/log.hpp"

#include <caf/actor_system.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/stateful_actor.hpp>

#include <chrono>
#include <exception>
#include <utility>

namespace c5c3::runtime {

namespace detail {

namespace {
double seconds(caf::timespan d) { return std::chrono::duration<double>(d).count(); }
}  // namespace

order_state::~order_state() {
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

void order_state::wake(wake_cause cause) {
  if (stopping) return;
  switch (phase) {
    case order_phase::running:
      if (!wake_pending) {
        wake_pending = true;
        if (auto* mm = m()) {
          mm->adds.inc();
          mm->wakes(cause).inc();
        }
      }
      break;
    case order_phase::waiting_for_token:
      break;  // already queued: coalesced
    case order_phase::idle:
      if (auto* mm = m()) mm->wakes(cause).inc();
      enqueue(true);
      break;
    case order_phase::stopping:
    case order_phase::parked:  // never an actor's own phase
      break;
  }
}

bool order_state::is_echo(const protocol::child_update& c) {
  if (!echo || !echo(c.cluster, c.child, now())) return false;
  ++echoes;
  if (auto* mm = m()) mm->child_echoes.inc();
  return true;
}

void order_state::on_child(protocol::child_update c) {
  if (stopping) return;
  if (!c.news) {
    // Nothing changed but the version: between passes it spends what the
    // memo held up to it (a pass's next read would).
    if (echo && phase != order_phase::running) echo(c.cluster, c.child, now());
    return;
  }
  if (phase == order_phase::running && !wake_pending) {
    // Judged when the pass ends, once its writes' answers are in its memo.
    if (held_children.size() < held_kept)
      held_children.push_back(std::move(c));
    else
      held_overflow = true;
    return;
  }
  if (!is_echo(c)) wake(wake_cause::child);
}

// The pass ended: a child event that came during it and is not the echo of
// one of its writes wakes one more.
void order_state::judge_held_children() {
  auto held = std::exchange(held_children, {});
  bool news = std::exchange(held_overflow, false);
  for (const auto& c : held)
    if (!is_echo(c)) news = true;
  if (news && !stopping && !wake_pending) {
    wake_pending = true;
    if (auto* mm = m()) {
      mm->adds.inc();
      mm->wakes(wake_cause::child).inc();
    }
  }
}

void order_state::enqueue(bool count_add) {
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

void order_state::start_pass() {
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
  slot->host = cfg.host;
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

void order_state::finish_pass(std::uint64_t n, pass_result r) {
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
  if (r.echo) echo = std::move(r.echo);
  judge_held_children();
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

void order_state::stop() {
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
void order_state::quit_when_fenced() {
  if (writes->in_flight == 0) return self->quit();
  writes->on_idle = [this] {
    if (stopping && phase != order_phase::running) self->quit();
  };
}

protocol::order_probe order_state::probe() const {
  protocol::order_probe p;
  p.key = cfg.key;
  p.phase = static_cast<std::uint8_t>(stopping && (phase == order_phase::running || writes->in_flight > 0)
                                          ? order_phase::stopping
                                          : phase);
  p.writes_in_flight = writes->in_flight;
  p.echoes = echoes;
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

}  // namespace detail

namespace {

using detail::order_state;

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
    st.echoes = r->echoes;
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
        if (u.wake) st.wake(u.cause);
      },
      [self](protocol::child_update& c) { self->state.on_child(std::move(c)); },
      [self](protocol::wake_atom) { self->state.wake(wake_cause::host); },
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
