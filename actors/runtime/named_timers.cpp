#include "actors/runtime/named_timers.hpp"

#include <algorithm>

namespace c5c3::runtime {

std::optional<named_timers::time_point> named_timers::need_tick() {
  if (due_.empty()) return std::nullopt;
  auto earliest = std::min_element(due_.begin(), due_.end(),
                                   [](const auto& a, const auto& b) { return a.second < b.second; })
                      ->second;
  // A tick on its way at or before the earliest due time will see to it.
  if (!ticks_.empty() && *ticks_.begin() <= earliest) return std::nullopt;
  ticks_.insert(earliest);
  return earliest;
}

std::optional<named_timers::time_point> named_timers::arm(const std::string& name, time_point due) {
  due_[name] = due;
  return need_tick();
}

void named_timers::cancel(const std::string& name) { due_.erase(name); }

void named_timers::cancel_all() { due_.clear(); }

named_timers::fired named_timers::tick(time_point at, time_point now) {
  if (auto i = ticks_.find(at); i != ticks_.end()) ticks_.erase(i);
  fired out;
  for (auto i = due_.begin(); i != due_.end();) {
    if (i->second <= now) {
      out.names.push_back(i->first);
      i = due_.erase(i);
    } else {
      ++i;
    }
  }
  out.next_tick = need_tick();
  return out;
}

std::optional<named_timers::time_point> named_timers::due(const std::string& name) const {
  auto i = due_.find(name);
  if (i == due_.end()) return std::nullopt;
  return i->second;
}

std::vector<std::string> named_timers::armed_names() const {
  std::vector<std::string> out;
  for (const auto& [name, at] : due_) out.push_back(name);
  return out;
}

}  // namespace c5c3::runtime
