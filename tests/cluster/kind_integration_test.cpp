// The Gadget kind (kind_fixture.hpp) on the management and a target cluster:
// passes, wake-ups, retiring, target clusters coming and going, the kind's
// CRD going.
#include "tests/cluster/kind_fixture.hpp"

#include <boost/test/unit_test.hpp>

namespace c5c3::testing {

BOOST_AUTO_TEST_SUITE(kind_integration)

BOOST_FIXTURE_TEST_CASE(management_order_runs_wakes_on_children_not_status_and_retires, kind_fixture) {
  const protocol::order_key key{"", "default", "g1"};
  auto made = write(management, protocol::create_request{gadget("g1"), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(made), why(made));

  // Created: the host spawns its actor and the pass runs; the pass's own
  // status write comes back as an update the predicate filters.
  BOOST_TEST_REQUIRE(eventually([&] { return rec->count(key) >= 1; }));
  BOOST_TEST_REQUIRE(eventually([&] {
    return passes(server.get_object("gadgets.test.c5c3.io", "default", "g1")) == 1;
  }));
  BOOST_TEST_REQUIRE(eventually([&] { return probe().filtered >= 1; }));
  BOOST_TEST(rec->count(key) == 1);
  BOOST_TEST(has(probe().live, key));

  // A child with the ownership labels wakes it.
  k8s::object_builder child("v1", "ConfigMap", "default", "g1-child");
  child.set_label(gadget_keys.name, "g1");
  child.set_label(gadget_keys.namespace_, "default");
  auto c = write(management, protocol::create_request{std::move(child).freeze(), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(c), why(c));
  BOOST_TEST_REQUIRE(eventually([&] { return rec->count(key) >= 2; }));
  BOOST_TEST_REQUIRE(eventually([&] { return probe().filtered >= 2; }));
  BOOST_TEST(rec->count(key) == 2);

  // A spec change (a new generation) wakes it too.
  auto spec = write(management, protocol::patch_request{gadget_ref("g1"), protocol::patch_type::merge,
                                                        R"({"spec":{"size":"large"}})", "", {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(spec), why(spec));
  BOOST_TEST_REQUIRE(eventually([&] { return rec->count(key) >= 3; }));
  // Its status write landed before the order goes (else the pass in flight
  // meets a deleted object: a 404 this test would count as an error).
  BOOST_TEST_REQUIRE(eventually([&] {
    return passes(server.get_object("gadgets.test.c5c3.io", "default", "g1")) == rec->count(key);
  }));

  // Deleting the order retires its actor.
  auto del = write(management, protocol::delete_request{gadget_ref("g1"), "", "", protocol::propagation::background});
  BOOST_TEST_REQUIRE(static_cast<bool>(del), why(del));
  BOOST_TEST_REQUIRE(eventually([&] {
    auto p = probe();
    return p.live.empty() && p.retiring.empty() && p.retired == 1;
  }));
  BOOST_TEST(rec->errors.empty(), errors());
}

BOOST_FIXTURE_TEST_CASE(target_cluster_orders_get_actors_and_disengaging_retires_them, kind_fixture) {
  const protocol::order_key key{"east", "default", "g2"};
  // The directory engages "east" and subscribes the kind's every_cluster watch there.
  caf::actor east = engage("east", target.kubeconfig_yaml());
  {
    caf::scoped_actor self{sys};
    BOOST_TEST_REQUIRE(eventually([&] { return synced(self); }));
  }

  auto made = write(east, protocol::create_request{gadget("g2"), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(made), why(made));
  BOOST_TEST_REQUIRE(eventually([&] { return has(probe().live, key); }));
  BOOST_TEST_REQUIRE(eventually([&] {
    return passes(target.get_object("gadgets.test.c5c3.io", "default", "g2")) >= 1;
  }));
  // The status went to the target, not to the management cluster.
  BOOST_TEST(!server.get_object("gadgets.test.c5c3.io", "default", "g2"));
  BOOST_TEST(rec->count({"", "default", "g2"}) == 0);

  // A child on the management cluster naming the target in its cluster label wakes the target's order.
  int before = rec->count(key);
  auto c = add_child(key, "g2-child");
  BOOST_TEST_REQUIRE(static_cast<bool>(c), why(c));
  BOOST_TEST_REQUIRE(eventually([&] { return rec->count(key) > before; }));
  BOOST_TEST_REQUIRE(eventually([&] {
    return passes(target.get_object("gadgets.test.c5c3.io", "default", "g2")) == rec->count(key);
  }));
  // So far every pass succeeded (later, a pass in flight when the cluster
  // goes may fail with a transport error: that is expected).
  BOOST_TEST(rec->errors.empty(), errors());

  // Deleting the Secret disengages "east": its orders' actors retire, the
  // directory no longer names it.
  auto del = disengage("east");
  BOOST_TEST_REQUIRE(static_cast<bool>(del), why(del));
  BOOST_TEST_REQUIRE(eventually([&] {
    auto p = probe();
    return !has(p.live, key) && p.retiring.empty() && p.retired >= 1;
  }));
  caf::scoped_actor self{sys};
  bool not_engaged = false;
  self->request(directory, deadline, protocol::lookup_cluster_atom::value, std::string("east"))
      .receive([](caf::actor&) {}, [&](caf::error& e) { not_engaged = protocol::is_not_found(e); });
  BOOST_TEST(not_engaged);
}

BOOST_FIXTURE_TEST_CASE(an_unreachable_target_leaves_readiness_to_the_management_cluster, kind_fixture) {
  // The target's API server is gone (connections refused): its cluster
  // actor cannot resolve the kind's watch and retries.
  auto kubeconfig = target.kubeconfig_yaml();
  target.stop();
  engage("west", kubeconfig);
  // Its health says so once a request has failed...
  BOOST_TEST_REQUIRE(eventually([&] {
    auto h = health("west");
    return h.cluster == "west" && h.known && !h.reachable && !h.synced;
  }));
  BOOST_TEST(!health("west").error.empty());
  // ... and the directory answers synced all the while: /readyz follows the
  // management cluster (it answered false for as long as "west" was engaged).
  caf::scoped_actor self{sys};
  BOOST_TEST(synced(self));
  // The management cluster's health is its own.
  auto m = health("");
  BOOST_TEST((m.known && m.reachable && m.synced));
  // Disengaged: no health any more.
  auto del = disengage("west");
  BOOST_TEST_REQUIRE(static_cast<bool>(del), why(del));
  BOOST_TEST(eventually([&] { return !lookup("west") && health("west").cluster.empty(); }));
}

BOOST_FIXTURE_TEST_CASE(the_kind_going_away_retires_its_orders, kind_fixture) {
  const protocol::order_key key{"", "default", "g3"};
  auto made = write(management, protocol::create_request{gadget("g3"), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(made), why(made));
  BOOST_TEST_REQUIRE(eventually([&] { return has(probe().live, key); }));
  BOOST_TEST_REQUIRE(eventually([&] { return rec->count(key) >= 1; }));

  auto del = write(management, protocol::delete_request{{crd_gvk, "", "gadgets.test.c5c3.io"}, "", "",
                                                        protocol::propagation::background});
  BOOST_TEST_REQUIRE(static_cast<bool>(del), why(del));
  BOOST_TEST_REQUIRE(eventually([&] {
    auto p = probe();
    return p.live.empty() && p.retiring.empty() && p.retired == 1;
  }));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
