// The CEL subset (sim/validation): the first line is an x-kubernetes-validations
// rule on `spec` of a small typed schema, the rest the object it validates.
// Compiling checks the rule (parse, types); validating evaluates it, with the
// object's own spec and, as an update, a changed copy as oldSelf.
#include "k8s/json.hpp"
#include "sim/validation/validation.hpp"
#include "tests/fuzz/targets/fuzz_targets.hpp"

#include <string>

namespace c5c3::fuzz {

namespace {

constexpr const char* schema_text = R"json({"type":"object","properties":{"spec":{"type":"object",
  "properties":{"name":{"type":"string","maxLength":64},"n":{"type":"integer"},"d":{"type":"string"},
  "ratio":{"type":"number"},"on":{"type":"boolean"},
  "tags":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"set"},
  "items":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["key"],
    "items":{"type":"object","required":["key"],"properties":{"key":{"type":"string"},"v":{"type":"integer"}}}},
  "labels":{"type":"object","additionalProperties":{"type":"string"}},
  "any":{"type":"object","x-kubernetes-preserve-unknown-fields":true}},
  "x-kubernetes-validations":[{"rule":RULE,"messageExpression":"'x: ' + string(self.n)"}]}}})json";

}  // namespace

int cel(const std::uint8_t* data, std::size_t size) {
  auto text = as_text(data, size);
  auto nl = text.find('\n');
  std::string rule(text.substr(0, nl));
  std::string object_text(nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1));
  // The rule goes into the schema as a JSON string.
  k8s::json_document rule_json;
  rule_json.SetString(rule.data(), static_cast<rapidjson::SizeType>(rule.size()), rule_json.GetAllocator());
  std::string schema(schema_text);
  schema.replace(schema.find("RULE"), 4, k8s::to_json(rule_json));
  auto schema_doc = k8s::parse_json(schema);
  if (!schema_doc) return 0;  // not valid UTF-8 inside a JSON string
  auto compiled = sim::validation::compile(*schema_doc);
  if (!compiled) return 0;
  auto obj = k8s::parse_json(object_text);
  if (!obj || !obj->IsObject()) obj = k8s::parse_json(R"({"spec":{"name":"a","n":1,"tags":["x"]}})");
  (void)sim::validation::prune(*compiled.schema, *obj);
  sim::validation::apply_defaults(*compiled.schema, *obj, obj->GetAllocator());
  (void)sim::validation::validate(*compiled.schema, *obj);
  auto old = k8s::copy_document(*obj);
  if (auto* spec = k8s::member(old, "spec"); spec && spec->IsObject())
    k8s::set_member(*spec, "n", k8s::json_value(std::int64_t{7}), old.GetAllocator());
  (void)sim::validation::validate(*compiled.schema, *obj, &old);
  return 0;
}

}  // namespace c5c3::fuzz
