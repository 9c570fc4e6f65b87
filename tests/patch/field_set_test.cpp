// Field paths, field sets and the FieldsV1 encoding of managedFields.
#include "sim/ssa/builtin_schemas.hpp"
#include "sim/ssa/field_set.hpp"
#include "sim/ssa/schema.hpp"
#include "sim/ssa/typed_value.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::sim::ssa;
using c5c3::k8s::json_equal;
using c5c3::k8s::parse_json;

namespace {
path_element f(const char* n) { return path_element::field(n); }
path_element port_key(int port) {
  return path_element::make_key({{"protocol", "\"TCP\""}, {"port", std::to_string(port)}});
}

schema_ptr schema_of(const char* openapi) {
  auto d = parse_json(openapi);
  BOOST_REQUIRE(d);
  return object_schema_from_openapi(&*d).root;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(field_sets)

BOOST_AUTO_TEST_CASE(path_strings_as_fieldpath_prints_them) {
  struct row {
    path p;
    const char* text;
  };
  const row rows[] = {
      {{f("data"), f("key")}, ".data.key"},
      {{f("spec"), f("ports"), port_key(80), f("name")}, ".spec.ports[port=80,protocol=\"TCP\"].name"},
      {{f("metadata"), f("finalizers"), path_element::make_value("\"a/b\"")},
       ".metadata.finalizers[=\"a/b\"]"},
      {{f("spec"), f("list"), path_element::make_index(3)}, ".spec.list[3]"},
  };
  for (const auto& r : rows) BOOST_TEST(path_to_string(r.p) == r.text);
}

BOOST_AUTO_TEST_CASE(fields_v1_literal_encoding_and_round_trip) {
  field_set s;
  s.insert({f("data"), f("a")});
  s.insert({f("metadata"), f("labels"), f("app")});
  s.insert({f("metadata"), f("finalizers"), path_element::make_value("\"x\"")});
  s.insert({f("spec"), f("ports"), port_key(80)});
  s.insert({f("spec"), f("ports"), port_key(80), f("port")});
  s.insert({f("spec"), f("ports"), port_key(80), f("name")});
  s.insert({f("spec"), f("ports"), port_key(443)});
  const char* expected =
      R"({"f:data":{"f:a":{}},)"
      R"("f:metadata":{"f:finalizers":{"v:\"x\"":{}},"f:labels":{"f:app":{}}},)"
      R"("f:spec":{"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:name":{},"f:port":{}},)"
      R"("k:{\"port\":443,\"protocol\":\"TCP\"}":{}}}})";
  BOOST_TEST(s.to_fields_v1_string() == expected);
  auto doc = parse_json(expected);
  BOOST_REQUIRE(doc);
  auto back = field_set::from_fields_v1(*doc);
  BOOST_REQUIRE(back);
  BOOST_TEST((*back == s));
  BOOST_TEST(back->to_fields_v1_string() == expected);
}

