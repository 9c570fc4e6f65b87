// Compilation of a CRD version's openAPIV3Schema (the structural-schema rules
// of apiextensions-apiserver, restricted to what this emulator implements).
#include "sim/validation/schema.hpp"

#include "sim/validation/cel_check.hpp"
#include "sim/validation/cel_eval.hpp"
#include "sim/validation/go_format.hpp"
#include "sim/validation/re2.hpp"
#include "sim/validation/validation.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace c5c3::sim::validation {

namespace {

bool mark_rules(schema_node& n) {
  bool below = !n.rules.empty();
  for (auto& [k, p] : n.properties) below = mark_rules(p) || below;
  if (n.items) below = mark_rules(*n.items) || below;
  if (n.additional_properties) below = mark_rules(*n.additional_properties) || below;
  n.rules_below = below;
  return below;
}

using k8s::json_value;

const std::set<std::string> allowed_keys = {
    "type", "format", "title", "description", "default", "enum", "nullable", "maximum", "minimum",
    "exclusiveMaximum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems",
    "minItems", "uniqueItems", "multipleOf", "maxProperties", "minProperties", "required", "items",
    "properties", "additionalProperties", "example", "externalDocs", "anyOf", "allOf", "oneOf", "not",
    "x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string", "x-kubernetes-list-type", "x-kubernetes-list-map-keys",
    "x-kubernetes-map-type", "x-kubernetes-validations"};

const std::set<std::string> forbidden_keys = {"$ref", "$schema", "id", "definitions", "dependencies",
                                              "additionalItems", "patternProperties"};

class compiler {
 public:
  explicit compiler(std::vector<field_error>& errors) : errors_(errors) {}

