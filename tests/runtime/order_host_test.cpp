// The order host: spawning on first sight, routing order and child events,
// the update predicate, retiring, and clean shutdown.
#include "coordinator_fixture.hpp"

#include "actors/runtime/controller_metrics.hpp"
#include "actors/runtime/limiter.hpp"
#include "actors/runtime/order_host.hpp"
#include "protocol/control_plane.hpp"
#include "protocol/subscription.hpp"

#include <algorithm>

using namespace c5c3;
using namespace c5c3::runtime;
using namespace c5c3::testing;
using namespace std::chrono_literals;
using protocol::event_type;
using protocol::order_key;

namespace {

const ownership_keys keys{"c5c3.io/keystoneuser-name", "c5c3.io/keystoneuser-namespace",
                          "c5c3.io/keystoneuser-cluster"};
const k8s::gvk kind{"c5c3.io", "v1alpha1", "KeystoneUser"};

struct order_spec {
  const char* name = "alice";
  const char* rv = "1";
  std::int64_t generation = 1;
  const char* label = "a";
  const char* status = "Pending";
  bool terminating = false;
  const char* uid = "u-1";
};

k8s::object order(const order_spec& s) {
  k8s::object_builder b{"c5c3.io/v1alpha1", "KeystoneUser", "tenant-a", s.name};
  b.set_resource_version(s.rv);
  b.set_int({"metadata", "generation"}, s.generation);
  b.set_string({"metadata", "uid"}, s.uid);
  b.set_label("team", s.label);
  b.set_string({"status", "phase"}, s.status);
  if (s.terminating) b.set_string({"metadata", "deletionTimestamp"}, "2026-01-01T00:00:00Z");
  return std::move(b).freeze();
}

k8s::object child(const std::string& name, const std::string& ns, const std::string& cluster) {
  k8s::object_builder b{"openstack.k-orc.cloud/v1alpha1", "User", "cp-ns", "u-" + name};
  b.set_label(keys.name, name).set_label(keys.namespace_, ns).set_label(keys.cluster, cluster);
  return std::move(b).freeze();
}

protocol::object_event event(event_type t, k8s::object obj, std::string cluster = "",
                             k8s::object old = {}) {
  return protocol::object_event{{1}, std::move(cluster), t, std::move(obj), std::move(old)};
}

struct host_fixture : registry_holder, coordinator_fixture {
  std::shared_ptr<pass_log> log = std::make_shared<pass_log>();
  caf::actor gate = keep(sys.spawn(gate_actor, "gate"));
  std::shared_ptr<controller_metrics> m = std::make_shared<controller_metrics>(reg, "keystoneuser");

  caf::actor host(bool gated, caf::actor limiter = {}, std::vector<reference_field> referenced_by = {},
                  std::vector<reference_field> references = {},
                  const std::function<void(order_host_config&)>& tune = {}) {
    order_host_config hc;
    hc.controller = "keystoneuser";
    hc.order_kind = kind;
    hc.keys = keys;
    hc.referenced_by = std::move(referenced_by);
    hc.references = std::move(references);
    auto g = gate;
    auto l = log;
    hc.make_pass = [g, l, gated](const order_key&) {
      return gated ? gated_pass(g, l)
                   : scripted_pass(l, [](int) { return pass_result::converged(); });
    };
    hc.limiter = std::move(limiter);
    hc.max_concurrent_reconciles = 3;
    hc.metrics = m;
    if (tune) tune(hc);
    return keep(spawn_order_host(sys, std::move(hc)));
  }

  protocol::host_probe probe(const caf::actor& h) {
    return ask<protocol::host_probe>(h, protocol::probe_atom::value);
  }

  void send(const caf::actor& h, protocol::object_event ev) {
    caf::anon_send(h, std::move(ev));
    run();
  }

