// x-kubernetes-validations: messages, transition rules with oldSelf,
// messageExpression, reason, fieldPath, blocking errors, and refusal at
// compile time of what the subset cannot evaluate.
#include "helpers.hpp"
#include "rabbitmqvhost_schema.hpp"

using namespace c5c3::sim::validation;
using namespace c5c3::sim::validation::testing;

namespace {

k8s::json_document vhost(const std::string& name, const std::string& spec) {
  return json(R"({"apiVersion":"c5c3.io/v1alpha1","kind":"RabbitMQVhost","metadata":{"name":")" + name +
              R"(","namespace":"tenant-a"},"spec":)" + spec + "}");
}

std::string errors_of(const compiled_schema& s, const k8s::json_value& obj, const k8s::json_value* old = nullptr) {
  return joined(strings(validate(s, obj, old)));
}

// The first compile error of a schema, or "".
std::string compile_error(const std::string& yaml_text) {
  auto doc = yaml(yaml_text);
  auto r = compile(doc);
  return r.errors.empty() ? std::string() : r.errors.front().to_string();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(validation_rules)

BOOST_AUTO_TEST_CASE(block_rule_message_on_object) {
  auto s = schema_yaml(kRabbitMQVhostSchema);
  auto obj = vhost("v", R"({"controlPlaneRef":{"name":"cp"},"rotation":{"interval":"1h","gracePeriod":"1h"}})");
  BOOST_TEST(errors_of(*s, obj) ==
             "spec.rotation: Invalid value: \"object\": rotation.gracePeriod must be shorter than rotation.interval\n");
}

BOOST_AUTO_TEST_CASE(rule_on_a_string) {
  auto s = schema_yaml(kRabbitMQVhostSchema);
  auto obj = vhost("v", R"({"controlPlaneRef":{"name":"cp"},"rotation":{"interval":"30s","gracePeriod":"0s"}})");
  BOOST_TEST(errors_of(*s, obj) ==
             "spec.rotation.interval: Invalid value: \"string\": rotation.interval is 0s or at least 1m\n");
}

BOOST_AUTO_TEST_CASE(root_rule_sees_metadata_name) {
  auto s = schema_yaml(kRabbitMQVhostSchema);
  auto obj = vhost("rmv-" + std::string(60, 'x'), R"({"controlPlaneRef":{"name":"cp"}})");
  BOOST_TEST(errors_of(*s, obj) ==
             "<nil>: Invalid value: \"object\": metadata.name must be at most 63 bytes; it is carried as a label "
             "value on the order's children\n");
  BOOST_TEST(errors_of(*s, vhost(std::string(63, 'x'), R"({"controlPlaneRef":{"name":"cp"}})")).empty());
}

BOOST_AUTO_TEST_CASE(transition_rules_only_on_update) {
  auto s = schema_yaml(kRabbitMQVhostSchema);
  auto base = vhost("v", R"({"controlPlaneRef":{"name":"cp","namespace":"ns"},"passwordGeneration":2})");
  BOOST_TEST(errors_of(*s, base).empty());
  auto lower = vhost("v", R"({"controlPlaneRef":{"name":"cp","namespace":"ns"},"passwordGeneration":1})");
  BOOST_TEST(errors_of(*s, lower).empty());  // a create has no oldSelf
  BOOST_TEST(errors_of(*s, lower, &base) ==
             "spec.passwordGeneration: Invalid value: \"integer\": passwordGeneration may only increase\n");
  auto moved = vhost("v", R"({"controlPlaneRef":{"name":"cp-other","namespace":"ns"},"passwordGeneration":2})");
  BOOST_TEST(errors_of(*s, moved, &base) ==
             "spec.controlPlaneRef: Invalid value: \"object\": controlPlaneRef.name is immutable; delete and "
             "re-create the RabbitMQVhost to move it to another ControlPlane\n");
  auto ns = vhost("v", R"({"controlPlaneRef":{"name":"cp"},"passwordGeneration":2})");
  BOOST_TEST(errors_of(*s, ns, &base).find("controlPlaneRef.namespace is immutable") != std::string::npos);
  // A field absent from the old object has no oldSelf: the rule is skipped.
  auto no_gen = vhost("v", R"({"controlPlaneRef":{"name":"cp","namespace":"ns"}})");
  auto with_gen = vhost("v", R"({"controlPlaneRef":{"name":"cp","namespace":"ns"},"passwordGeneration":1})");
  BOOST_TEST(errors_of(*s, with_gen, &no_gen).empty());
}

BOOST_AUTO_TEST_CASE(blocking_errors_skip_rules) {
  auto s = schema_yaml(kRabbitMQVhostSchema);
  auto obj = vhost("rmv-" + std::string(60, 'x'), R"({"controlPlaneRef":{},"deletionPolicy":"Drop"})");
  BOOST_TEST(errors_of(*s, obj) ==
             "spec.controlPlaneRef.name: Required value\n"
             "spec.deletionPolicy: Unsupported value: \"Drop\": supported values: \"Retain\", \"Delete\"\n"
             "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; "
             "correct the existing errors to complete validation\n");
  // A pattern or minimum error does not block the rules.
  auto obj2 = vhost("rmv-" + std::string(60, 'x'), R"({"controlPlaneRef":{"name":"cp","namespace":"Bad_NS"}})");
  auto got = errors_of(*s, obj2);
  BOOST_TEST(got.find("should match") != std::string::npos, got);
  BOOST_TEST(got.find("metadata.name must be at most 63 bytes") != std::string::npos, got);
}

BOOST_AUTO_TEST_CASE(message_expression_reason_and_field_path) {
  auto s = schema_yaml(R"y(
type: object
properties:
  spec:
    type: object
    properties:
      min: {type: integer}
      max: {type: integer}
      tags: {type: array, items: {type: string}}
    x-kubernetes-validations:
      - rule: self.min <= self.max
        messageExpression: "'min ' + string(self.min) + ' exceeds max ' + string(self.max)"
        fieldPath: .min
      - rule: self.tags.all(t, t != 'x')
        reason: FieldValueForbidden
        message: tag x is reserved
      - rule: has(self.min)
        reason: FieldValueRequired
        message: min must be set
      - rule: self.tags.size() < 3
)y");
  auto obj = json(R"({"spec":{"min":5,"max":1,"tags":["x","y","z"]}})");
  BOOST_TEST(errors_of(*s, obj) ==
             "spec.min: Invalid value: \"object\": min 5 exceeds max 1\n"
             "spec: Forbidden: tag x is reserved\n"
             "spec: Invalid value: \"object\": failed rule: self.tags.size() < 3\n");
  auto obj2 = json(R"({"spec":{"max":1,"tags":[]}})");
  BOOST_TEST(errors_of(*s, obj2) ==
             "spec: Invalid value: \"object\": no such key: min evaluating rule: self.min <= self.max\n"
             "spec: Required value: min must be set\n");
}

BOOST_AUTO_TEST_CASE(message_expression_falls_back_and_maps_use_keys) {
  auto s = schema_yaml(R"y(
type: object
properties:
  spec:
    type: object
    properties:
      labels: {type: object, additionalProperties: {type: string}}
      a-b: {type: integer}
    x-kubernetes-validations:
      - rule: "!has(self.labels.forbidden)"
        messageExpression: "''"
        message: the forbidden label is not allowed
        fieldPath: "['labels']"
      - rule: "self.labels.all(k, self.labels[k].size() <= 3)"
        messageExpression: "'values too long: ' + self.labels.filter(k, self.labels[k].size() > 3).join(', ')"
      - rule: "!has(self.a__dash__b) || self.a__dash__b > 0"
        messageExpression: "1 / 0 == 0 ? 'x' : 'y'"
)y");
  BOOST_TEST(errors_of(*s, json(R"({"spec":{"labels":{"ok":"v"}}})")).empty());
  BOOST_TEST(errors_of(*s, json(R"({"spec":{"labels":{"forbidden":"v","long":"vvvv","x":"vvvvv"},"a-b":0}})")) ==
             "spec.labels: Invalid value: \"object\": the forbidden label is not allowed\n"
             "spec: Invalid value: \"object\": values too long: long, x\n"
             "spec: Invalid value: \"object\": failed rule: !has(self.a__dash__b) || self.a__dash__b > 0\n");
}

BOOST_AUTO_TEST_CASE(escaped_reserved_word_fields) {
  auto s = schema_yaml(R"y(
type: object
properties:
  spec:
    type: object
    properties:
      namespace: {type: string}
      a-b: {type: string}
    x-kubernetes-validations:
      - rule: "!has(self.__namespace__) || self.__namespace__ != self.a__dash__b"
        message: must differ
)y");
  BOOST_TEST(errors_of(*s, json(R"({"spec":{"namespace":"x","a-b":"y"}})")).empty());
  BOOST_TEST(errors_of(*s, json(R"({"spec":{"namespace":"x","a-b":"x"}})")) ==
             "spec: Invalid value: \"object\": must differ\n");
}

BOOST_AUTO_TEST_CASE(map_list_items_correlate_for_transition_rules) {
  auto s = schema_yaml(R"y(
type: object
properties:
  spec:
    type: object
    properties:
      items:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items:
          type: object
          required: [name]
          properties:
            name: {type: string}
            size: {type: integer, x-kubernetes-validations: [{rule: "self >= oldSelf", message: may only grow}]}
)y");
  auto old = json(R"({"spec":{"items":[{"name":"a","size":5},{"name":"b","size":1}]}})");
  auto now = json(R"({"spec":{"items":[{"name":"b","size":2},{"name":"a","size":4},{"name":"c","size":0}]}})");
  BOOST_TEST(errors_of(*s, now, &old) == "spec.items[1].size: Invalid value: \"integer\": may only grow\n");
}

BOOST_AUTO_TEST_CASE(compile_refuses_what_the_subset_cannot_run) {
  auto wrap = [](const std::string& rule) {
    return "type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      a: {type: string}\n"
           "      l: {type: array, items: {type: string}}\n"
           "    x-kubernetes-validations:\n      - rule: \"" + rule + "\"\n";
  };
  struct {
    std::string rule, want;
  } cases[] = {
      {"self.a.size() > 0", ""},
      {"self.b == 'x'", "undefined field 'b'"},
      {"self.a.charAt(0) == 'x'", "function 'charAt' is outside the CEL subset"},
      {"quantity(self.a).isInteger()", "function 'quantity' is outside the CEL subset"},
      {"self.a == ", "compilation failed: Syntax error"},
      {"other == 1", "undeclared reference to 'other'"},
      {"self.a.startsWith()", "found no matching overload for 'startsWith'"},
      {"self.a.matches('[')", "invalid regular expression"},
      {"self.l[0].x == 1", "does not support field selection"},
      {"self.a + 1 == 'x'", "found no matching overload for '_+_' applied to '(string, int)'"},
      {"self.a == 1", "found no matching overload for '_==_' applied to '(string, int)'"},
      {"self.a", "rule must evaluate to a bool, not string"},
      {"duration(self.l) > duration('1s')", "found no matching overload for 'duration' applied to '(list)'"},
      {"self.a.all(x, true)", "found no matching overload for 'all' applied to 'string'"},
      {"self.l.all(x, x)", "the predicate of 'all' must be a bool, not string"},
      {"self.a.startsWith(1)", "found no matching overload for 'startsWith' applied to 'string.(int)'"},
      {"size(self.l) > 1 && self.l.exists(x, x.startsWith('a')) && self.l.map(x, x + '!').size() > 0", ""},
      {"self.a in self.l && !(self.a in ['x', 'y'])", ""},
      {"has(self.a) ? self.a.size() > 0 : true", ""},
  };
  for (auto& c : cases) {
    auto got = compile_error(wrap(c.rule));
    if (c.want.empty()) {
      BOOST_TEST(got.empty(), c.rule << ": " << got);
    } else {
      BOOST_TEST(got.find(c.want) != std::string::npos, c.rule << ": " << got);
      BOOST_TEST(got.find("spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: ") == 0, got);
    }
  }
  // oldSelf below a list that is not a map list cannot be correlated.
  auto got = compile_error(R"y(
type: object
properties:
  l:
    type: array
    items: {type: string, x-kubernetes-validations: [{rule: "self == oldSelf"}]}
)y");
  BOOST_TEST(got.find("oldSelf cannot be used on the uncorrelatable portion of the schema") != std::string::npos, got);
  BOOST_TEST(compile_error(R"y(
type: object
properties:
  a: {type: string, x-kubernetes-validations: [{rule: "self != ''", messageExpression: "size(self)"}]}
)y").find("messageExpression must evaluate to a string, not int") != std::string::npos);
  BOOST_TEST(compile_error(R"y(
type: object
properties:
  a: {type: string, x-kubernetes-validations: [{rule: "true", optionalOldSelf: true}]}
)y").find("optionalOldSelf: Forbidden") != std::string::npos);
  BOOST_TEST(compile_error(R"y(
type: object
properties:
  a: {type: string, x-kubernetes-validations: [{rule: "true", reason: Nope}]}
)y") == "spec.validation.openAPIV3Schema.properties[a].x-kubernetes-validations[0].reason: Unsupported value: \"Nope\": "
       "supported values: \"FieldValueInvalid\", \"FieldValueForbidden\", \"FieldValueRequired\", \"FieldValueDuplicate\"");
}

BOOST_AUTO_TEST_CASE(compile_refuses_non_structural_schemas) {
  struct {
    const char* schema;
    const char* want;
  } cases[] = {
      {"type: string", "spec.validation.openAPIV3Schema.type: Invalid value: \"string\": must be object at the root"},
      {"type: object\nproperties:\n  a: {}",
       "spec.validation.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields"},
      {"type: object\nproperties:\n  a: {type: array}",
       "spec.validation.openAPIV3Schema.properties[a].items: Required value: must be specified"},
      {"type: object\nproperties:\n  a: {type: object, x-kubernetes-preserve-unknown-fields: false}",
       "spec.validation.openAPIV3Schema.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined"},
      {"type: object\nproperties:\n  a: {type: string, pattern: '('}",
       "spec.validation.openAPIV3Schema.properties[a].pattern: Invalid value: \"(\": must be a valid regular expression"},
      {"type: object\nproperties:\n  a: {type: array, x-kubernetes-list-type: map, items: {type: object, properties: {k: {type: string}}}}",
       "spec.validation.openAPIV3Schema.properties[a].x-kubernetes-list-map-keys: Required value"},
      {"type: object\nproperties:\n  a: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [k], items: {type: object, properties: {k: {type: string}}}}",
       "spec.validation.openAPIV3Schema.properties[a].items.properties[k].default: Required value"},
      {"type: object\nproperties:\n  a: {type: string, $ref: '#/x'}", "spec.validation.openAPIV3Schema.properties[a].$ref: Forbidden"},
      {"type: object\nproperties:\n  a: {type: string, uniqueItems: true}", "spec.validation.openAPIV3Schema.properties[a].uniqueItems: Forbidden"},
      {"type: object\nproperties:\n  a: {type: string, default: 5}",
       "spec.validation.openAPIV3Schema.properties[a].default: Invalid value: \"integer\""},
      {"type: object\nproperties:\n  metadata: {type: object, properties: {labels: {type: object}}}",
       "spec.validation.openAPIV3Schema.properties[metadata].properties[labels]: Forbidden"},
      {"type: object\nproperties:\n  a: {type: string, anyOf: [{minLength: 1}]}", "properties[a].anyOf: Forbidden"},
  };
  for (auto& c : cases) {
    auto got = compile_error(c.schema);
    BOOST_TEST(got.find(c.want) != std::string::npos, c.schema << "\n got: " << got);
  }
  // The controller-gen int-or-string shape is accepted.
  BOOST_TEST(compile_error("type: object\nproperties:\n  p: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}").empty());
}

BOOST_AUTO_TEST_SUITE_END()
