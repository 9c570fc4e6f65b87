#include "actors/runtime/shard/scope.hpp"

#include "actors/runtime/shard/lease_state.hpp"

namespace c5c3::runtime::shard {

std::string watch_scope(const std::string& me, const protocol::shard_view* view) {
  if (!view) return std::string(claim_label) + " in (" + me + ")";
  std::string others;
  for (const auto& m : view->members) {
    if (m == me) continue;
    others += (others.empty() ? "" : ",") + m;
  }
  if (others.empty()) return {};
  return std::string(claim_label) + " notin (" + others + ")";
}

}  // namespace c5c3::runtime::shard