BOOST_AUTO_TEST_CASE(iteration_order_members_then_children) {
  field_set s;
  s.insert({f("a"), f("z")});
  s.insert({f("b")});
  s.insert({f("a"), f("y"), f("x")});
  std::vector<std::string> got;
  s.for_each([&](const path& p) { got.push_back(path_to_string(p)); });
  std::vector<std::string> want{".b", ".a.z", ".a.y.x"};
  BOOST_TEST(got == want, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(set_algebra) {
  field_set a, b;
  a.insert({f("x")});
  a.insert({f("m"), f("k1")});
  a.insert({f("m"), f("k2")});
  b.insert({f("m"), f("k2")});
  b.insert({f("y")});
  BOOST_TEST(a.intersection(b).to_fields_v1_string() == R"({"f:m":{"f:k2":{}}})");
  BOOST_TEST(a.difference(b).to_fields_v1_string() == R"({"f:m":{"f:k1":{}},"f:x":{}})");
  BOOST_TEST(a.union_with(b).to_fields_v1_string() ==
             R"({"f:m":{"f:k1":{},"f:k2":{}},"f:x":{},"f:y":{}})");
  BOOST_TEST(a.has_prefix({f("m")}));
  BOOST_TEST(!a.has_prefix({f("y")}));
  BOOST_TEST(a.without_prefix({f("m")}).to_fields_v1_string() == R"({"f:x":{}})");
  BOOST_TEST(!field_set::from_fields_v1(*parse_json(R"({"q:x":{}})")));
  field_set deep;
  deep.insert({f("a"), f("b"), f("c")});
  deep.insert({f("z")});
  BOOST_TEST(deep.without_prefix({f("a"), f("b"), f("c")}).to_fields_v1_string() == R"({"f:z":{}})");
}

BOOST_AUTO_TEST_CASE(value_order_numbers_before_strings) {
  BOOST_TEST(compare_json_text("80", "443") < 0);  // numerically, not as text
  BOOST_TEST(compare_json_text("9", "\"a\"") < 0);
  BOOST_TEST(compare_json_text("\"a\"", "\"b\"") < 0);
  BOOST_TEST(compare_json_text("false", "true") < 0);
}

BOOST_AUTO_TEST_CASE(to_field_set_follows_the_schema) {
  auto s = schema_of(R"({"type":"object","properties":{
      "spec":{"type":"object","properties":{
        "replicas":{"type":"integer"},
        "args":{"type":"array","items":{"type":"string"}},
        "tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
        "env":{"type":"object","additionalProperties":{"type":"string"}},
        "selector":{"type":"object","x-kubernetes-map-type":"atomic",
                    "additionalProperties":{"type":"string"}},
        "empty":{"type":"object","properties":{"a":{"type":"string"}}}}},
      "status":{"type":"object","properties":{"conditions":{"type":"array",
        "x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["type"],
        "items":{"type":"object","properties":{"type":{"type":"string"},
                                               "status":{"type":"string"}}}}}}}})");
  auto v = parse_json(R"({"apiVersion":"c5c3.io/v1","kind":"K","metadata":{"name":"n",
      "labels":{"a":"1"}},
      "spec":{"replicas":2,"args":["x"],"tags":["t1","t2"],"env":{"E":"v"},"selector":{"k":"v"},
              "empty":{}},
      "status":{"conditions":[{"type":"Ready","status":"True"}]}})");
  BOOST_REQUIRE(v);
  std::string err;
  auto fs = to_field_set(*v, s, &err);
  BOOST_TEST(err.empty());
  BOOST_TEST(fs.to_fields_v1_string() ==
             R"({"f:apiVersion":{},"f:kind":{},"f:metadata":{"f:labels":{"f:a":{}},"f:name":{}},)"
             R"("f:spec":{"f:args":{},"f:empty":{},"f:env":{"f:E":{}},"f:replicas":{},)"
             R"("f:selector":{},"f:tags":{"v:\"t1\"":{},"v:\"t2\"":{}}},)"
             R"("f:status":{"f:conditions":{"k:{\"type\":\"Ready\"}":{".":{},"f:status":{},"f:type":{}}}}})");
}

BOOST_AUTO_TEST_CASE(builtin_merge_keys_in_field_sets) {
  auto sa = builtin_schema("v1", "ServiceAccount");
  BOOST_TEST_REQUIRE(sa.has_value());
  auto v = parse_json(R"({"metadata":{"finalizers":["x"],"ownerReferences":[{"uid":"u1","name":"o"}]},
      "secrets":[{"name":"s1"}],"imagePullSecrets":[{"name":"p"}]})");
  std::string err;
  BOOST_TEST(to_field_set(*v, sa->root, &err).to_fields_v1_string() ==
             R"({"f:imagePullSecrets":{},"f:metadata":{"f:finalizers":{"v:\"x\"":{}},)"
             R"("f:ownerReferences":{"k:{\"uid\":\"u1\"}":{".":{},"f:name":{},"f:uid":{}}}},)"
             R"("f:secrets":{"k:{\"name\":\"s1\"}":{".":{},"f:name":{}}}})");
  BOOST_TEST(err.empty());
}

BOOST_AUTO_TEST_CASE(deduced_schema_marks_every_object_key) {
  auto s = object_schema_from_openapi(nullptr).root;
  auto v = parse_json(R"({"spec":{"a":{"b":1},"l":[1,2]}})");
  std::string err;
  BOOST_TEST(to_field_set(*v, s, &err).to_fields_v1_string() ==
             R"({"f:spec":{".":{},"f:a":{".":{},"f:b":{}},"f:l":{}}})");
}

BOOST_AUTO_TEST_CASE(missing_and_duplicate_list_keys_are_errors) {
  auto s = schema_of(R"({"type":"object","properties":{"l":{"type":"array",
      "x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
      "items":{"type":"object","properties":{"name":{"type":"string"}}}}}})");
  std::string err;
  to_field_set(*parse_json(R"({"l":[{"x":1}]})"), s, &err);
  BOOST_TEST(err ==
             ".l: element 0: associative list with keys has an element that omits key field "
             "\"name\" (and doesn't have default value)");
  err.clear();
  to_field_set(*parse_json(R"({"l":[{"name":"a"},{"name":"a"}]})"), s, &err);
  BOOST_TEST(err == ".l: duplicate entries for key [name=\"a\"]");
}

BOOST_AUTO_TEST_SUITE_END()
