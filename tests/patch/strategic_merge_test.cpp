// Strategic merge patch on the built-in kinds the emulator serves.
#include "sim/ssa/builtin_schemas.hpp"
#include "sim/ssa/strategic_merge.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace c5c3::sim::ssa;
using c5c3::k8s::json_document;
using c5c3::k8s::json_equal;
using c5c3::k8s::to_json;

namespace {

json_document parse(const std::string& text) {
  std::string err;
  auto d = c5c3::k8s::parse_json(text, &err);
  BOOST_REQUIRE_MESSAGE(d, "bad JSON in test table: " << err << ": " << text);
  return std::move(*d);
}

struct smp_case {
  const char* name;
  const char* api_version;  // "" : no schema (deduced)
  const char* kind;
  const char* original;
  const char* patch;
  const char* result;     // nullptr: must fail
  const char* error = "";  // substring of the failure message
  int code = 0;
};

const smp_case cases[] = {
    {"labels merge", "v1", "ConfigMap", R"({"metadata":{"labels":{"a":"1"}}})",
     R"({"metadata":{"labels":{"b":"2"}}})", R"({"metadata":{"labels":{"a":"1","b":"2"}}})"},
    {"null removes a label (kubectl label a-)", "v1", "ConfigMap",
     R"({"metadata":{"labels":{"a":"1","b":"2"}}})", R"({"metadata":{"labels":{"a":null}}})",
     R"({"metadata":{"labels":{"b":"2"}}})"},
    {"annotate creates the map", "v1", "Secret", R"({"metadata":{"name":"s"}})",
     R"({"metadata":{"annotations":{"n":"v"}}})",
     R"({"metadata":{"name":"s","annotations":{"n":"v"}}})"},
    {"kubectl apply three-way patch", "v1", "ConfigMap",
     R"({"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}"}},"data":{"a":"1","c":"3"}})",
     R"({"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"data\":{\"b\":\"2\"}}"}},"data":{"a":null,"b":"2"}})",
     R"({"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"data\":{\"b\":\"2\"}}"}},"data":{"b":"2","c":"3"}})"},
    {"service ports merge by port", "v1", "Service",
     R"({"spec":{"ports":[{"port":80,"name":"http"},{"port":443,"name":"https"}]}})",
     R"({"spec":{"ports":[{"port":80,"targetPort":8080}]}})",
     R"({"spec":{"ports":[{"port":80,"name":"http","targetPort":8080},{"port":443,"name":"https"}]}})"},
    {"service ports append a new port", "v1", "Service",
     R"({"spec":{"ports":[{"port":80}]}})", R"({"spec":{"ports":[{"port":81}]}})",
     R"({"spec":{"ports":[{"port":80},{"port":81}]}})"},
    {"$patch: delete removes a list item by merge key", "v1", "Service",
     R"({"spec":{"ports":[{"port":80},{"port":443}]}})",
     R"({"spec":{"ports":[{"port":80,"$patch":"delete"}]}})", R"({"spec":{"ports":[{"port":443}]}})"},
    {"$patch: replace replaces a merging list", "v1", "Service",
     R"({"spec":{"ports":[{"port":80},{"port":443}]}})",
     R"({"spec":{"ports":[{"port":1},{"$patch":"replace"}]}})", R"({"spec":{"ports":[{"port":1}]}})"},
    {"$setElementOrder orders the merged list", "v1", "Service",
     R"({"spec":{"ports":[{"port":80},{"port":443}]}})",
     R"({"spec":{"$setElementOrder/ports":[{"port":443},{"port":80}],"ports":[{"port":80,"name":"x"}]}})",
     R"({"spec":{"ports":[{"port":443},{"port":80,"name":"x"}]}})"},
    {"selector (no strategy) is a map: merged", "v1", "Service",
     R"({"spec":{"selector":{"a":"1"}}})", R"({"spec":{"selector":{"b":"2"}}})",
     R"({"spec":{"selector":{"a":"1","b":"2"}}})"},
    {"ownerReferences merge by uid", "v1", "ConfigMap",
     R"({"metadata":{"ownerReferences":[{"uid":"u1","name":"a"},{"uid":"u2","name":"b"}]}})",
     R"({"metadata":{"ownerReferences":[{"uid":"u2","controller":true},{"uid":"u3","name":"c"}]}})",
     R"({"metadata":{"ownerReferences":[{"uid":"u1","name":"a"},{"uid":"u2","name":"b","controller":true},{"uid":"u3","name":"c"}]}})"},
    {"finalizers are united", "v1", "Secret", R"({"metadata":{"finalizers":["a"]}})",
     R"({"metadata":{"finalizers":["b","a"]}})", R"({"metadata":{"finalizers":["b","a"]}})"},
    {"finalizers: a new one goes last", "v1", "Secret", R"({"metadata":{"finalizers":["a"]}})",
     R"({"metadata":{"finalizers":["b"]}})", R"({"metadata":{"finalizers":["a","b"]}})"},
    {"$deleteFromPrimitiveList", "v1", "Secret", R"({"metadata":{"finalizers":["a","b"]}})",
     R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}})",
     R"({"metadata":{"finalizers":["b"]}})"},
    {"$setElementOrder alone reorders primitives", "v1", "Secret",
     R"({"metadata":{"finalizers":["a","b"]}})",
     R"({"metadata":{"$setElementOrder/finalizers":["b","a"]}})",
     R"({"metadata":{"finalizers":["b","a"]}})"},
    {"RBAC rules have no strategy: replaced", "rbac.authorization.k8s.io/v1", "Role",
     R"({"rules":[{"verbs":["get"],"resources":["pods"]}]})",
     R"({"rules":[{"verbs":["list"],"resources":["secrets"]}]})",
     R"({"rules":[{"verbs":["list"],"resources":["secrets"]}]})"},
    {"RBAC subjects have no strategy: replaced", "rbac.authorization.k8s.io/v1", "RoleBinding",
     R"({"subjects":[{"kind":"User","name":"a"}]})", R"({"subjects":[{"kind":"User","name":"b"}]})",
     R"({"subjects":[{"kind":"User","name":"b"}]})"},
    {"Endpoints subsets replaced", "v1", "Endpoints", R"({"subsets":[{"addresses":[{"ip":"1.1.1.1"}]}]})",
     R"({"subsets":[{"addresses":[{"ip":"2.2.2.2"}]}]})",
     R"({"subsets":[{"addresses":[{"ip":"2.2.2.2"}]}]})"},
    {"ServiceAccount secrets merge by name", "v1", "ServiceAccount",
     R"({"secrets":[{"name":"a"}]})", R"({"secrets":[{"name":"b"}]})",
     R"({"secrets":[{"name":"a"},{"name":"b"}]})"},
    {"Namespace conditions merge by type", "v1", "Namespace",
     R"({"status":{"conditions":[{"type":"A","status":"True"},{"type":"B","status":"True"}]}})",
     R"({"status":{"conditions":[{"type":"B","status":"False"}]}})",
     R"({"status":{"conditions":[{"type":"A","status":"True"},{"type":"B","status":"False"}]}})"},
    {"$patch: replace on a map", "v1", "ConfigMap", R"({"data":{"a":"1","b":"2"}})",
     R"({"data":{"$patch":"replace","x":"1"}})", R"({"data":{"x":"1"}})"},
    {"$patch: delete on a map", "v1", "ConfigMap", R"({"data":{"a":"1"},"immutable":false})",
     R"({"data":{"$patch":"delete"}})", R"({"immutable":false})"},
    {"$retainKeys drops unlisted keys", "", "", R"({"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}}})",
     R"({"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}})",
     R"({"spec":{"strategy":{"type":"Recreate"}}})"},
    {"no schema: lists replaced", "", "", R"({"l":[1,2]})", R"({"l":[3]})", R"({"l":[3]})"},
    {"unknown $patch", "v1", "ConfigMap", R"({"data":{}})", R"({"data":{"$patch":"frob"}})", nullptr,
     "unknown patch type: frob", 400},
    {"missing merge key", "v1", "Service", R"({"spec":{"ports":[{"port":80}]}})",
     R"({"spec":{"ports":[{"name":"x"}]}})", nullptr, "does not contain declared merge key: port",
     422},
    {"bad $retainKeys", "", "", R"({"a":{}})", R"({"a":{"$retainKeys":"x"}})", nullptr,
     "invalid patch format of retainKeys", 400},
    {"$retainKeys must list every patched field", "", "", R"({"a":{}})",
     R"({"a":{"$retainKeys":["x"],"x":1,"y":2}})", nullptr, "invalid patch format of retainKeys",
     400},
};

}  // namespace

