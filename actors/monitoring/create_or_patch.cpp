#include "actors/monitoring/create_or_patch.hpp"

#include "k8s/patch.hpp"

namespace c5c3::monitoring {

k8s::object new_object(const k8s::gvk& gvk, std::string_view ns, std::string_view name) {
  return k8s::object_builder(gvk.api_version(), gvk.kind, ns, name).freeze();
}

std::optional<runtime::child_write> merge_patch_to(const k8s::object& live, const k8s::object& desired) {
  auto patch = k8s::create_merge_patch(live.json(), desired.json());
  if (!patch.IsObject() || patch.MemberCount() == 0) return std::nullopt;
  k8s::object_builder b(std::move(patch));
  b.set_api_version_kind(live.api_version(), live.kind());
  b.set_name(live.name());
  if (!live.namespace_().empty()) b.set_namespace(live.namespace_());
  return runtime::make_merge_patch(std::move(b).freeze());
}

std::optional<runtime::child_write> patch_only(const k8s::object& live, const mutate_fn& mutate) {
  if (!live) return std::nullopt;
  auto b = live.edit();
  mutate(b);
  return merge_patch_to(live, std::move(b).freeze());
}

std::optional<runtime::child_write> create_or_patch(const k8s::object* live, const k8s::object& fresh,
                                                    const mutate_fn& mutate) {
  if (live && *live) return patch_only(*live, mutate);
  auto b = fresh.edit();
  mutate(b);
  return runtime::make_create(std::move(b).freeze());
}

const k8s::object* live_or_met(const runtime::sense_snapshot& s, const k8s::object* live, const k8s::object& fresh) {
  if (live && *live) return live;
  for (const auto& o : s.read_by_name)
    if (o.kind() == fresh.kind() && o.gvk().group == fresh.gvk().group && o.namespace_() == fresh.namespace_() &&
        o.name() == fresh.name())
      return &o;
  return nullptr;
}

std::optional<runtime::child_write> create_or_patch(const runtime::sense_snapshot& s, const k8s::object* live,
                                                    const k8s::object& fresh, const mutate_fn& mutate) {
  return create_or_patch(live_or_met(s, live, fresh), fresh, mutate);
}

k8s::owner_reference controller_ref(const k8s::object& owner, const k8s::gvk& gvk) {
  return {gvk.api_version(), gvk.kind, std::string(owner.name()), std::string(owner.uid()), true, true};
}

void set_owner_references(k8s::object_builder& b, const std::vector<k8s::owner_reference>& refs) {
  b.remove({"metadata", "ownerReferences"});
  for (const auto& r : refs) b.add_owner_reference(r);
}

}  // namespace c5c3::monitoring
