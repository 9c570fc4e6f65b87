// The kind-specific pass an order actor runs: sense, plan, act (design.md).
//
// A pass is asynchronous: the actor calls the kind's pass_fn with a
// pass_context and the pass may send requests (to a cluster actor, to the
// ControlPlane actor) whose answers arrive later in the same actor. It ends by
// calling ctx.finish(result) exactly once, from inside the actor (a request's
// then-handler, or synchronously). Until then no other pass of that order
// starts; wake-ups meanwhile are coalesced into one more pass.
//
//   pass_fn pass = [](pass_context ctx) {
//     ctx.self()->request(cluster, 10s, protocol::get_request{...}).then(
//         [ctx](const k8s::object& o) { ctx.finish(pass_result::converged()); },
//         [ctx](const caf::error& e) { ctx.finish(pass_result::failed(protocol::describe(e))); });
//   };
#pragma once

#include "k8s/object.hpp"
#include "protocol/order.hpp"

#include <caf/actor_clock.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/timespan.hpp>

#include <chrono>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace c5c3::runtime {

enum class pass_outcome : std::uint8_t {
  converged,      // success; wait for an event (or the timers the pass armed)
  requeue_after,  // success; come back after `after`
  requeue,        // come back after the per-order backoff (controller-runtime's Requeue: true)
  error,          // failure; come back after the per-order backoff
};
const char* to_string(pass_outcome x);

struct pass_result {
  pass_outcome outcome = pass_outcome::converged;
  caf::timespan after{0};  // requeue_after only
  std::string error;       // error only: one line, no secrets
  // Named timers to (re)arm when the pass ends (rotation, grace, ...). Every
  // timer not listed here is cancelled. "requeue" is driven by the outcome.
  std::map<std::string, caf::timespan> timers;
  // What the pass leaves for explain (the order actor keeps the last one).
  protocol::pass_report report;
  // Asked once the order has been idle for order_actor_options::park_after
  // after a successful pass (`order`: the newest version the host
  // delivered; `now`: the actor clock): whether the pass's closure keeps
  // nothing a parked order would lose (the runner: its write memo, spent
  // against that version, is empty). True parks the actor; false asks again
  // after park_after; empty: never parked.
  std::function<bool(const k8s::object& order, caf::actor_clock::time_point now)> settled;
  // Asked for each event of one of the order's children (its cluster, the
  // object as the event shows it) from then on: whether it is only the echo
  // of one of the order's own writes, whose answer its pass continued from
  // (the runner: a version its write memo holds as an answer). Such an event
  // wakes no pass: the pass it would start sees nothing new. Empty: every
  // child event wakes one.
  std::function<bool(const std::string& cluster, const k8s::object& child, caf::actor_clock::time_point now)> echo;

  static pass_result converged() { return {}; }
  // A duration <= 0 is plain success, as controller-runtime treats RequeueAfter 0.
  static pass_result requeue_after(caf::timespan d);
  static pass_result requeue();
  static pass_result failed(std::string why);
  pass_result& arm(std::string name, caf::timespan d) {
    timers[std::move(name)] = d;
    return *this;
  }
};

// Wall-clock time for a pass, given the actor clock's now (virtual under the
// test coordinator): lets tests run rotation and expiry in virtual time.
using wall_clock_fn = std::function<std::chrono::system_clock::time_point(
    caf::actor_clock::time_point)>;

namespace detail {
// The order actor's write fence: writes its passes sent and not yet answered
// (shared by every pass of the actor, past ones too).
struct write_count {
  std::uint32_t in_flight = 0;
  std::function<void()> on_idle;  // the actor's; cleared when it goes
};

struct pass_slot {
  caf::event_based_actor* self = nullptr;
  caf::actor_addr host;
  wall_clock_fn wall_clock;
  protocol::order_key key;
  k8s::object order;
  // The resourceVersions of every order version the host delivered since the
  // actor's previous pass began (oldest first), and whether that is all of
  // them (the actor keeps a few dozen; false also when no order actor
  // keeps an account).
  std::vector<std::string> delivered;
  bool delivered_all = false;
  std::uint64_t number = 0;
  bool open = true;
  std::function<void(std::uint64_t, pass_result)> on_finish;
  std::shared_ptr<write_count> writes{};  // null: not counted
};
}  // namespace detail

// A handle on one running pass; cheap to copy into continuations.
class pass_context {
 public:
  explicit pass_context(std::shared_ptr<detail::pass_slot> slot) : slot_(std::move(slot)) {}

  caf::event_based_actor* self() const { return slot_->self; }
  const protocol::order_key& key() const { return slot_->key; }
  // The order's host (invalid: none). What must outlive this actor, such as
  // the order's place in the ControlPlane fan-out, is registered for it.
  const caf::actor_addr& host() const { return slot_->host; }
  // The order as the host last delivered it when the pass started (empty if
  // the actor was woken before any order object reached it).
  const k8s::object& order() const { return slot_->order; }
  // The resourceVersions of the order the host delivered since the actor's
  // previous pass began, oldest first (the host hands every version to the
  // actor in the order its informer delivered them, so the last is
  // order()'s), and whether the list is complete (false: some are missing,
  // or no account was kept).
  const std::vector<std::string>& delivered() const { return slot_->delivered; }
  bool delivered_all() const { return slot_->delivered_all; }
  // The actor clock: virtual time under the test coordinator.
  caf::actor_clock::time_point now() const { return slot_->self->clock().now(); }
  // Wall-clock time (RFC 3339 timestamps, expiry): the system clock unless the
  // order actor was given a wall_clock.
  std::chrono::system_clock::time_point wall_now() const {
    return slot_->wall_clock ? slot_->wall_clock(now()) : std::chrono::system_clock::now();
  }
  std::uint64_t number() const { return slot_->number; }
  // Whether the pass may still finish (not finished, not past its deadline,
  // actor alive).
  bool open() const { return slot_->open; }
  // Ends the pass. Returns false (and does nothing) when it already ended.
  bool finish(pass_result r) const;
  // The write fence: a write the pass sends to an API server counts from
  // write_sent() until write_answered() (its answer, or its request's
  // timeout, which outlasts the write's deadline), even after the pass ended.
  // A retired or stopped order actor quits only once none is outstanding, so
  // its drain never completes while a write of its order may still be sent.
  // Both from inside the actor.
  void write_sent() const {
    if (slot_->writes) ++slot_->writes->in_flight;
  }
  void write_answered() const {
    auto& w = slot_->writes;
    if (!w || w->in_flight == 0) return;
    if (--w->in_flight == 0 && w->on_idle) w->on_idle();
  }

 private:
  std::shared_ptr<detail::pass_slot> slot_;
};

using pass_fn = std::function<void(pass_context)>;
// Makes the pass of one order (called once per order actor, so a kind may
// keep per-order state in the closure).
using pass_factory = std::function<pass_fn(const protocol::order_key&)>;

}  // namespace c5c3::runtime