BOOST_AUTO_TEST_SUITE(strategic_merge)

BOOST_AUTO_TEST_CASE(table) {
  for (const auto& c : cases) {
    BOOST_TEST_CONTEXT(c.name) {
      type_schema schema;
      if (*c.api_version) {
        auto s = builtin_schema(c.api_version, c.kind);
        BOOST_TEST_REQUIRE(s.has_value());
        schema = *s;
      }
      auto doc = parse(c.original);
      auto patch = parse(c.patch);
      auto err = apply_strategic_merge_patch(doc, patch, schema);
      if (c.result) {
        BOOST_TEST(!err, (err ? err->message : std::string()));
        BOOST_TEST(json_equal(doc, parse(c.result)), "got " << to_json(doc));
      } else {
        BOOST_TEST_REQUIRE(err.has_value());
        BOOST_TEST(err->message.find(c.error) != std::string::npos, err->message);
        BOOST_TEST(err->code == c.code);
        BOOST_TEST(json_equal(doc, parse(c.original)));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(which_kinds_support_it) {
  BOOST_TEST(supports_strategic_merge("v1", "ConfigMap"));
  BOOST_TEST(supports_strategic_merge("v1", "Secret"));
  BOOST_TEST(supports_strategic_merge("coordination.k8s.io/v1", "Lease"));
  BOOST_TEST(supports_strategic_merge("events.k8s.io/v1", "Event"));
  BOOST_TEST(supports_strategic_merge("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"));
  BOOST_TEST(supports_strategic_merge("apiextensions.k8s.io/v1", "CustomResourceDefinition"));
  BOOST_TEST(!supports_strategic_merge("c5c3.io/v1alpha1", "ControlPlane"));
  BOOST_TEST(!supports_strategic_merge("v1", "NoSuchKind"));
}

BOOST_AUTO_TEST_SUITE_END()