  bool release_any(pass_result r = pass_result::converged()) {
    return ask<bool>(gate, free_atom::value, order_key{}, std::move(r));
  }
};

std::vector<std::string> names(const std::vector<order_key>& keys) {
  std::vector<std::string> out;
  for (const auto& k : keys) out.push_back(k.to_string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(order_host_routing)

BOOST_FIXTURE_TEST_CASE(spawns_on_first_sight_and_routes_children_by_label, host_fixture) {
  auto h = host(false);
  send(h, event(event_type::added, order({})));
  auto p = probe(h);
  BOOST_TEST((names(p.live) == std::vector<std::string>{"/tenant-a/alice"}));
  BOOST_TEST(p.spawned == 1u);
  BOOST_TEST(log->started == 1);
  BOOST_TEST(log->keys.back().to_string() == "/tenant-a/alice");
  BOOST_TEST(log->orders.back().name() == "alice");
  // The same name on a target cluster is another order with its own actor.
  send(h, event(event_type::added, order({}), "edge-1"));
  p = probe(h);
  BOOST_TEST((names(p.live) == std::vector<std::string>{"/tenant-a/alice", "edge-1/tenant-a/alice"}));
  BOOST_TEST(m->order_actors.value() == 2.0);
  BOOST_TEST(m->max_concurrent_reconciles.value() == 3.0);
  BOOST_TEST(log->started == 2);
  // Children (on the management cluster) map back by their labels, the
  // cluster label naming the order's cluster.
  send(h, event(event_type::modified, child("alice", "tenant-a", "edge-1")));
  BOOST_TEST(log->started == 3);
  BOOST_TEST(log->keys.back().to_string() == "edge-1/tenant-a/alice");
  send(h, event(event_type::deleted, child("alice", "tenant-a", "")));
  BOOST_TEST(log->started == 4);
  BOOST_TEST(log->keys.back().to_string() == "/tenant-a/alice");
  // Unknown orders and incomplete labels go nowhere.
  send(h, event(event_type::added, child("bob", "tenant-a", "")));
  send(h, event(event_type::added, child("", "tenant-a", "")));
  BOOST_TEST(log->started == 4);
  BOOST_TEST(probe(h).unrouted == 2u);
  // A relabelled child wakes the order it left and the one it joined.
  send(h, event(event_type::modified, child("alice", "tenant-a", "edge-1"), "",
                child("alice", "tenant-a", "")));
  BOOST_TEST(log->started == 6);
  // Wake-ups from other actors.
  caf::anon_send(h, protocol::wake_order{order_key{"edge-1", "tenant-a", "alice"}, "test"});
  run();
  BOOST_TEST(log->started == 7);
  caf::anon_send(h, protocol::control_plane_changed{
                        {"cp-ns", "cp"},
                        {order_key{"", "tenant-a", "alice"}, order_key{"", "tenant-a", "ghost"}}});
  run();
  BOOST_TEST(log->started == 8);
  BOOST_TEST(probe(h).spawned == 2u);
}

// A child's modification that changed nothing but its version (its own
// controller's finalizer, a status field the informer drops) wakes no pass:
// issue 17 found these were most of a sharded replica's extra passes.
BOOST_FIXTURE_TEST_CASE(a_childs_change_of_version_alone_wakes_no_pass, host_fixture) {
  auto h = host(false);
  send(h, event(event_type::added, order({})));
  BOOST_TEST(log->started == 1);
  BOOST_TEST(m->wakes(wake_cause::order).value() == 1.0);
  auto versioned = [](const char* rv, const char* phase) {
    auto b = child("alice", "tenant-a", "").edit();
    b.set_resource_version(rv);
    b.set_string({"status", "phase"}, phase);
    return std::move(b).freeze();
  };
  send(h, event(event_type::modified, versioned("8", "Pending"), "", versioned("7", "Pending")));
  BOOST_TEST(log->started == 1);
  BOOST_TEST(probe(h).unchanged_children == 1u);
  BOOST_TEST(m->wakes(wake_cause::child).value() == 0.0);
  send(h, event(event_type::modified, versioned("9", "Ready"), "", versioned("8", "Pending")));
  BOOST_TEST(log->started == 2);
  BOOST_TEST(probe(h).unchanged_children == 1u);
  BOOST_TEST(m->wakes(wake_cause::child).value() == 1.0);
  // An addition or a deletion always wakes.
  send(h, event(event_type::added, versioned("10", "Ready")));
  send(h, event(event_type::deleted, versioned("10", "Ready"), "", versioned("10", "Ready")));
  BOOST_TEST(log->started == 4);
}

BOOST_FIXTURE_TEST_CASE(only_objects_the_order_selector_matches_are_orders, host_fixture) {
  auto h = host(false, {}, {}, {}, [](order_host_config& hc) { hc.order_selector = "team=a"; });
  send(h, event(event_type::added, order({})));                        // team=a
  send(h, event(event_type::added, order({"bob", "1", 1, "b"})));      // team=b: not an order
  auto p = probe(h);
  BOOST_TEST((names(p.live) == std::vector<std::string>{"/tenant-a/alice"}));
  BOOST_TEST(p.unrouted == 1u);
  BOOST_TEST(log->started == 1);
  // Another informer of the kind showing it relabelled is not the order's
  // event; the selector's informer says deleted, which retires it.
  send(h, event(event_type::modified, order({"alice", "2", 1, "b"}), "", order({})));
  BOOST_TEST(log->started == 1);
  send(h, event(event_type::deleted, order({})));
  BOOST_TEST(probe(h).live.empty());
}

BOOST_FIXTURE_TEST_CASE(a_wake_rule_wakes_every_related_order_on_the_events_cluster, host_fixture) {
  const k8s::gvk prom{"monitoring.coreos.com", "v1", "Prometheus"};
  auto h = host(false, {}, {}, {}, [&](order_host_config& hc) {
    // An event wakes the orders whose team label its "wakes" label names.
    hc.wakes.push_back({prom, [](const k8s::object& ev, const k8s::object& o) {
                          return ev.label("wakes") == o.label("team");
                        }});
  });
  send(h, event(event_type::added, order({})));                     // alice, team a
  send(h, event(event_type::added, order({"bob", "1", 1, "b"})));   // bob, team b
  send(h, event(event_type::added, order({}), "edge-1"));           // alice on edge-1
  BOOST_TEST(log->started == 3);
  auto p_of = [](const char* wakes) {
    k8s::object_builder b{"monitoring.coreos.com/v1", "Prometheus", "monitoring", "k8s"};
    b.set_label("wakes", wakes);
    return std::move(b).freeze();
  };
  struct row {
    const char* name;
    protocol::object_event ev;
    std::vector<std::string> woken;
  };
  const row rows[] = {
      {"relates to alice only", event(event_type::added, p_of("a")), {"/tenant-a/alice"}},
      {"old version relates to bob, new to alice", event(event_type::modified, p_of("a"), "", p_of("b")),
       {"/tenant-a/alice", "/tenant-a/bob"}},
      {"the other cluster's alice", event(event_type::deleted, p_of("a"), "edge-1"), {"edge-1/tenant-a/alice"}},
      {"relates to nobody", event(event_type::added, p_of("c")), {}},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      auto before = log->keys.size();
      send(h, r.ev);
      std::vector<order_key> got(log->keys.begin() + static_cast<std::ptrdiff_t>(before), log->keys.end());
      BOOST_TEST(names(got) == r.woken, boost::test_tools::per_element());
    }
  }
  BOOST_TEST(probe(h).unrouted == 1u);  // the event that related to nobody
}

// An object that names an order by a field (a KeystoneRoleAssignment's
// spec.userRef.name) wakes that order, in its namespace on its cluster; a
// re-pointed reference wakes the order it left too; other kinds and empty
// fields go nowhere.
BOOST_FIXTURE_TEST_CASE(referencing_objects_wake_the_order_they_name, host_fixture) {
  const k8s::gvk ra{"c5c3.io", "v1alpha1", "KeystoneRoleAssignment"};
  auto h = host(false, {}, {{ra, {"spec", "userRef", "name"}}});
  send(h, event(event_type::added, order({})));
  send(h, event(event_type::added, order({.name = "bob"}), "edge-1"));
  BOOST_TEST(log->started == 2);
  auto assignment = [](const char* kind_name, const std::string& user) {
    k8s::object_builder b{"c5c3.io/v1alpha1", kind_name, "tenant-a", "ra-1"};
    if (!user.empty()) b.set_string({"spec", "userRef", "name"}, user);
    return std::move(b).freeze();
  };
  send(h, event(event_type::added, assignment("KeystoneRoleAssignment", "alice")));
  BOOST_TEST(log->started == 3);
  BOOST_TEST(log->keys.back().to_string() == "/tenant-a/alice");
  send(h, event(event_type::deleted, assignment("KeystoneRoleAssignment", "bob"), "edge-1"));
  BOOST_TEST(log->started == 4);
  BOOST_TEST(log->keys.back().to_string() == "edge-1/tenant-a/bob");
  // The same name on the other cluster is not the order: nothing is woken.
  send(h, event(event_type::added, assignment("KeystoneRoleAssignment", "bob")));
  send(h, event(event_type::added, assignment("KeystoneApplicationCredential", "alice")));
  send(h, event(event_type::added, assignment("KeystoneRoleAssignment", "")));
  BOOST_TEST(log->started == 4);
  BOOST_TEST(probe(h).unrouted == 3u);
  // Re-pointed (old alice, new carol who has no order): alice still wakes.
  send(h, event(event_type::modified, assignment("KeystoneRoleAssignment", "carol"), "",
                assignment("KeystoneRoleAssignment", "alice")));
  BOOST_TEST(log->started == 5);
  BOOST_TEST(log->keys.back().to_string() == "/tenant-a/alice");
}

// A reference the order reads only while it is being deleted (the reference
// holds of users and projects): its events wake the named order only then.
BOOST_FIXTURE_TEST_CASE(a_hold_reference_wakes_only_a_deleting_order, host_fixture) {
  reference_field held{{"c5c3.io", "v1alpha1", "KeystoneRoleAssignment"}, {"spec", "userRef", "name"}};
  held.only_while_deleting = true;
  auto h = host(false, {}, {held});
  send(h, event(event_type::added, order({})));
  BOOST_TEST(log->started == 1);
  k8s::object_builder b{"c5c3.io/v1alpha1", "KeystoneRoleAssignment", "tenant-a", "ra-1"};
  b.set_string({"spec", "userRef", "name"}, "alice");
  auto ra = std::move(b).freeze();
  send(h, event(event_type::added, ra));
  BOOST_TEST(log->started == 1, "alice is not being deleted: the assignment's event does not wake her");
  BOOST_TEST(probe(h).unrouted == 1u);
  send(h, event(event_type::modified, order({.rv = "2", .terminating = true}), "", order({})));
  BOOST_TEST(log->started == 2);
  send(h, event(event_type::deleted, ra));
  BOOST_TEST(log->started == 3, "the deleting alice is woken when the assignment goes");
  BOOST_TEST(log->keys.back().to_string() == "/tenant-a/alice");
}

// The other direction: orders that name an object of another kind by a field
// of their own are woken by its events, through the host's index (kept as
// orders come, change their reference, and go).
BOOST_FIXTURE_TEST_CASE(objects_wake_the_orders_that_name_them, host_fixture) {
  const k8s::gvk team{"c5c3.io", "v1alpha1", "Team"};
  auto h = host(false, {}, {}, {{team, {"spec", "teamRef", "name"}}});
  auto naming = [](const char* name, const char* team_name, const char* rv) {
    k8s::object_builder b{"c5c3.io/v1alpha1", "KeystoneUser", "tenant-a", name};
    b.set_resource_version(rv);
    b.set_int({"metadata", "generation"}, std::string_view(rv) == "1" ? 1 : 2);
    if (*team_name) b.set_string({"spec", "teamRef", "name"}, team_name);
    return std::move(b).freeze();
  };
  auto team_object = [&](const char* name) {
    k8s::object_builder b{"c5c3.io/v1alpha1", "Team", "tenant-a", name};
    return std::move(b).freeze();
  };
  send(h, event(event_type::added, naming("alice", "red", "1")));
  send(h, event(event_type::added, naming("bob", "red", "1")));
  send(h, event(event_type::added, naming("carol", "blue", "1")));
  BOOST_TEST(log->started == 3);
  send(h, event(event_type::modified, team_object("red")));
  BOOST_TEST(log->started == 5);  // alice and bob
  send(h, event(event_type::modified, team_object("blue"), "edge-1"));  // another cluster: nobody
  send(h, event(event_type::modified, team_object("green")));
  BOOST_TEST(log->started == 5);
  // bob moves to blue (the spec change wakes him too): red wakes alice only.
  send(h, event(event_type::modified, naming("bob", "blue", "2")));
  BOOST_TEST(log->started == 6);
  send(h, event(event_type::deleted, team_object("red")));
  BOOST_TEST(log->started == 7);
  BOOST_TEST(log->keys.back().to_string() == "/tenant-a/alice");
  send(h, event(event_type::modified, team_object("blue")));
  BOOST_TEST(log->started == 9);  // bob and carol
  // alice goes: red wakes nobody.
  send(h, event(event_type::deleted, naming("alice", "red", "1")));
  run();
  send(h, event(event_type::modified, team_object("red")));
  BOOST_TEST(log->started == 9);
}

namespace {

k8s::object naming_order(const std::string& name, const std::string& team, const std::string& project = "p") {
  k8s::object_builder b{"c5c3.io/v1alpha1", "KeystoneUser", "tenant-a", name};
  b.set_resource_version("1");
  b.set_int({"metadata", "generation"}, 1);
  b.set_string({"spec", "teamRef", "name"}, team);
  b.set_string({"spec", "projectRef", "name"}, project);
  return std::move(b).freeze();
}

k8s::object team_object(const std::string& name, std::int64_t generation = 1, const char* ready = "True") {
  k8s::object_builder b{"c5c3.io/v1alpha1", "Team", "tenant-a", name};
  b.set_int({"metadata", "generation"}, generation);
  b.set_string({"status", "ready"}, ready);
  return std::move(b).freeze();
}

const k8s::gvk team_kind{"c5c3.io", "v1alpha1", "Team"};

}  // namespace

// A reference's filter: a Team's status write that moves nothing the orders
// read wakes nobody; a spec change, a change of what they read, an addition
// and a deletion do. The wake-ups are counted in the probe.
BOOST_FIXTURE_TEST_CASE(a_reference_filter_passes_only_the_updates_the_orders_read, host_fixture) {
  reference_field ref{team_kind, {"spec", "teamRef", "name"}, {}, [](const k8s::object& old, const k8s::object& now) {
                        return old.generation() != now.generation() ||
                               old.get_string({"status", "ready"}) != now.get_string({"status", "ready"});
                      }};
  auto h = host(false, {}, {}, {ref});
  send(h, event(event_type::added, naming_order("alice", "red")));
  BOOST_TEST(log->started == 1);
  send(h, event(event_type::modified, team_object("red"), "", team_object("red")));
  BOOST_TEST(log->started == 1);
  send(h, event(event_type::modified, team_object("red", 2), "", team_object("red")));
  BOOST_TEST(log->started == 2);
  send(h, event(event_type::modified, team_object("red", 2, "False"), "", team_object("red", 2)));
  BOOST_TEST(log->started == 3);
  send(h, event(event_type::deleted, team_object("red", 2, "False")));
  BOOST_TEST(log->started == 4);
  BOOST_TEST(probe(h).referenced_wakes == 3u);
}

// Shared fields: an object of another kind with the same teamRef and
// projectRef wakes the orders holding both; the order kind itself as a
// reference wakes an order's peers on its events, never itself.
BOOST_FIXTURE_TEST_CASE(shared_fields_and_peers_of_the_same_kind, host_fixture) {
  const std::vector<std::string> team_ref{"spec", "teamRef", "name"}, project_ref{"spec", "projectRef", "name"};
  auto h = host(false, {}, {}, {{team_kind, {}, {team_ref, project_ref}}, {kind, {}, {team_ref, project_ref}}});
  send(h, event(event_type::added, naming_order("alice", "red", "p1")));
  send(h, event(event_type::added, naming_order("bob", "red", "p2")));
  BOOST_TEST(log->started == 2);
  k8s::object_builder t{"c5c3.io/v1alpha1", "Team", "tenant-a", "anything"};
  t.set_string({"spec", "teamRef", "name"}, "red");
  t.set_string({"spec", "projectRef", "name"}, "p2");
  send(h, event(event_type::added, std::move(t).freeze()));
  BOOST_TEST(log->started == 3);
  BOOST_TEST(log->keys.back().name == "bob");
  // carol, a peer of bob: her addition wakes bob (and starts her own pass).
  send(h, event(event_type::added, naming_order("carol", "red", "p2")));
  BOOST_TEST(log->started == 5);
  // carol goes: bob wakes; alice never did.
  send(h, event(event_type::deleted, naming_order("carol", "red", "p2")));
  run();
  int alice = 0;
  for (const auto& k : log->keys) alice += k.name == "alice";
  BOOST_TEST(alice == 1);
  BOOST_TEST(log->keys.back().name == "bob");
}

// 10,000 orders naming 1,000 teams: one team's change wakes its 10 orders,
// not one more (the index, not a scan).
BOOST_FIXTURE_TEST_CASE(ten_thousand_orders_one_reference_change_wakes_only_its_own, host_fixture) {
  auto h = host(false, {}, {}, {{team_kind, {"spec", "teamRef", "name"}}});
  for (int i = 0; i < 10000; ++i)
    caf::anon_send(h, event(event_type::added, naming_order("o-" + std::to_string(i), "team-" + std::to_string(i % 1000))));
  run();
  BOOST_TEST(log->started == 10000);
  BOOST_TEST(probe(h).live.size() == 10000u);
  send(h, event(event_type::modified, team_object("team-7", 2), "", team_object("team-7")));
  BOOST_TEST(log->started == 10010);
  BOOST_TEST(probe(h).referenced_wakes == 10u);
  for (std::size_t i = 10000; i < log->keys.size(); ++i)
    BOOST_TEST((std::stoi(log->keys[i].name.substr(2)) % 1000 == 7));
  BOOST_TEST_MESSAGE("one reference change at 10,000 orders: " << probe(h).referenced_wakes << " wake-ups");
}

BOOST_FIXTURE_TEST_CASE(status_writes_do_not_wake_but_spec_label_and_deletion_do, host_fixture) {
  auto h = host(false);
  send(h, event(event_type::added, order({})));
  BOOST_TEST(log->started == 1);
  struct row {
    const char* name;
    order_spec spec;
    bool wakes;
  };
  const row rows[] = {
      {"status-only write", {"alice", "2", 1, "a", "Ready"}, false},
      {"resync of the same object", {"alice", "2", 1, "a", "Ready"}, false},
      {"label change", {"alice", "3", 1, "b", "Ready"}, true},
      {"another status write", {"alice", "4", 1, "b", "NotReady"}, false},
      {"generation bump", {"alice", "5", 2, "b", "NotReady"}, true},
      {"becomes terminating", {"alice", "6", 2, "b", "NotReady", true}, true},
      {"status write while terminating", {"alice", "7", 2, "b", "Deleting", true}, false},
  };
  int expected = 1;
  std::uint64_t filtered = 0;
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      send(h, event(event_type::modified, order(r.spec)));
      if (r.wakes) {
        ++expected;
        BOOST_TEST(log->orders.back().resource_version() == r.spec.rv);
      } else {
        ++filtered;
      }
      BOOST_TEST(log->started == expected);
      BOOST_TEST(probe(h).filtered == filtered);
    }
  }
  // A filtered update still reached the actor: the next pass sees it.
  caf::anon_send(h, protocol::wake_order{order_key{"", "tenant-a", "alice"}, "test"});
  run();
  BOOST_TEST(log->orders.back().resource_version() == "7");
}

