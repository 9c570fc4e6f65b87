// Which updates of an order wake its actor: watch.CRUpdatePredicate (apis.md
// 1.1). An update passes when the generation changed, the labels changed, the
// annotations changed, or the object has just become terminating (no
// deletionTimestamp before, one now). The order's own status writes change
// none of these and are filtered out. An order of a kind whose server tracks
// no generation (a core kind: the TokenRefresher's Secret, a client-org
// Namespace) has none to compare: a change outside its metadata and status
// (a Secret's data, a Namespace's spec) passes too, as upstream's For(Secret)
// without the predicate reconciles it.
#pragma once

#include "k8s/object.hpp"

namespace c5c3::runtime {

// `old` empty (never seen) always passes.
[[nodiscard]] bool cr_update_predicate(const k8s::object& old, const k8s::object& now);

// Whether a child's modification changed anything its cache keeps besides
// metadata.resourceVersion: a finalizer added by the child's own controller,
// or a status field the informer's projection drops (a PushSecret's
// refreshTime), changes nothing a plan reads, so it wakes no pass. `old`
// empty (an addition) always counts as a change.
[[nodiscard]] bool changed_beyond_version(const k8s::object& old, const k8s::object& now);

}  // namespace c5c3::runtime
