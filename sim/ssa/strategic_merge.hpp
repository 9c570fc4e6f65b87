// Strategic merge patch (application/strategic-merge-patch+json) as
// kube-apiserver applies it to built-in kinds (k8s.io/apimachinery
// strategicpatch), as far as kubectl uses it: `kubectl apply` client-side
// three-way patches, `kubectl patch` (its default type on built-ins),
// `kubectl label` and `kubectl annotate`.
//
// Over a JSON merge patch it adds, guided by the kind's schema
// (builtin_schemas.hpp: patch strategy and merge key per field):
//   - lists with strategy "merge": items merged by their merge key (maps) or
//     united (primitives) instead of replaced; lists without a strategy are
//     replaced whole;
//   - `$patch: replace` (a map or list replaced whole), `$patch: delete` (a
//     map removed; in a merging list, the item with that merge key removed),
//     `$patch: merge` (the default);
//   - `$retainKeys: [...]` (keys of the original map not listed are dropped);
//   - `$setElementOrder/<field>: [...]` (the order of the merged list);
//   - `$deleteFromPrimitiveList/<field>: [...]` (values removed from a
//     primitive list).
// Custom resources have no strategic information: check
// supports_strategic_merge() and answer 415 Unsupported Media Type first.
#pragma once

#include "k8s/json.hpp"
#include "sim/ssa/schema.hpp"

#include <optional>
#include <string>

namespace c5c3::sim::ssa {

struct strategic_merge_error {
  int code = 400;  // 400 bad request, 422 for content the schema forbids
  std::string message;
};

// Applies `patch` (a JSON object) to `target` in place; on error `target` is
// left untouched. `schema.root` null: every list is replaced (merge patch
// semantics plus the directives).
std::optional<strategic_merge_error> apply_strategic_merge_patch(k8s::json_document& target,
                                                                 const k8s::json_value& patch,
                                                                 const type_schema& schema);

}  // namespace c5c3::sim::ssa
