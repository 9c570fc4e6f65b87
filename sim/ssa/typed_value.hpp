// Schema-guided walks over JSON values, as structured-merge-diff's typed
// package does them: the field set a value sets, the comparison of two
// values, the merge of an applied configuration into a live object, and the
// removal of a path.
#pragma once

#include "k8s/json.hpp"
#include "sim/ssa/field_set.hpp"
#include "sim/ssa/schema.hpp"

#include <optional>
#include <string>

namespace c5c3::sim::ssa {

// The path element of a list item under `list` (a set or map list): a key
// element for listType=map (missing key fields take the schema default), a
// value element for listType=set. nullopt (and `error`) when an item lacks a
// key field.
std::optional<path_element> list_item_element(const k8s::json_value& item,
                                              const schema_node& list, std::string* error);

// The fields `v` sets (ToFieldSet): leaves, atomic lists and maps, list items
// themselves, and map entries that are undeclared fields, null or empty maps.
// `error` names the first problem as structured-merge-diff words it, e.g.
// `.spec.ports: element 0: associative list with keys has an element that
// omits key field "port" (and doesn't have default value)` or
// `.status.conditions: duplicate entries for key [type="Ready"]`.
field_set to_field_set(const k8s::json_value& v, const schema_ptr& schema, std::string* error);

struct comparison {
  field_set added, modified, removed;
  bool same() const { return added.empty() && modified.empty() && removed.empty(); }
};

// What changed from `lhs` to `rhs` (either may be null: absent). Leaves are
// added, modified or removed; maps, lists and their items appear as added or
// removed when they appear or disappear.
comparison compare(const k8s::json_value* lhs, const k8s::json_value* rhs,
                   const schema_ptr& schema);

// `config` merged into `live` (structured-merge-diff Merge): granular maps
// merge by key, set and map lists by item (live order, applied items placed as
// structured-merge-diff places them), everything else is replaced. Members
// the configuration sets to null are dropped.
k8s::json_value merge(const k8s::json_value* live, const k8s::json_value* config,
                      const schema_ptr& schema, k8s::json_allocator& alloc);

// Removes the value at `p` from `v`; returns whether it was there.
bool remove_path(k8s::json_value& v, const path& p, const schema_ptr& schema);

}  // namespace c5c3::sim::ssa
