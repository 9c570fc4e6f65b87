// Private to the order actor (order_actor.cpp: passes, stopping, the probe;
// order_actor_timers.cpp: named timers, their ticks through the host, and
// parking): its state.
#pragma once

#include "actors/runtime/backoff.hpp"
#include "actors/runtime/named_timers.hpp"
#include "actors/runtime/order_actor.hpp"

#include <caf/stateful_actor.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::runtime::detail {

using protocol::order_phase;

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
  // The last pass's question whether a child's event is the echo of the
  // order's own write (pass_result::echo), and how many woke no pass.
  std::function<bool(const std::string&, const k8s::object&, caf::actor_clock::time_point)> echo;
  std::uint64_t echoes = 0;
  // Child events that came during a pass, judged when it ends: the event of
  // a write may overtake the write's answer, which the pass's memo holds
  // only once it came. At most `held_kept`; past that, one more pass.
  static constexpr std::size_t held_kept = 16;
  std::vector<protocol::child_update> held_children;
  bool held_overflow = false;
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

  ~order_state();

  // order_actor.cpp. A wake-up that queues a pass counts by its cause
  // (c5c3_pass_wakes_total).
  void wake(wake_cause cause);
  void on_child(protocol::child_update c);
  bool is_echo(const protocol::child_update& c);
  void judge_held_children();
  void enqueue(bool count_add);
  void start_pass();
  void finish_pass(std::uint64_t n, pass_result r);
  void stop();
  void quit_when_fenced();
  protocol::order_probe probe() const;

  // order_actor_timers.cpp. The pass deadline and the park timer are named
  // timers of their own (never reported as armed).
  static constexpr const char* deadline_timer = "pass-deadline";
  static constexpr const char* park_timer = "park";
  static bool internal(const std::string& timer) { return timer == deadline_timer || timer == park_timer; }
  bool parkable() const;
  bool offer_park();
  void park_answered(const caf::actor& host, bool go, std::uint64_t epoch);
  void arm(const std::string& timer, caf::timespan d);
  void send_tick(std::optional<named_timers::time_point> at);
  void on_tick(const protocol::timer_tick& t);
};

}  // namespace c5c3::runtime::detail
