// The pure parts of the runner's act step: which slot an object belongs to,
// folding a write's answer into the snapshot, and the field a plan that does
// not settle keeps writing.
#pragma once

#include "actors/runtime/runner/declaration.hpp"

#include <string>

namespace c5c3::runtime {

// Whether `o`, on the cluster of `role`, is one `slot` would have read (in
// the namespace the slot was read in, and, by mode, the order's labels, the
// located name or the selector).
bool slot_holds(const read_slot& slot, const slot_result& result, cluster_role role, const k8s::object& o,
                const ownership_keys& keys, const protocol::order_key& order);

// Folds the answer to `w` into every slot that holds its object: replaced,
// added, or removed when a delete left it gone (`answer` empty, or not
// terminating).
void fold_answer(sense_snapshot& s, const std::vector<read_slot>& reads, const ownership_keys& keys,
                 const child_write& w, const k8s::object& answer);

// The first field (a dotted path, e.g. "spec.name" or "data.password") that
// `desired` sets and `live` does not carry with the same value; "" when every
// one is there. Never a value: Secret data must not reach a message.
std::string first_unapplied_field(const k8s::object& desired, const k8s::object& live);

// "<Kind> <namespace>/<name>" of an object, for messages.
std::string describe_object(const k8s::object& o);

}  // namespace c5c3::runtime
