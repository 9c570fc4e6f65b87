#include "actors/runtime/shard/scope_cover.hpp"

#include <algorithm>

namespace c5c3::runtime::shard {

void scope_cover::asked(scope s) {
  std::lock_guard lock(m_);
  if (std::find(answering_.begin(), answering_.end(), s) == answering_.end()) answering_.push_back(std::move(s));
}

void scope_cover::settled(scope s) {
  std::lock_guard lock(m_);
  answering_.assign(1, std::move(s));
}

bool scope_cover::shows(const std::string& holder) const {
  std::lock_guard lock(m_);
  return std::all_of(answering_.begin(), answering_.end(), [&](const scope& s) { return s.shows(holder); });
}

}  // namespace c5c3::runtime::shard
