#include "sim/world/korc_guard.hpp"

#include "sim/world/korc_kinds.hpp"

namespace c5c3::sim::world {
namespace {

bool owned_by(const k8s::object& o, const k8s::object& owner) {
  for (const auto& r : o.owner_references())
    if (r.kind == owner.kind() && r.uid == owner.uid()) return true;
  return false;
}

}  // namespace

std::optional<object_write> release_guards(const k8s::object& guarded, const std::vector<k8s::object>& korc_objects) {
  if (!guarded || !guarded.terminating()) return std::nullopt;
  auto own = korc_kind_of(guarded.kind());
  const std::string kind = own ? std::string(guarded.kind()) : "Secret";
  auto b = guarded.edit();
  bool changed = false;
  for (const auto& info : korc_kinds()) {
    auto f = korc_finalizer(info.kind);
    if (!guarded.has_finalizer(f) || (own && own->kind == info.kind)) continue;
    bool held = false;
    for (const auto& o : korc_objects) {
      if (o.kind() != info.k8s_kind || o.namespace_() != guarded.namespace_()) continue;
      if (guards(o, kind, guarded.name()) && !owned_by(o, guarded)) held = true;
    }
    if (!held) {
      b.remove_finalizer(f);
      changed = true;
    }
  }
  if (!changed) return std::nullopt;
  return object_write{write_verb::update, std::move(b).freeze()};
}

}  // namespace c5c3::sim::world
