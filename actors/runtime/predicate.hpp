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

}  // namespace c5c3::runtime