BOOST_FIXTURE_TEST_CASE(retires_the_actor_once_the_order_is_gone, host_fixture) {
  auto h = host(false);
  send(h, event(event_type::added, order({})));
  send(h, event(event_type::deleted, order({})));
  auto p = probe(h);
  BOOST_TEST(p.live.empty());
  BOOST_TEST(p.retiring.empty());
  BOOST_TEST(p.retired == 1u);
  BOOST_TEST(m->order_actors.value() == 0.0);
  BOOST_TEST(log->started == 1);  // no pass for the deletion itself
  send(h, event(event_type::modified, child("alice", "tenant-a", "")));
  BOOST_TEST(log->started == 1);
  BOOST_TEST(probe(h).unrouted == 1u);
  // Deleting an unknown order is harmless; re-creating spawns anew.
  send(h, event(event_type::deleted, order({"nobody"})));
  send(h, event(event_type::added, order({"alice", "9", 1, "a", "Pending", false, "u-2"})));
  p = probe(h);
  BOOST_TEST(p.spawned == 2u);
  BOOST_TEST(p.live.size() == 1u);
  BOOST_TEST(log->started == 2);
}

BOOST_FIXTURE_TEST_CASE(a_disengaged_cluster_or_a_vanished_kind_retires_its_orders, host_fixture) {
  auto h = host(false);
  send(h, event(event_type::added, order({"alice"})));
  send(h, event(event_type::added, order({"alice"}), "edge-1"));
  send(h, event(event_type::added, order({"bob"}), "edge-1"));
  send(h, event(event_type::added, order({"carol"}), "edge-2"));
  caf::anon_send(h, protocol::cluster_disengaged{"edge-1", {}});
  run();
  auto p = probe(h);
  BOOST_TEST((names(p.live) == std::vector<std::string>{"/tenant-a/alice", "edge-2/tenant-a/carol"}));
  BOOST_TEST(p.retired == 2u);
  // Another kind vanishing changes nothing; the order kind vanishing retires.
  caf::anon_send(h, protocol::kind_availability{"edge-2", {"other.io", "v1", "KeystoneUser"}, false});
  caf::anon_send(h, protocol::kind_availability{"edge-2", kind, true});
  run();
  BOOST_TEST(probe(h).live.size() == 2u);
  caf::anon_send(h, protocol::kind_availability{"edge-2", kind, false});
  run();
  p = probe(h);
  BOOST_TEST((names(p.live) == std::vector<std::string>{"/tenant-a/alice"}));
  BOOST_TEST(p.retired == 3u);
  BOOST_TEST(m->order_actors.value() == 1.0);
  // The cluster engaged again: its orders come back through their events.
  send(h, event(event_type::added, order({"alice"}), "edge-1"));
  BOOST_TEST(probe(h).live.size() == 2u);
}

