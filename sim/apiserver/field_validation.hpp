// Server-side field validation as kube-apiserver 1.34 does it (the fieldValidation
// parameter of create, update and patch; Warn when it is not given):
//
//   Strict  refuses an unknown or duplicate field (400 "<Kind> in version "<v>" cannot be
//           handled as a <Kind>: strict decoding error: unknown field "spec.x", ...";
//           422 "patch: Invalid value: ..." for a patch),
//   Warn    drops it and answers a Warning header per field (299 - "unknown field \"spec.x\""),
//   Ignore  drops it silently.
//
// Unknown means: not a field of ObjectMeta under metadata (every kind); not declared by the
// kind's schema (the structural schema of a custom resource, the emulator's OpenAPI schema
// of a built-in kind). Duplicate means a JSON member name given twice in one object; the
// later one wins (a built-in kind's objects are merged, as Go decodes into a typed struct).
#pragma once

#include "k8s/api_resource.hpp"
#include "k8s/json.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim {

enum class field_validation { ignore, warn, strict };

// "" (the default) is Warn; nullopt for a value kube refuses.
std::optional<field_validation> parse_field_validation(std::string_view value);

// Removes the earlier copies of duplicate member names anywhere in `v`; answers their
// paths ("spec.a", "data"), in document order.
std::vector<std::string> drop_duplicate_fields(k8s::json_value& v, k8s::json_allocator& alloc,
                                               bool merge_objects);

// Removes the fields `r` does not declare from the object `obj`; answers their paths, as
// kube orders them (document order for a built-in kind; metadata first, then sorted, for a
// custom resource). `custom_unknown` gives a custom resource's undeclared paths (its
// structural pruning).
using custom_unknown_fn = std::vector<std::string> (*)(const k8s::api_resource&, k8s::json_value&);
std::vector<std::string> drop_unknown_fields(const k8s::api_resource& r, k8s::json_value& obj,
                                             bool builtin, custom_unknown_fn custom_unknown);

// The findings of one request, in kube's words: `unknown field "x"`, `duplicate field "y"`.
struct field_findings {
  std::vector<std::string> duplicates;
  std::vector<std::string> unknown;
  bool custom = false;  // a custom resource: duplicates are listed first
  bool empty() const { return duplicates.empty() && unknown.empty(); }
  std::vector<std::string> messages() const;
  // `strict decoding error: unknown field "x", duplicate field "y"`
  std::string strict_error() const;
  // The Warning header values: `299 - "unknown field \"x\""`.
  std::vector<std::string> warning_headers() const;
};

}  // namespace c5c3::sim
