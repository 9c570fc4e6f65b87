// k8s/projection.hpp: which fields a projection drops and which it keeps,
// absent paths, arrays, quoted names, the path syntax, and the set algebra
// the cluster actor and the runner compare projections with.
#include "k8s/compact_json.hpp"
#include "k8s/projection.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace c5c3::k8s;

namespace {

// A PushSecret as the simulated External Secrets leaves it.
const char* push_json = R"({
  "apiVersion": "external-secrets.io/v1alpha1", "kind": "PushSecret",
  "metadata": {"name": "p", "namespace": "openstack", "creationTimestamp": "2026-12-03T20:53:18Z",
               "resourceVersion": "102", "generation": 1, "uid": "u-1",
               "annotations": {"c5c3.io/rabbitmqvhost-push-hash": "cf4c",
                               "kubectl.kubernetes.io/last-applied-configuration": "{\"big\":1}"},
               "labels": {"c5c3.io/rabbitmqvhost-name": "bench-00000"},
               "finalizers": ["pushsecret.externalsecrets.io/finalizer"]},
  "spec": {"data": [{"match": {"remoteRef": {"remoteKey": "k"}}}]},
  "status": {"conditions": [{"type": "Ready", "status": "True", "reason": "Synced", "message": "ok",
                             "lastTransitionTime": "2026-12-03T20:53:18Z"},
                            {"type": "Other", "status": "False", "reason": "R"},
                            "not an object"],
             "refreshTime": "2026-12-03T20:53:18Z",
             "syncedPushSecrets": {"ClusterSecretStore/s": {"k": {"match": {"remoteRef": {"remoteKey": "k"}}}}},
             "syncedResourceVersion": "1-167e"}})";

object parse(const char* text) {
  auto o = object::parse(text);
  BOOST_REQUIRE(o);
  return *o;
}

std::vector<field_path> paths(const std::vector<std::string>& texts) {
  std::string error;
  auto p = parse_field_paths(texts, &error);
  BOOST_REQUIRE_MESSAGE(p, error);
  return *p;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(projection)

BOOST_AUTO_TEST_CASE(the_named_fields_go_and_the_rest_stays) {
  auto o = parse(push_json);
  auto p = project(o, paths({"status.syncedPushSecrets", "status.refreshTime", "metadata.creationTimestamp",
                             "status.conditions[].lastTransitionTime",
                             "metadata.annotations.\"kubectl.kubernetes.io/last-applied-configuration\""}));
  BOOST_TEST(!p.get({"status", "syncedPushSecrets"}));
  BOOST_TEST(!p.get({"status", "refreshTime"}));
  BOOST_TEST(p.creation_timestamp().empty());
  BOOST_TEST(!p.annotation("kubectl.kubernetes.io/last-applied-configuration"));
  // Every element of the array loses the member; nothing else of it goes.
  auto conds = p.conditions();
  BOOST_REQUIRE(conds.size() == 2u);
  BOOST_TEST(conds[0].last_transition_time.empty());
  BOOST_TEST(conds[0].message == "ok");
  BOOST_TEST(conds[0].reason == "Synced");
  BOOST_TEST(conds[1].reason == "R");
  BOOST_TEST(p.get({"status", "conditions"})->GetArray()[2].IsString());  // a non-object element is left alone
  // What the plans read stays.
  BOOST_TEST(p.get_string({"status", "syncedResourceVersion"}) == "1-167e");
  BOOST_TEST(p.annotation("c5c3.io/rabbitmqvhost-push-hash").value_or("") == "cf4c");
  BOOST_TEST(p.resource_version() == "102");
  BOOST_TEST(p.uid() == "u-1");
  BOOST_TEST(p.generation() == 1);
  BOOST_TEST(p.has_finalizer("pushsecret.externalsecrets.io/finalizer"));
  BOOST_TEST(p.label("c5c3.io/rabbitmqvhost-name").value_or("") == "bench-00000");
  BOOST_TEST(p.get({"spec", "data"})->GetArray()[0].IsObject());
  // The original is untouched, and the copy is sized to what is left.
  BOOST_TEST(o.get({"status", "syncedPushSecrets"}) != nullptr);
  auto [used, reserved] = usage_of(p.json());
  BOOST_TEST(used == reserved);
  BOOST_TEST(p.to_json().size() < o.to_json().size());
}

BOOST_AUTO_TEST_CASE(absent_paths_drop_nothing_and_copy_nothing) {
  auto o = parse(push_json);
  // Absent members, a path through a string, `[]` on an object, through a missing parent.
  auto p = project(o, paths({"status.nothing", "metadata.name.deeper", "metadata[].x", "nope.a.b",
                             "spec.data[].match.remoteRef.absent"}));
  BOOST_TEST(&p.json() == &o.json());  // the same document: no copy
  BOOST_TEST(p.to_json() == o.to_json());
  BOOST_TEST(!holds_any(o.json(), paths({"status.nothing", "nope.a.b"})));
  BOOST_TEST(holds_any(o.json(), paths({"status.nothing", "status.refreshTime"})));
  BOOST_TEST(&project(o, {}).json() == &o.json());
  BOOST_TEST(!project(object{}, paths({"a"})));
}

BOOST_AUTO_TEST_CASE(arrays_nested_in_arrays) {
  auto o = parse(R"({"a": [{"b": [{"c": 1, "d": 2}, {"c": 3}]}, {"b": []}, {"x": 1}]})");
  auto p = project(o, paths({"a[].b[].c"}));
  BOOST_TEST(p.to_json() == R"({"a":[{"b":[{"d":2},{}]},{"b":[]},{"x":1}]})");
  // A whole array member goes by its plain path.
  BOOST_TEST(project(o, paths({"a"})).to_json() == "{}");
}

BOOST_AUTO_TEST_CASE(the_path_syntax) {
  auto p = parse_field_path("status.conditions[].lastTransitionTime");
  BOOST_REQUIRE(p);
  BOOST_TEST(p->size() == 3u);
  BOOST_TEST((*p)[1].name == "conditions");
  BOOST_TEST((*p)[1].each);
  BOOST_TEST(!(*p)[2].each);
  auto q = parse_field_path("metadata.annotations.\"a.b/c[]\"");
  BOOST_REQUIRE(q);
  BOOST_TEST(q->size() == 3u);
  BOOST_TEST((*q)[2].name == "a.b/c[]");
  for (const char* bad : {"", ".a", "a.", "a..b", "a[", "a[x].b", "a[]b", "a[]", "\"a", "a\"b\".c", "\"\""}) {
    std::string error;
    BOOST_TEST(!parse_field_path(bad, &error), bad);
    BOOST_TEST(!error.empty(), bad);
  }
  std::string error;
  BOOST_TEST(!parse_field_paths({"a.b", "a..b"}, &error));
  BOOST_TEST(error.find("a..b") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(projections_compare_as_sets) {
  auto a = canonical_paths({"status.b", "metadata.a", "status.b"});
  BOOST_TEST(a == (std::vector<std::string>{"metadata.a", "status.b"}));
  BOOST_TEST(drops_within({}, a));
  BOOST_TEST(drops_within({"status.b"}, a));
  BOOST_TEST(drops_within(a, a));
  BOOST_TEST(!drops_within({"status.c"}, a));
  BOOST_TEST(!drops_within(a, {}));
  BOOST_TEST(common_paths(a, canonical_paths({"status.b", "status.c"})) == (std::vector<std::string>{"status.b"}));
  BOOST_TEST(common_paths(a, {}).empty());
}

BOOST_AUTO_TEST_SUITE_END()
