// One table row per OpenAPI keyword, with kube-apiserver's exact wording.
#include "helpers.hpp"

using namespace c5c3::sim::validation;
using namespace c5c3::sim::validation::testing;

namespace {

const char* kSchema = R"y(
type: object
properties:
  spec:
    type: object
    required: [name]
    properties:
      name: {type: string, minLength: 1, maxLength: 5, pattern: '^[a-z]+$'}
      count: {type: integer, minimum: 1, maximum: 10}
      ratio: {type: number, minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true}
      step: {type: integer, multipleOf: 5}
      policy: {type: string, enum: [Retain, Delete]}
      level: {type: integer, enum: [1, 2]}
      tags:
        type: array
        minItems: 1
        maxItems: 2
        items: {type: string}
        x-kubernetes-list-type: set
      ports:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items:
          type: object
          required: [name]
          properties:
            name: {type: string}
            port: {type: integer}
      labels:
        type: object
        minProperties: 1
        maxProperties: 2
        additionalProperties: {type: string, maxLength: 3}
      port: {x-kubernetes-int-or-string: true}
      free: {type: object, x-kubernetes-preserve-unknown-fields: true}
      when: {type: string, format: date-time}
      id: {type: string, format: uuid}
      opt: {type: string, nullable: true}
      flag: {type: boolean}
required: [spec]
)y";

