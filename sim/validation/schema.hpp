// A CRD version's openAPIV3Schema compiled as kube-apiserver does at CRD
// creation: structural checks, patterns compiled, CEL rules parsed and checked
// against the subset this emulator evaluates.
#pragma once

#include "k8s/json.hpp"
#include "sim/validation/cel_ast.hpp"
#include "sim/validation/field_error.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::sim::validation {

struct compiled_pattern;

// One x-kubernetes-validations entry.
struct compiled_rule {
  std::string rule;
  std::string message;
  std::string message_expression;
  std::string reason;      // "" (FieldValueInvalid), FieldValueForbidden, FieldValueRequired, FieldValueDuplicate
  std::string field_path;  // normalized: "a.b" relative to the node, "" for none
  cel::expr_ptr program;
  cel::expr_ptr message_program;
  bool uses_old_self = false;
};

struct schema_node {
  std::string type;  // "", "object", "array", "string", "integer", "number", "boolean"
  bool nullable = false;
  bool int_or_string = false;
  bool preserve_unknown_fields = false;
  bool embedded_resource = false;
  std::string format;
  std::optional<double> minimum, maximum, multiple_of;
  bool exclusive_minimum = false, exclusive_maximum = false;
  std::optional<std::int64_t> min_length, max_length, min_items, max_items, min_properties,
      max_properties;
  std::string pattern;
  std::shared_ptr<const compiled_pattern> pattern_re;
  const k8s::json_value* enum_values = nullptr;  // array, in the compiled schema's document
  const k8s::json_value* default_value = nullptr;
  std::map<std::string, schema_node> properties;
  std::unique_ptr<schema_node> additional_properties;  // additionalProperties as a schema
  std::unique_ptr<schema_node> items;
  std::vector<std::string> required;
  std::string list_type;  // "", atomic, set, map
  std::vector<std::string> list_map_keys;
  std::string map_type;  // "", granular, atomic
  std::vector<compiled_rule> rules;
  bool rules_below = false;  // this node or one below has rules (set by compile)

  const schema_node* property(const std::string& name) const {
    auto it = properties.find(name);
    return it == properties.end() ? nullptr : &it->second;
  }
  bool has_rules_below() const { return rules_below; }
};

struct compiled_schema {
  k8s::json_document source;  // owns enum and default values
  schema_node root;
};

struct compile_result {
  std::shared_ptr<const compiled_schema> schema;  // null when `errors` is not empty
  std::vector<field_error> errors;
  explicit operator bool() const { return static_cast<bool>(schema); }
};

// Compiles a version's openAPIV3Schema. `path` prefixes every error field, as
// kube reports them on the CRD ("spec.versions[0].schema.openAPIV3Schema").
// A schema that is not structural, a pattern that does not compile, or a CEL
// rule outside the supported subset is refused with a field error.
compile_result compile(const k8s::json_value& open_api_v3_schema,
                       const std::string& path = "spec.validation.openAPIV3Schema");

}  // namespace c5c3::sim::validation