  void node(const json_value& j, const std::string& path, schema_node& n, bool root, bool correlatable) {
    if (!j.IsObject()) {
      errors_.push_back(invalid(path, go_json(j), "must be a JSON schema object"));
      return;
    }
    for (auto& m : j.GetObject()) {
      std::string key(k8s::as_string_view(m.name));
      if (forbidden_keys.count(key)) {
        errors_.push_back(forbidden(path + "." + key, "must not be used in a structural schema"));
      } else if (!allowed_keys.count(key)) {
        errors_.push_back(forbidden(path + "." + key, "unknown field"));
      }
    }
    n.type = std::string(k8s::get_string(j, {"type"}));
    static const std::set<std::string> types = {"", "object", "array", "string", "integer", "number", "boolean"};
    if (!types.count(n.type))
      errors_.push_back(not_supported(path + ".type", go_quote(n.type),
                                      {"array", "boolean", "integer", "number", "object", "string"}));
    n.nullable = k8s::get_bool(j, {"nullable"}).value_or(false);
    n.int_or_string = k8s::get_bool(j, {"x-kubernetes-int-or-string"}).value_or(false);
    n.embedded_resource = k8s::get_bool(j, {"x-kubernetes-embedded-resource"}).value_or(false);
    if (auto* p = k8s::member(j, "x-kubernetes-preserve-unknown-fields")) {
      if (!p->IsBool() || !p->GetBool())
        errors_.push_back(invalid(path + ".x-kubernetes-preserve-unknown-fields", go_json(*p),
                                  "must be true or undefined"));
      else
        n.preserve_unknown_fields = true;
    }
    n.format = std::string(k8s::get_string(j, {"format"}));

    if (root && n.type != "object")
      errors_.push_back(n.type.empty() ? required(path + ".type", "must not be empty at the root")
                                       : invalid(path + ".type", go_quote(n.type), "must be object at the root"));
    else if (n.type.empty() && !n.int_or_string && !n.preserve_unknown_fields)
      errors_.push_back(required(path + ".type", "must not be empty for specified object fields"));
    if (n.int_or_string && !n.type.empty())
      errors_.push_back(invalid(path + ".type", go_quote(n.type),
                                "must be empty if x-kubernetes-int-or-string is true"));
    if (n.embedded_resource && n.type != "object")
      errors_.push_back(invalid(path + ".type", go_quote(n.type),
                                "must be object if x-kubernetes-embedded-resource is true"));

    // Value validations in anyOf/allOf/oneOf/not are only accepted as the
    // int-or-string pattern controller-gen writes.
    for (auto* k : {"anyOf", "allOf", "oneOf", "not"}) {
      auto* v = k8s::member(j, k);
      if (!v) continue;
      bool int_or_string_pattern = n.int_or_string && std::string(k) == "anyOf" && v->IsArray();
      if (int_or_string_pattern)
        for (auto& s : v->GetArray())
          if (!s.IsObject() || s.MemberCount() != 1 || !k8s::member(s, "type")) int_or_string_pattern = false;
      if (!int_or_string_pattern)
        errors_.push_back(forbidden(path + "." + k, "not supported by the emulator's schema validation"));
    }

    number(j, "minimum", n.minimum, path);
    number(j, "maximum", n.maximum, path);
    number(j, "multipleOf", n.multiple_of, path);
    if (n.multiple_of && *n.multiple_of <= 0)
      errors_.push_back(invalid(path + ".multipleOf", go_float(*n.multiple_of), "must be greater than zero"));
    n.exclusive_minimum = k8s::get_bool(j, {"exclusiveMinimum"}).value_or(false);
    n.exclusive_maximum = k8s::get_bool(j, {"exclusiveMaximum"}).value_or(false);
    count(j, "minLength", n.min_length, path);
    count(j, "maxLength", n.max_length, path);
    count(j, "minItems", n.min_items, path);
    count(j, "maxItems", n.max_items, path);
    count(j, "minProperties", n.min_properties, path);
    count(j, "maxProperties", n.max_properties, path);
    if (k8s::get_bool(j, {"uniqueItems"}).value_or(false))
      errors_.push_back(forbidden(path + ".uniqueItems",
                                  "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"));

    if (auto* p = k8s::member(j, "pattern")) {
      if (!p->IsString()) {
        errors_.push_back(invalid(path + ".pattern", go_json(*p), "must be a string"));
      } else {
        n.pattern = std::string(k8s::as_string_view(*p));
        std::string err;
        if (auto re = re2_pattern::compile(n.pattern, &err))
          n.pattern_re = std::make_shared<compiled_pattern>(compiled_pattern{std::move(*re)});
        else
          errors_.push_back(invalid(path + ".pattern", go_quote(n.pattern),
                                    "must be a valid regular expression, but isn't: " + err));
      }
    }
    if (auto* e = k8s::member(j, "enum")) {
      if (!e->IsArray()) errors_.push_back(invalid(path + ".enum", go_json(*e), "must be an array"));
      else n.enum_values = e;
    }
    if (auto* d = k8s::member(j, "default")) {
      if (root) errors_.push_back(forbidden(path + ".default", "must not be set at the root"));
      else n.default_value = d;
    }
    if (auto* r = k8s::member(j, "required")) {
      if (!r->IsArray()) {
        errors_.push_back(invalid(path + ".required", go_json(*r), "must be an array of strings"));
      } else {
        for (auto& s : r->GetArray())
          if (s.IsString()) n.required.emplace_back(k8s::as_string_view(s));
      }
    }

    n.list_type = std::string(k8s::get_string(j, {"x-kubernetes-list-type"}));
    n.map_type = std::string(k8s::get_string(j, {"x-kubernetes-map-type"}));
    if (auto* keys = k8s::member(j, "x-kubernetes-list-map-keys"); keys && keys->IsArray())
      for (auto& k : keys->GetArray())
        if (k.IsString()) n.list_map_keys.emplace_back(k8s::as_string_view(k));

    // properties / additionalProperties
    auto* props = k8s::member(j, "properties");
    auto* addl = k8s::member(j, "additionalProperties");
    if (props && addl)
      errors_.push_back(forbidden(path + ".additionalProperties",
                                  "additionalProperties and properties are mutual exclusive"));
    if (props) {
      if (!props->IsObject()) {
        errors_.push_back(invalid(path + ".properties", go_json(*props), "must be an object"));
      } else {
        if (n.type != "object" && !props->ObjectEmpty())
          errors_.push_back(invalid(path + ".properties", std::nullopt, "must only be used with type object"));
        for (auto& m : props->GetObject()) {
          std::string name(k8s::as_string_view(m.name));
          auto& child = n.properties[name];
          std::string cpath = path + ".properties[" + name + "]";
          if (root && name == "metadata") {
            metadata(m.value, cpath, child);
            continue;
          }
          node(m.value, cpath, child, false, correlatable);
        }
      }
    }
    if (addl) {
      if (addl->IsBool()) {
        if (!addl->GetBool())
          errors_.push_back(forbidden(path + ".additionalProperties", "must not be false"));
        else
          n.preserve_unknown_fields = true;
      } else {
        n.additional_properties = std::make_unique<schema_node>();
        bool map_correlatable = n.map_type.empty() || n.map_type == "granular" || n.map_type == "atomic";
        node(*addl, path + ".additionalProperties", *n.additional_properties, false,
             correlatable && map_correlatable);
      }
    }

    // items and list types
    if (auto* it = k8s::member(j, "items")) {
      if (it->IsArray()) {
        errors_.push_back(forbidden(path + ".items", "items must be a schema object and not an array"));
      } else {
        n.items = std::make_unique<schema_node>();
        node(*it, path + ".items", *n.items, false, correlatable && n.list_type == "map");
      }
    } else if (n.type == "array") {
      errors_.push_back(required(path + ".items", "must be specified"));
    }
    list_type(path, n);
    if (!n.map_type.empty() && n.map_type != "granular" && n.map_type != "atomic")
      errors_.push_back(not_supported(path + ".x-kubernetes-map-type", go_quote(n.map_type), {"granular", "atomic"}));

    if (auto* rules = k8s::member(j, "x-kubernetes-validations")) cel_rules(*rules, path, n, root, correlatable);
  }