// The news of a disengagement comes from the cluster registry by way of the
// directory; the cluster actor's own last events may come after it.
BOOST_FIXTURE_TEST_CASE(a_disengaged_cluster_actors_late_events_bring_no_order_back, host_fixture) {
  auto h = host(false);
  // (An argument: CAF 0.17 spawns an argument-less function actor through a
  // null pointer, which UBSan stops on.)
  auto silent = [](int) { return caf::behavior{[](int) {}}; };
  caf::actor old_edge = sys.spawn(silent, 0);
  caf::actor stopped_edge = sys.spawn(silent, 0);
  auto from = [&](const caf::actor& cluster, protocol::object_event ev) {
    caf::send_as(cluster, h, std::move(ev));
    run();
  };
  from(old_edge, event(event_type::added, order({"bob"}), "edge-1"));
  from(stopped_edge, event(event_type::added, order({"carol"}), "edge-2"));
  BOOST_TEST(probe(h).live.size() == 2u);
  caf::anon_send(h, protocol::cluster_disengaged{"edge-1", old_edge.address()});
  run();
  from(old_edge, event(event_type::modified, order({"bob", "2"}), "edge-1"));
  auto p = probe(h);
  BOOST_TEST((names(p.live) == std::vector<std::string>{"edge-2/tenant-a/carol"}));
  BOOST_TEST(p.spawned == 2u);
  // Engaged again: the new cluster actor's events are heard.
  caf::actor new_edge = sys.spawn(silent, 0);
  from(new_edge, event(event_type::added, order({"bob", "3"}), "edge-1"));
  BOOST_TEST(probe(h).live.size() == 2u);
  // The old actor down: the host forgets it and goes on.
  caf::anon_send_exit(old_edge, caf::exit_reason::user_shutdown);
  run();
  // A cluster actor stopped before the news is read, its last event queued
  // behind the news: ignored as well.
  caf::anon_send(h, protocol::cluster_disengaged{"edge-2", stopped_edge.address()});
  caf::send_as(stopped_edge, h, event(event_type::modified, order({"carol", "2"}), "edge-2"));
  caf::anon_send_exit(stopped_edge, caf::exit_reason::user_shutdown);
  BOOST_TEST_REQUIRE(sched.prioritize(stopped_edge));
  sched.run_once();
  stopped_edge = nullptr;
  run();
  p = probe(h);
  BOOST_TEST((names(p.live) == std::vector<std::string>{"edge-1/tenant-a/bob"}));
  BOOST_TEST(p.retired == 2u);
  BOOST_TEST(p.spawned == 3u);
}