struct keyword_case {
  const char* name;
  const char* spec;  // JSON of .spec
  std::vector<std::string> errors;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(openapi_keywords)

BOOST_AUTO_TEST_CASE(each_keyword_with_kube_wording) {
  auto s = schema_yaml(kSchema);
  const keyword_case cases[] = {
      {"valid", R"({"name":"ab"})", {}},
      {"required", R"({})", {"spec.name: Required value"}},
      {"minLength", R"({"name":""})",
       {R"(spec.name: Invalid value: "": spec.name in body should be at least 1 chars long)"}},
      {"maxLength", R"({"name":"abcdef"})", {"spec.name: Too long: may not be more than 5 bytes"}},
      {"maxLength counts characters", "{\"name\":\"a\",\"labels\":{\"k\":\"\xc3\xa9\xc3\xa9\xc3\xa9\"}}", {}},
      {"pattern", R"({"name":"AB"})",
       {R"(spec.name: Invalid value: "AB": spec.name in body should match '^[a-z]+$')"}},
      {"minimum", R"({"name":"a","count":0})",
       {"spec.count: Invalid value: 0: spec.count in body should be greater than or equal to 1"}},
      {"maximum", R"({"name":"a","count":11})",
       {"spec.count: Invalid value: 11: spec.count in body should be less than or equal to 10"}},
      {"type integer", R"({"name":"a","count":"x"})",
       {R"(spec.count: Invalid value: "string": spec.count in body must be of type integer: "string")"}},
      {"type integer from float", R"({"name":"a","count":1.5})",
       {R"(spec.count: Invalid value: "number": spec.count in body must be of type integer: "number")"}},
      {"integral float is an integer", R"({"name":"a","count":2.0})", {}},
      {"exclusiveMinimum", R"({"name":"a","ratio":0})",
       {"spec.ratio: Invalid value: 0: spec.ratio in body should be greater than 0"}},
      {"exclusiveMaximum", R"({"name":"a","ratio":1.5})",
       {"spec.ratio: Invalid value: 1.5: spec.ratio in body should be less than 1"}},
      {"multipleOf", R"({"name":"a","step":7})",
       {"spec.step: Invalid value: 7: spec.step in body should be a multiple of 5"}},
      {"enum", R"({"name":"a","policy":"Drop"})",
       {R"(spec.policy: Unsupported value: "Drop": supported values: "Retain", "Delete")"}},
      {"enum of integers", R"({"name":"a","level":3})",
       {R"(spec.level: Unsupported value: 3: supported values: "1", "2")"}},
      {"minItems", R"({"name":"a","tags":[]})",
       {"spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items"}},
      {"maxItems", R"({"name":"a","tags":["a","b","c"]})", {"spec.tags: Too many: 3: must have at most 2 items"}},
      {"listType set", R"({"name":"a","tags":["a","a"]})", {R"(spec.tags[1]: Duplicate value: "a")"}},
      {"listType map", R"({"name":"a","ports":[{"name":"http","port":1},{"name":"http","port":2}]})",
       {R"(spec.ports[1]: Duplicate value: {"name":"http"})"}},
      {"listType map item required", R"({"name":"a","ports":[{"port":1}]})", {"spec.ports[0].name: Required value"}},
      {"minProperties", R"({"name":"a","labels":{}})",
       {"spec.labels: Invalid value: 0: spec.labels in body should have at least 1 properties"}},
      {"maxProperties", R"({"name":"a","labels":{"a":"1","b":"2","c":"3"}})",
       {"spec.labels: Too many: 3: must have at most 2 items"}},
      {"additionalProperties schema", R"({"name":"a","labels":{"k":"long"}})",
       {"spec.labels.k: Too long: may not be more than 3 bytes"}},
      {"int-or-string int", R"({"name":"a","port":80})", {}},
      {"int-or-string string", R"({"name":"a","port":"http"})", {}},
      {"int-or-string other", R"({"name":"a","port":true})",
       {R"(spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean")"}},
      {"preserve-unknown-fields", R"({"name":"a","free":{"x":{"y":[1,"2"]}}})", {}},
      {"format date-time", R"({"name":"a","when":"yesterday"})",
       {R"(spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday")"}},
      {"format date-time ok", R"({"name":"a","when":"2026-12-01T00:00:00Z"})", {}},
      {"format uuid", R"({"name":"a","id":"nope"})",
       {R"(spec.id: Invalid value: "nope": spec.id in body must be of type uuid: "nope")"}},
      {"nullable", R"({"name":"a","opt":null})", {}},
      {"not nullable", R"({"name":"a","flag":null})",
       {R"(spec.flag: Invalid value: "null": spec.flag in body must be of type boolean: "null")"}},
      {"type boolean", R"({"name":"a","flag":"yes"})",
       {R"(spec.flag: Invalid value: "string": spec.flag in body must be of type boolean: "string")"}},
      {"several errors", R"({"count":0,"policy":"Drop"})",
       {"spec.count: Invalid value: 0: spec.count in body should be greater than or equal to 1",
        R"(spec.policy: Unsupported value: "Drop": supported values: "Retain", "Delete")",
        "spec.name: Required value"}},
  };
  for (auto& c : cases) {
    auto obj = json(std::string(R"({"apiVersion":"x/v1","kind":"X","metadata":{"name":"n"},"spec":)") + c.spec + "}");
    auto got = strings(validate(*s, obj));
    BOOST_TEST(joined(got) == joined(c.errors), c.name);
  }
}

BOOST_AUTO_TEST_CASE(required_at_the_root) {
  auto s = schema_yaml(kSchema);
  auto got = strings(validate(*s, json(R"({"apiVersion":"x/v1","kind":"X","metadata":{"name":"n"}})")));
  BOOST_TEST(joined(got) == "spec: Required value\n");
}

BOOST_AUTO_TEST_CASE(cause_types) {
  auto s = schema_yaml(kSchema);
  auto errs = validate(*s, json(R"({"spec":{"count":0,"policy":"Drop","tags":["a","a"],"labels":{"k":"long"}}})"));
  std::vector<std::string> types;
  for (auto& e : errs) types.emplace_back(cause_type(e.type));
  std::vector<std::string> want = {"FieldValueInvalid", "FieldValueTooLong", "FieldValueNotSupported",
                                   "FieldValueRequired", "FieldValueDuplicate"};
  BOOST_TEST(types == want, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(ratcheting_keeps_unchanged_invalid_values) {
  auto s = schema_yaml(kSchema);
  auto old = json(R"({"spec":{"name":"TOOLONGNAME","count":5}})");
  // Only count changes; the stored invalid name is ratcheted.
  BOOST_TEST(validate(*s, json(R"({"spec":{"name":"TOOLONGNAME","count":6}})"), &old).empty());
  // A change to the invalid value itself is checked.
  auto got = strings(validate(*s, json(R"({"spec":{"name":"TOOLONGNAMES","count":5}})"), &old));
  BOOST_TEST(joined(got) == "spec.name: Too long: may not be more than 5 bytes\n");
  // On create nothing is ratcheted.
  BOOST_TEST(validate(*s, json(R"({"spec":{"name":"TOOLONGNAME","count":6}})")).size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