  void defaults(const schema_node& n, const std::string& path) {
    if (n.default_value) {
      for (auto& e : validate_openapi(n, *n.default_value, path + ".default")) errors_.push_back(std::move(e));
    }
    for (auto& [name, p] : n.properties) defaults(p, path + ".properties[" + name + "]");
    if (n.items) defaults(*n.items, path + ".items");
    if (n.additional_properties) defaults(*n.additional_properties, path + ".additionalProperties");
  }

 private:
  void number(const json_value& j, const char* key, std::optional<double>& out, const std::string& path) {
    auto* v = k8s::member(j, key);
    if (!v) return;
    if (!v->IsNumber()) errors_.push_back(invalid(path + "." + key, go_json(*v), "must be a number"));
    else out = v->GetDouble();
  }

  void count(const json_value& j, const char* key, std::optional<std::int64_t>& out, const std::string& path) {
    auto* v = k8s::member(j, key);
    if (!v) return;
    if (!v->IsInt64() || v->GetInt64() < 0)
      errors_.push_back(invalid(path + "." + key, go_json(*v), "must be a non-negative integer"));
    else
      out = v->GetInt64();
  }

  // At the root, metadata may only restrict name and generateName.
  void metadata(const json_value& j, const std::string& path, schema_node& n) {
    node(j, path, n, false, true);
    if (n.type != "object" && !n.type.empty())
      errors_.push_back(invalid(path + ".type", go_quote(n.type), "must be object"));
    for (auto& [name, p] : n.properties) {
      (void)p;
      if (name != "name" && name != "generateName")
        errors_.push_back(forbidden(path + ".properties[" + name + "]",
                                    "must not specify anything other than name and generateName, but metadata is implicitly specified"));
    }
  }

  void list_type(const std::string& path, const schema_node& n) {
    if (n.list_type.empty()) {
      if (!n.list_map_keys.empty())
        errors_.push_back(forbidden(path + ".x-kubernetes-list-map-keys",
                                    "must only be used with x-kubernetes-list-type=map"));
      return;
    }
    if (n.list_type != "atomic" && n.list_type != "set" && n.list_type != "map") {
      errors_.push_back(not_supported(path + ".x-kubernetes-list-type", go_quote(n.list_type), {"atomic", "set", "map"}));
      return;
    }
    if (n.type != "array")
      errors_.push_back(invalid(path + ".type", go_quote(n.type), "must be array if x-kubernetes-list-type is specified"));
    if (n.list_type == "set" && n.items && n.items->type == "object" && n.items->map_type != "atomic")
      errors_.push_back(invalid(path + ".items.x-kubernetes-map-type", go_quote(n.items->map_type),
                                "must be atomic as item of a list with x-kubernetes-list-type=set"));
    if (n.list_type == "map") {
      if (n.list_map_keys.empty())
        errors_.push_back(required(path + ".x-kubernetes-list-map-keys",
                                   "must not be empty if x-kubernetes-list-type is map"));
      if (!n.items || n.items->type != "object") {
        errors_.push_back(invalid(path + ".items.type", go_quote(n.items ? n.items->type : ""),
                                  "must be object if parent array's x-kubernetes-list-type is map"));
        return;
      }
      for (std::size_t k = 0; k < n.list_map_keys.size(); ++k) {
        const auto& key = n.list_map_keys[k];
        auto* kn = n.items->property(key);
        std::string kpath = path + ".x-kubernetes-list-map-keys[" + std::to_string(k) + "]";
        if (!kn) {
          errors_.push_back(invalid(kpath, go_quote(key), "entries must all be names of item properties"));
          continue;
        }
        bool is_required = std::find(n.items->required.begin(), n.items->required.end(), key) != n.items->required.end();
        if (!is_required && !kn->default_value)
          errors_.push_back(required(path + ".items.properties[" + key + "].default",
                                     "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"));
      }
    }
  }

