#include "actors/runtime/shard/scope.hpp"

#include "actors/runtime/shard/lease_state.hpp"

#include <algorithm>

namespace c5c3::runtime::shard {

std::string scope::selector() const {
  switch (shape) {
    case form::own: return std::string(claim_label) + " in (" + me + ")";
    case form::all: return {};
    case form::all_but: {
      std::string list;
      for (const auto& m : others) list += (list.empty() ? "" : ",") + m;
      return std::string(claim_label) + " notin (" + list + ")";
    }
  }
  return {};
}

bool scope::shows(const std::string& holder) const {
  switch (shape) {
    case form::own: return holder == me;
    case form::all: return true;
    case form::all_but: return !std::binary_search(others.begin(), others.end(), holder);
  }
  return false;
}

scope scope_of(const std::string& me, const protocol::shard_view* view) {
  scope s{scope::form::own, me, {}};
  if (!view) return s;
  for (const auto& m : view->members)
    if (m != me && !std::binary_search(view->fading.begin(), view->fading.end(), m)) s.others.push_back(m);
  std::sort(s.others.begin(), s.others.end());
  s.others.erase(std::unique(s.others.begin(), s.others.end()), s.others.end());
  s.shape = s.others.empty() ? scope::form::all : scope::form::all_but;
  return s;
}

std::string watch_scope(const std::string& me, const protocol::shard_view* view) {
  return scope_of(me, view).selector();
}

}  // namespace c5c3::runtime::shard
