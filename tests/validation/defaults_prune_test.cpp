// Structural defaulting and pruning.
#include "helpers.hpp"
#include "rabbitmqvhost_schema.hpp"

using namespace c5c3::sim::validation;
using namespace c5c3::sim::validation::testing;

BOOST_AUTO_TEST_SUITE(defaulting_and_pruning)

BOOST_AUTO_TEST_CASE(defaults_fill_missing_fields_recursively) {
  auto s = schema_yaml(kRabbitMQVhostSchema);
  auto obj = json(R"({"apiVersion":"c5c3.io/v1alpha1","kind":"RabbitMQVhost","metadata":{"name":"v"},
                      "spec":{"controlPlaneRef":{"name":"cp"}}})");
  apply_defaults(*s, obj, obj.GetAllocator());
  auto want = json(R"({"apiVersion":"c5c3.io/v1alpha1","kind":"RabbitMQVhost","metadata":{"name":"v"},
                       "spec":{"controlPlaneRef":{"name":"cp"},"passwordGeneration":1,"deletionPolicy":"Retain",
                               "rotation":{"interval":"720h","gracePeriod":"24h"}}})");
  BOOST_TEST(k8s::json_equal(obj, want), k8s::to_json(obj));
}

BOOST_AUTO_TEST_CASE(defaults_keep_given_values) {
  auto s = schema_yaml(kRabbitMQVhostSchema);
  auto obj = json(R"({"spec":{"controlPlaneRef":{"name":"cp"},"passwordGeneration":4,
                              "rotation":{"interval":"0s"},"deletionPolicy":"Delete"}})");
  apply_defaults(*s, obj, obj.GetAllocator());
  BOOST_TEST(*k8s::get_int(obj, {"spec", "passwordGeneration"}) == 4);
  BOOST_TEST(k8s::get_string(obj, {"spec", "rotation", "interval"}) == "0s");
  BOOST_TEST(k8s::get_string(obj, {"spec", "rotation", "gracePeriod"}) == "24h");
  BOOST_TEST(k8s::get_string(obj, {"spec", "deletionPolicy"}) == "Delete");
}

BOOST_AUTO_TEST_CASE(nulls_are_defaulted_or_dropped) {
  auto s = schema_yaml(R"y(
type: object
properties:
  spec:
    type: object
    properties:
      withDefault: {type: string, default: d}
      noDefault: {type: string}
      nullable: {type: string, nullable: true}
      list: {type: array, items: {type: integer, default: 7}}
)y");
  auto obj = json(R"({"spec":{"withDefault":null,"noDefault":null,"nullable":null,"list":[1,null]}})");
  apply_defaults(*s, obj, obj.GetAllocator());
  BOOST_TEST(k8s::json_equal(obj, json(R"({"spec":{"withDefault":"d","nullable":null,"list":[1,7]}})")),
             k8s::to_json(obj));
}

BOOST_AUTO_TEST_CASE(prune_drops_unknown_fields) {
  auto s = schema_yaml(R"y(
type: object
properties:
  spec:
    type: object
    properties:
      known: {type: string}
      free: {type: object, x-kubernetes-preserve-unknown-fields: true, properties: {typed: {type: object, properties: {a: {type: string}}}}}
      map: {type: object, additionalProperties: {type: object, properties: {v: {type: string}}}}
      list: {type: array, items: {type: object, properties: {x: {type: string}}}}
      embedded: {type: object, x-kubernetes-embedded-resource: true, properties: {spec: {type: object}}}
)y");
  auto obj = json(R"({"apiVersion":"a/v1","kind":"K","metadata":{"name":"n","labels":{"a":"b"}},
    "spec":{"known":"k","unknown":1,
            "free":{"anything":{"deep":true},"typed":{"a":"x","b":"dropped"}},
            "map":{"k1":{"v":"1","w":"dropped"}},
            "list":[{"x":"1","y":"dropped"}],
            "embedded":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"spec":{},"extra":1}},
    "status":{"x":1}})");
  auto pruned = prune(*s, obj);
  auto want = json(R"({"apiVersion":"a/v1","kind":"K","metadata":{"name":"n","labels":{"a":"b"}},
    "spec":{"known":"k",
            "free":{"anything":{"deep":true},"typed":{"a":"x"}},
            "map":{"k1":{"v":"1"}},
            "list":[{"x":"1"}],
            "embedded":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"spec":{}}}})");
  BOOST_TEST(k8s::json_equal(obj, want), k8s::to_json(obj));
  std::vector<std::string> want_paths = {"spec.unknown",       "spec.free.typed.b", "spec.map.k1.w",
                                         "spec.list[0].y",     "spec.embedded.extra", "status"};
  std::sort(pruned.begin(), pruned.end());
  std::sort(want_paths.begin(), want_paths.end());
  BOOST_TEST(pruned == want_paths, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
