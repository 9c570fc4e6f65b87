// The public face of sim/validation: what kube-apiserver does with a CRD's
// schema on create/update of a custom resource.
//
//   auto c = compile(crd_version_schema, "spec.versions[0].schema.openAPIV3Schema");
//   if (!c) -> 422 on the CRD with c.errors (invalid_error("apiextensions.k8s.io", ...))
//   prune(*c.schema, obj); apply_defaults(*c.schema, obj, alloc);
//   auto errs = validate(*c.schema, obj, old_or_null);
//   if (!errs.empty()) -> invalid_error(group, kind, name, errs)   (HTTP 422)
#pragma once

#include "k8s/json.hpp"
#include "sim/validation/field_error.hpp"
#include "sim/validation/schema.hpp"

#include <string>
#include <vector>

namespace c5c3::sim::validation {

// Validates `obj` (a whole custom resource) as kube-apiserver's CR strategy
// does: OpenAPI schema errors, then list-type set/map uniqueness, then the
// x-kubernetes-validations rules (skipped with one "some validation rules were
// not checked" error when a blocking error precedes them). `old` (the stored
// object) makes it an update: transition rules run where an old value is
// correlated, and errors on values unchanged from `old` are ratcheted away.
// `prior` are errors the caller found first (metadata checks); they lead the
// list and count as blocking errors too.
std::vector<field_error> validate(const compiled_schema& schema, const k8s::json_value& obj,
                                  const k8s::json_value* old = nullptr,
                                  std::vector<field_error> prior = {});

// The OpenAPI (non-CEL) checks of one value against one node; `path` names the
// value as kube-openapi does ("" for the root, "spec.x", "spec.list[0]").
std::vector<field_error> validate_openapi(const schema_node& node, const k8s::json_value& v,
                                          const std::string& path);

// Structural defaulting: missing properties (and non-nullable nulls) with a
// default get a deep copy of it, recursively. Non-nullable nulls without a
// default are dropped first, as kube does.
void apply_defaults(const compiled_schema& schema, k8s::json_value& obj, k8s::json_allocator& alloc);

// Drops fields the schema does not declare, except under
// x-kubernetes-preserve-unknown-fields and apiVersion/kind/metadata at the
// root and in embedded resources. Returns the dropped paths ("spec.foo").
std::vector<std::string> prune(const compiled_schema& schema, k8s::json_value& obj);

}  // namespace c5c3::sim::validation
