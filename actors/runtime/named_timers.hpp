// Named timers over CAF 0.17's delayed_send, which has no cancel handle: each
// arming or cancelling bumps the timer's generation, and only a message that
// carries the current generation of an armed timer counts. A pass ends by
// re-arming the timers it wants and cancelling the rest.
#pragma once

#include <cstdint>
#include <map>
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
  // Arms `name` (re-arming replaces an earlier arming); returns the generation
  // the delayed message must carry.
  std::uint64_t arm(const std::string& name);
  // Cancels `name`: a message already in flight becomes stale.
  void cancel(const std::string& name);
  void cancel_all();
  // A timer message arrived: true (and the timer disarmed) when it is the
  // current arming of an armed timer, false when stale.
  bool fire(const std::string& name, std::uint64_t generation);

  bool armed(const std::string& name) const;
  std::vector<std::string> armed_names() const;

 private:
  struct entry {
    std::uint64_t generation = 0;
    bool armed = false;
  };
  std::map<std::string, entry> timers_;
};

}  // namespace c5c3::runtime