  void cel_rules(const json_value& rules, const std::string& path, schema_node& n, bool root, bool correlatable) {
    if (!rules.IsArray()) {
      errors_.push_back(invalid(path + ".x-kubernetes-validations", go_json(rules), "must be an array"));
      return;
    }
    std::size_t index = 0;
    for (auto& r : rules.GetArray()) {
      std::string rpath = path + ".x-kubernetes-validations[" + std::to_string(index++) + "]";
      compiled_rule c;
      c.rule = std::string(k8s::get_string(r, {"rule"}));
      c.message = std::string(k8s::get_string(r, {"message"}));
      c.message_expression = std::string(k8s::get_string(r, {"messageExpression"}));
      c.reason = std::string(k8s::get_string(r, {"reason"}));
      std::string field_path(k8s::get_string(r, {"fieldPath"}));
      if (c.rule.empty()) {
        errors_.push_back(required(rpath + ".rule"));
        continue;
      }
      if (k8s::get_bool(r, {"optionalOldSelf"}).value_or(false))
        errors_.push_back(forbidden(rpath + ".optionalOldSelf", "not supported by the emulator's CEL subset"));
      if (c.message.find('\n') != std::string::npos)
        errors_.push_back(invalid(rpath + ".message", go_quote(c.message), "message must not contain line breaks"));
      static const std::set<std::string> reasons = {"", "FieldValueInvalid", "FieldValueForbidden",
                                                    "FieldValueRequired", "FieldValueDuplicate"};
      if (!reasons.count(c.reason))
        errors_.push_back(not_supported(rpath + ".reason", go_quote(c.reason),
                                        {"FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate"}));
      if (!field_path.empty()) {
        std::string err;
        c.field_path = normalize_field_path(field_path, n, err);
        if (!err.empty()) errors_.push_back(invalid(rpath + ".fieldPath", go_quote(field_path), err));
      }
      std::string perr;
      c.program = cel::parse(c.rule, &perr);
      if (!c.program) {
        errors_.push_back(invalid(rpath + ".rule", go_quote(c.rule), "compilation failed: " + perr));
        continue;
      }
      auto chk = cel::check(*c.program, n, root, correlatable);
      if (!chk.error.empty()) {
        errors_.push_back(invalid(rpath + ".rule", go_quote(c.rule), "compilation failed: " + chk.error));
        continue;
      }
      c.uses_old_self = chk.uses_old_self;
      if (!c.message_expression.empty()) {
        c.message_program = cel::parse(c.message_expression, &perr);
        if (!c.message_program) {
          errors_.push_back(invalid(rpath + ".messageExpression", go_quote(c.message_expression),
                                    "messageExpression compilation failed: " + perr));
          continue;
        }
        auto mchk = cel::check(*c.message_program, n, root, correlatable, /*want_string=*/true);
        if (!mchk.error.empty()) {
          errors_.push_back(invalid(rpath + ".messageExpression", go_quote(c.message_expression),
                                    "messageExpression compilation failed: " + mchk.error));
          continue;
        }
      }
      n.rules.push_back(std::move(c));
    }
  }

  // ".a.b" or ".a['b-c']" -> "a.b" / "a.b-c", checked against the schema.
  static std::string normalize_field_path(const std::string& fp, const schema_node& n, std::string& err) {
    std::string out;
    const schema_node* cur = &n;
    std::size_t i = 0;
    while (i < fp.size()) {
      std::string name;
      if (fp[i] == '.') {
        ++i;
        std::size_t b = i;
        while (i < fp.size() && fp[i] != '.' && fp[i] != '[') ++i;
        name = fp.substr(b, i - b);
      } else if (fp.compare(i, 2, "['") == 0) {
        auto e = fp.find("']", i + 2);
        if (e == std::string::npos) {
          err = "fieldPath must be a valid path: unterminated bracket";
          return {};
        }
        name = fp.substr(i + 2, e - i - 2);
        i = e + 2;
      } else {
        err = "fieldPath must be a valid path: expected '.' or \"['\"";
        return {};
      }
      if (name.empty()) {
        err = "fieldPath must be a valid path: empty field name";
        return {};
      }
      const schema_node* next = cur ? cur->property(name) : nullptr;
      if (!next && cur && cur->additional_properties) next = cur->additional_properties.get();
      if (!next && cur && !cur->preserve_unknown_fields) {
        err = "fieldPath must be a valid path: does not refer to a valid field: " + name;
        return {};
      }
      cur = next;
      out += out.empty() ? name : "." + name;
    }
    return out;
  }

  std::vector<field_error>& errors_;
};

}  // namespace

compile_result compile(const k8s::json_value& open_api_v3_schema, const std::string& path) {
  compile_result result;
  auto c = std::make_shared<compiled_schema>();
  c->source.CopyFrom(open_api_v3_schema, c->source.GetAllocator());
  compiler comp(result.errors);
  comp.node(c->source, path, c->root, true, true);
  mark_rules(c->root);
  if (result.errors.empty()) comp.defaults(c->root, path);
  if (result.errors.empty()) result.schema = std::move(c);
  return result;
}

}  // namespace c5c3::sim::validation