BOOST_FIXTURE_TEST_CASE(an_order_recreated_while_retiring_gets_a_fresh_actor, host_fixture) {
  auto h = host(true);
  send(h, event(event_type::added, order({})));
  BOOST_TEST(log->started == 1);
  send(h, event(event_type::deleted, order({})));
  send(h, event(event_type::added, order({"alice", "9", 1, "a", "Pending", false, "u-2"})));
  auto p = probe(h);
  BOOST_TEST((names(p.retiring) == std::vector<std::string>{"/tenant-a/alice"}));
  BOOST_TEST(log->started == 1);  // the old actor is finishing its pass
  BOOST_TEST(release_any());
  p = probe(h);
  BOOST_TEST(p.retired == 1u);
  BOOST_TEST(p.spawned == 2u);
  BOOST_TEST((names(p.live) == std::vector<std::string>{"/tenant-a/alice"}));
  BOOST_TEST(log->started == 2);
  BOOST_TEST(log->orders.back().uid() == "u-2");
  BOOST_TEST(release_any());
}

BOOST_FIXTURE_TEST_CASE(stop_finishes_passes_in_flight_and_starts_no_more, host_fixture) {
  auto limiter = keep(spawn_limiter(sys, 1));
  auto h = host(true, limiter);
  send(h, event(event_type::added, order({"alice"})));
  send(h, event(event_type::added, order({"bob"})));
  BOOST_TEST(log->started == 1);  // bob waits for the token
  self->monitor(h);
  auto stopped = self->request(h, caf::infinite, protocol::stop_atom::value);
  run();
  BOOST_TEST(self->mailbox().empty());  // alice's pass is in flight
  auto p = probe(h);
  BOOST_TEST((names(p.live) == std::vector<std::string>{"/tenant-a/alice"}));  // bob quit
  // Events after stop spawn nothing.
  send(h, event(event_type::added, order({"carol"})));
  BOOST_TEST(probe(h).spawned == 2u);
  BOOST_TEST(release_any());
  bool ok = false, down = false;
  stopped.receive([&](protocol::ok_atom) { ok = true; }, [](caf::error&) {});
  self->receive([&](caf::down_msg& dm) { down = dm.source == h.address(); });
  BOOST_TEST(ok);
  BOOST_TEST(down);
  BOOST_TEST(log->started == 1);
  BOOST_TEST(ask<protocol::limiter_probe>(limiter, protocol::probe_atom::value).in_use == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
