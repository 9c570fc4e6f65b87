#include "k8s/object.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::k8s;

namespace {
object sample() {
  auto o = object::parse(R"({
    "apiVersion": "c5c3.io/v1alpha1", "kind": "RabbitMQVhost",
    "metadata": {"name": "orders", "namespace": "tenant-a", "uid": "u-1",
                 "resourceVersion": "42", "generation": 3,
                 "labels": {"a": "1"}, "annotations": {"n": "x"},
                 "finalizers": ["c5c3.io/rabbitmqvhost-teardown"],
                 "ownerReferences": [{"apiVersion": "v1", "kind": "Foo", "name": "f",
                                      "uid": "u-f", "controller": true}]},
    "status": {"conditions": [{"type": "Ready", "status": "True", "reason": "AllReady",
                               "message": "", "lastTransitionTime": "2026-01-01T00:00:00Z",
                               "observedGeneration": 3}]}})");
  BOOST_REQUIRE(o);
  return *o;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(object_model)

BOOST_AUTO_TEST_CASE(typed_accessors) {
  auto o = sample();
  BOOST_TEST(o.api_version() == "c5c3.io/v1alpha1");
  BOOST_TEST(o.gvk().group == "c5c3.io");
  BOOST_TEST(o.gvk().version == "v1alpha1");
  BOOST_TEST(o.name() == "orders");
  BOOST_TEST(o.namespace_() == "tenant-a");
  BOOST_TEST(o.generation() == 3);
  BOOST_TEST(o.resource_version() == "42");
  BOOST_TEST(*o.label("a") == "1");
  BOOST_TEST(!o.label("b"));
  BOOST_TEST(o.has_finalizer("c5c3.io/rabbitmqvhost-teardown"));
  BOOST_TEST(!o.terminating());
  BOOST_TEST(o.controller_reference()->uid == "u-f");
  BOOST_TEST(o.find_condition("Ready")->observed_generation == 3);
  BOOST_TEST(o.key().to_string() == "tenant-a/orders");
}

BOOST_AUTO_TEST_CASE(core_group_api_version) {
  auto g = gvk::from_api_version("v1", "Secret");
  BOOST_TEST(g.group.empty());
  BOOST_TEST(g.api_version() == "v1");
}

BOOST_AUTO_TEST_CASE(copies_share_and_edits_do_not_leak) {
  auto o = sample();
  object shared = o;
  BOOST_TEST(shared.same_document(o));
  auto b = o.edit();
  b.set_label("a", "2").add_finalizer("x").remove_finalizer("c5c3.io/rabbitmqvhost-teardown");
  auto edited = std::move(b).freeze();
  BOOST_TEST(*o.label("a") == "1");
  BOOST_TEST(*edited.label("a") == "2");
  BOOST_TEST(edited.finalizers() == std::vector<std::string>{"x"});
}

BOOST_AUTO_TEST_CASE(rejects_non_objects) {
  std::string err;
  BOOST_TEST(!object::parse("[1]", &err));
  BOOST_TEST(err == "expected a JSON object");
  BOOST_TEST(!object::parse("{", &err));
  BOOST_TEST(err.find("invalid JSON") == 0);
  BOOST_TEST(!object::parse("{} x", &err));
}

BOOST_AUTO_TEST_CASE(set_condition_keeps_transition_time_unless_status_flips) {
  auto t0 = *parse_rfc3339("2026-01-01T00:00:00Z");
  auto t1 = *parse_rfc3339("2026-01-02T00:00:00Z");
  std::vector<condition> conds;
  BOOST_TEST(set_condition(conds, {"VhostReady", "False", "WaitingForVhost", "m", "", 1}, t0));
  BOOST_TEST(conds[0].last_transition_time == "2026-01-01T00:00:00Z");
  // Same status, other reason: changed, but the transition time stays.
  BOOST_TEST(set_condition(conds, {"VhostReady", "False", "VhostFailed", "m2", "", 2}, t1));
  BOOST_TEST(conds[0].last_transition_time == "2026-01-01T00:00:00Z");
  BOOST_TEST(conds[0].reason == "VhostFailed");
  BOOST_TEST(conds[0].observed_generation == 2);
  // Identical: no change.
  BOOST_TEST(!set_condition(conds, {"VhostReady", "False", "VhostFailed", "m2", "", 2}, t1));
  // Flip: new time.
  BOOST_TEST(set_condition(conds, {"VhostReady", "True", "VhostProvisioned", "", "", 2}, t1));
  BOOST_TEST(conds[0].last_transition_time == "2026-01-02T00:00:00Z");
}

BOOST_AUTO_TEST_CASE(set_condition_on_builder) {
  auto t0 = *parse_rfc3339("2026-01-01T00:00:00Z");
  auto b = sample().edit();
  BOOST_TEST(set_condition(b, {"Ready", "False", "NotAllReady", "x", "", 3}, t0));
  auto o = std::move(b).freeze();
  auto c = o.find_condition("Ready");
  BOOST_TEST(c->status == "False");
  BOOST_TEST(c->last_transition_time == "2026-01-01T00:00:00Z");
  BOOST_TEST(o.conditions().size() == 1u);
}

BOOST_AUTO_TEST_CASE(builder_paths) {
  object_builder b("v1", "Secret", "ns", "s");
  b.set_string({"data", "k"}, "dg==").set_int({"spec", "n"}, 5).remove({"spec", "n"});
  auto o = std::move(b).freeze();
  BOOST_TEST(o.get_string({"data", "k"}) == "dg==");
  BOOST_TEST(!o.get({"spec", "n"}));
  BOOST_TEST(o.namespace_() == "ns");
}

BOOST_AUTO_TEST_CASE(json_equality_ignores_member_order) {
  auto a = parse_json(R"({"a":1,"b":[1,2,{"c":true}]})");
  auto b = parse_json(R"({"b":[1,2,{"c":true}],"a":1.0})");
  auto c = parse_json(R"({"b":[2,1,{"c":true}],"a":1})");
  BOOST_TEST(json_equal(*a, *b));
  BOOST_TEST(!json_equal(*a, *c));
}

BOOST_AUTO_TEST_SUITE_END()
