// Named timers over CAF 0.17's delayed_send, which has no cancel handle.
//
// A delayed message stays in CAF's clock until it is due, whatever becomes of
// the timer it was sent for. Sending one per arming made every pass leave one
// behind for each timer it re-armed (a rotation timer days away, the pass
// deadline ten minutes away): memory that grew with the passes. So the timers
// here are due times, and an actor keeps at most a few "ticks" in flight: a
// tick is sent only when a timer comes due before every tick already on its
// way; a tick that arrives fires what is due and sends the next one if needed.
// Re-arming or cancelling a timer sends nothing.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace c5c3::runtime {

// Timer names the order kinds share.
namespace timer_names {
inline constexpr const char* requeue = "requeue";
inline constexpr const char* rotation = "rotation";
inline constexpr const char* grace = "grace";
}  // namespace timer_names

class named_timers {
 public:
  using time_point = std::chrono::steady_clock::time_point;

  // Arms `name` to fire at `due` (re-arming replaces an earlier arming).
  // Returns when a tick must be sent, if one must.
  std::optional<time_point> arm(const std::string& name, time_point due);
  // Disarms `name` (a tick already on its way finds nothing due for it).
  void cancel(const std::string& name);
  void cancel_all();

  struct fired {
    std::vector<std::string> names;       // due at the tick, now disarmed (in name order)
    std::optional<time_point> next_tick;  // when the next tick must be sent, if it must
  };
  // The tick sent for `at` arrived at `now`.
  fired tick(time_point at, time_point now);

  bool armed(const std::string& name) const { return due_.count(name) != 0; }
  std::optional<time_point> due(const std::string& name) const;
  std::vector<std::string> armed_names() const;
  // Ticks sent and not yet arrived.
  std::size_t ticks_in_flight() const { return ticks_.size(); }

 private:
  std::optional<time_point> need_tick();

  std::map<std::string, time_point> due_;
  std::multiset<time_point> ticks_;
};

}  // namespace c5c3::runtime
