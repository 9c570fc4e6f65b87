// kmodules' CreateOrPatch as a write a plan returns (apis-monitoring.md
// section 3): the object absent, a create of what `mutate` makes of a new one;
// present, a JSON merge patch from the live object to what `mutate` makes of
// a copy of it (nothing when that changes nothing). Upstream patches core
// kinds with a strategic merge patch; a merge patch computed from the whole
// live object reaches the same object (lists are replaced by the list
// `mutate` left, which started as the live one).
#pragma once

#include "actors/runtime/runner/snapshot.hpp"
#include "actors/runtime/runner/write.hpp"
#include "k8s/object.hpp"

#include <functional>
#include <optional>

namespace c5c3::monitoring {

using mutate_fn = std::function<void(k8s::object_builder&)>;

// `live`: the object as read (null: absent); `fresh`: the new object's
// apiVersion, kind, namespace and name.
std::optional<runtime::child_write> create_or_patch(const k8s::object* live, const k8s::object& fresh,
                                                    const mutate_fn& mutate);

// As above within a pass: with `live` null, the object a create of `fresh`
// met as AlreadyExists earlier in this pass (the runner read it by name:
// `read_by_name`) is the live one. Two orders creating one shared object (the
// ClusterRole appscode:trickster:proxy of every Prometheus), or a cache behind
// the API server: the loser patches what the winner made instead of creating
// it again until its pass runs out of rounds.
std::optional<runtime::child_write> create_or_patch(const runtime::sense_snapshot& s, const k8s::object* live,
                                                    const k8s::object& fresh, const mutate_fn& mutate);
// That live object: `live`, else the one `fresh`'s create met (null: neither).
const k8s::object* live_or_met(const runtime::sense_snapshot& s, const k8s::object* live, const k8s::object& fresh);

// Patch only (cu.Patch): nothing when `live` is absent or unchanged.
std::optional<runtime::child_write> patch_only(const k8s::object& live, const mutate_fn& mutate);

// The merge patch from `live` to `desired` as a write (nullopt: no change).
std::optional<runtime::child_write> merge_patch_to(const k8s::object& live, const k8s::object& desired);

// A new object's identity: apiVersion, kind, namespace ("" cluster-scoped), name.
k8s::object new_object(const k8s::gvk& gvk, std::string_view ns, std::string_view name);

// metav1.NewControllerRef(owner, gvk): controller and blockOwnerDeletion true.
k8s::owner_reference controller_ref(const k8s::object& owner, const k8s::gvk& gvk);
// Replaces metadata.ownerReferences with exactly `refs`.
void set_owner_references(k8s::object_builder& b, const std::vector<k8s::owner_reference>& refs);

}  // namespace c5c3::monitoring
