// A trivial order kind (test.c5c3.io/v1 Gadget, a CRD both in-process
// emulators install at start) run the way the operator runs a kind: an order
// host whose watches are registered with the cluster directory, the
// management cluster actor, the target registry engaging a second emulator
// from a labelled kubeconfig Secret. The pass records itself and writes the
// order's status through the cluster actor the directory names.
//
// CAF's normal scheduler; every wait is bounded and polls an observable
// (the pass record, the host's probe), never a wall-clock duration.
#include "tests/cluster/gadget_fixture.hpp"

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
  k8s::object_builder s("v1", "Secret", "default", "cluster-east");
  s.set_label(cluster::target_cluster_label, "east");
  s.set_string({"data", "kubeconfig"}, config::base64_encode(target.kubeconfig_yaml()));
  auto secret = write(management, protocol::create_request{std::move(s).freeze(), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(secret), why(secret));

  // The directory engages "east" and subscribes the kind's every_cluster watch there.
  caf::actor east;
  BOOST_TEST_REQUIRE(eventually([&] {
    caf::scoped_actor self{sys};
    self->request(directory, deadline, protocol::lookup_cluster_atom::value, std::string("east"))
        .receive([&](caf::actor& a) { east = a; }, [](caf::error&) {});
    return static_cast<bool>(east);
  }));
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
  k8s::object_builder child("v1", "ConfigMap", "default", "g2-child");
  child.set_label(gadget_keys.name, "g2");
  child.set_label(gadget_keys.namespace_, "default");
  child.set_label(gadget_keys.cluster, "east");
  auto c = write(management, protocol::create_request{std::move(child).freeze(), {}});
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
  auto del = write(management, protocol::delete_request{{secret_kind, "default", "cluster-east"}, "", "",
                                                        protocol::propagation::background});
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

BOOST_FIXTURE_TEST_CASE(an_unreachable_target_keeps_the_directory_unsynced_until_disengaged, kind_fixture) {
  // The target's API server is gone: its cluster actor cannot resolve the
  // kind's watch, retries, and the directory does not answer synced.
  auto kubeconfig = target.kubeconfig_yaml();
  target.stop();
  k8s::object_builder s("v1", "Secret", "default", "cluster-west");
  s.set_label(cluster::target_cluster_label, "west");
  s.set_string({"data", "kubeconfig"}, config::base64_encode(kubeconfig));
  auto secret = write(management, protocol::create_request{std::move(s).freeze(), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(secret), why(secret));
  caf::scoped_actor self{sys};
  BOOST_TEST_REQUIRE(eventually([&] {
    bool engaged = false;
    self->request(directory, deadline, protocol::lookup_cluster_atom::value, std::string("west"))
        .receive([&](caf::actor&) { engaged = true; }, [](caf::error&) {});
    return engaged;
  }));
  for (int i = 0; i < 20; ++i) {
    BOOST_TEST(!synced(self));
    std::this_thread::sleep_for(10ms);
  }
  // Disengaged: synced again.
  auto del = write(management, protocol::delete_request{{secret_kind, "default", "cluster-west"}, "", "",
                                                        protocol::propagation::background});
  BOOST_TEST_REQUIRE(static_cast<bool>(del), why(del));
  BOOST_TEST(eventually([&] { return synced(self); }));
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
