// Schema hints for merging: how each field of a kind merges under server-side
// apply (list and map types) and under strategic merge patch (patch strategy
// and merge key). Built from an OpenAPI v3 schema (a CRD version's
// openAPIV3Schema, or the built-in kinds' schemas in builtin_schemas.hpp).
//
// Read from the schema: type, properties, items, additionalProperties,
// default, x-kubernetes-list-type (atomic | set | map),
// x-kubernetes-list-map-keys, x-kubernetes-map-type (granular | atomic),
// x-kubernetes-preserve-unknown-fields, x-kubernetes-patch-strategy,
// x-kubernetes-patch-merge-key. Without a schema, objects are granular maps
// whose keys are all "undeclared", lists are atomic (structured-merge-diff's
// deduced type).
#pragma once

#include "k8s/json.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::sim::ssa {

struct schema_node;
using schema_ptr = std::shared_ptr<const schema_node>;

enum class list_type { atomic, set, map };
enum class map_type { granular, atomic };

struct schema_node {
  enum class kind_t {
    untyped,  // no schema: deduced from the value
    scalar,
    object,
    list,
  };
  kind_t kind = kind_t::untyped;

  // object: declared fields (a struct), or an element type for any key (a
  // map, additionalProperties). Undeclared keys without an element type are
  // untyped.
  std::map<std::string, schema_ptr> properties;
  schema_ptr additional;
  map_type map = map_type::granular;

  // list
  list_type list = list_type::atomic;
  std::vector<std::string> keys;  // list_type::map
  schema_ptr items;

  // Strategic merge patch: "merge", "replace", "retainKeys", "merge,retainKeys".
  std::string patch_strategy;
  std::string patch_merge_key;

  // Compact JSON of `default`, when the schema gives one (used for list-map
  // keys an item leaves out, e.g. a Service port's protocol "TCP").
  std::string default_json;

  // The schema of member `name` (declared field, else element type), or null.
  schema_ptr field(std::string_view name) const;
  bool declares(std::string_view name) const { return properties.count(std::string(name)) > 0; }
  bool has_strategy(std::string_view s) const;
};

// The schema of a whole object: its root node and the JSON of the kind's
// empty object (what a typed Go zero value serializes to, e.g. {"spec":{}}
// for a Service), which is the "old" object of a create for managedFields.
struct type_schema {
  schema_ptr root;
  std::string empty_object = "{}";
  // Whether kube-apiserver accepts strategic merge patch for the kind (built-in
  // kinds only; custom resources answer 415 Unsupported Media Type).
  bool strategic_merge = false;
};

// Parses an OpenAPI v3 schema node (recursively).
schema_ptr schema_from_openapi(const k8s::json_value& openapi);

// A whole object's schema from a CRD version's openAPIV3Schema: the given
// schema with metadata replaced by the built-in ObjectMeta hints (labels and
// annotations granular maps, finalizers a set, ownerReferences a map keyed by
// uid) and apiVersion/kind scalars. A null `openapi` gives the deduced schema
// with the same metadata hints.
type_schema object_schema_from_openapi(const k8s::json_value* openapi);

// The ObjectMeta schema node.
schema_ptr object_meta_schema();

}  // namespace c5c3::sim::ssa
