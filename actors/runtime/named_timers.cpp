#include "actors/runtime/named_timers.hpp"

namespace c5c3::runtime {

std::uint64_t named_timers::arm(const std::string& name) {
  auto& e = timers_[name];
  ++e.generation;
  e.armed = true;
  return e.generation;
}

void named_timers::cancel(const std::string& name) {
  auto i = timers_.find(name);
  if (i == timers_.end()) return;
  ++i->second.generation;
  i->second.armed = false;
}

void named_timers::cancel_all() {
  for (auto& [name, e] : timers_) {
    ++e.generation;
    e.armed = false;
  }
}

bool named_timers::fire(const std::string& name, std::uint64_t generation) {
  auto i = timers_.find(name);
  if (i == timers_.end() || !i->second.armed || i->second.generation != generation) return false;
  i->second.armed = false;
  return true;
}

bool named_timers::armed(const std::string& name) const {
  auto i = timers_.find(name);
  return i != timers_.end() && i->second.armed;
}

std::vector<std::string> named_timers::armed_names() const {
  std::vector<std::string> out;
  for (const auto& [name, e] : timers_)
    if (e.armed) out.push_back(name);
  return out;
}

}  // namespace c5c3::runtime
