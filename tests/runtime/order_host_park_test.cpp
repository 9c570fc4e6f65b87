// Parking converged orders (order_actor.hpp, "Parking"; order_host_park.cpp):
// a settled order's actor goes after park_after idle, and comes back, with
// its counters, at an event that wakes it or at its next timer; nothing sent
// to it while it parks is lost. Virtual time (coordinator_fixture).
#include "coordinator_fixture.hpp"

#include "actors/runtime/controller_metrics.hpp"
#include "actors/runtime/named_timers.hpp"
#include "actors/runtime/order_host.hpp"
#include "protocol/control_plane.hpp"
#include "protocol/subscription.hpp"

#include <set>
#include <string>
#include <vector>

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
const order_key alice{"", "tenant-a", "alice"};

k8s::object order(const char* rv, std::int64_t generation, const char* phase = "Ready") {
  k8s::object_builder b{"c5c3.io/v1alpha1", "KeystoneUser", "tenant-a", "alice"};
  b.set_resource_version(rv);
  b.set_int({"metadata", "generation"}, generation);
  b.set_string({"metadata", "uid"}, "u-1");
  b.set_string({"status", "phase"}, phase);
  return std::move(b).freeze();
}

k8s::object child(const char* rv, const char* phase = "Pending") {
  k8s::object_builder b{"openstack.k-orc.cloud/v1alpha1", "User", "cp-ns", "u-alice"};
  b.set_resource_version(rv);
  b.set_string({"status", "phase"}, phase);
  b.set_label(keys.name, "alice").set_label(keys.namespace_, "tenant-a").set_label(keys.cluster, "");
  return std::move(b).freeze();
}

// The same for the order named `name` (its child u-`name`).
k8s::object named_order(const std::string& name, const char* rv, const char* phase) {
  k8s::object_builder b{"c5c3.io/v1alpha1", "KeystoneUser", "tenant-a", name};
  b.set_resource_version(rv);
  b.set_int({"metadata", "generation"}, 1);
  b.set_string({"metadata", "uid"}, "u-" + name);
  b.set_string({"status", "phase"}, phase);
  return std::move(b).freeze();
}

k8s::object named_child(const std::string& name, const char* rv, const char* phase) {
  k8s::object_builder b{"openstack.k-orc.cloud/v1alpha1", "User", "cp-ns", "u-" + name};
  b.set_resource_version(rv);
  b.set_string({"status", "phase"}, phase);
  b.set_label(keys.name, name).set_label(keys.namespace_, "tenant-a").set_label(keys.cluster, "");
  return std::move(b).freeze();
}

protocol::object_event event(event_type t, k8s::object obj, k8s::object old = {}) {
  return protocol::object_event{{1}, "", t, std::move(obj), std::move(old)};
}

// Every pass succeeds; `settled`, the timer and failure are the test's to
// set. `unsettled_asks`: how many times the settled question says no first.
struct script {
  bool settled = true;
  int unsettled_asks = 0;
  int asks = 0;
  bool fail = false;
  std::optional<caf::timespan> rotation;
};

// Stands in for the ControlPlane directory: records the orders the host
// says have left it.
caf::behavior forget_log(caf::event_based_actor*, std::shared_ptr<std::vector<order_key>> forgotten) {
  return {[forgotten](protocol::cp_forget_atom, const order_key& k) { forgotten->push_back(k); }};
}

struct park_fixture : registry_holder, coordinator_fixture {
  std::shared_ptr<pass_log> log = std::make_shared<pass_log>();
  std::shared_ptr<script> s = std::make_shared<script>();
  std::shared_ptr<std::vector<order_key>> forgotten = std::make_shared<std::vector<order_key>>();
  std::shared_ptr<controller_metrics> m = std::make_shared<controller_metrics>(reg, "keystoneuser");
  caf::actor h;

  park_fixture() {
    order_host_config hc;
    hc.controller = "keystoneuser";
    hc.order_kind = kind;
    hc.keys = keys;
    hc.metrics = m;
    hc.actor_options.park_after = 10s;
    hc.control_planes = keep(sys.spawn(forget_log, forgotten));
    auto l = log;
    auto sc = s;
    hc.make_pass = [l, sc](const order_key&) {
      return scripted_pass(l, [sc](int) {
        auto r = sc->fail ? pass_result::failed("boom") : pass_result::converged();
        if (sc->rotation) r.arm(timer_names::rotation, *sc->rotation);
        if (sc->settled)
          r.settled = [sc](const k8s::object&, caf::actor_clock::time_point) {
            return ++sc->asks > sc->unsettled_asks;
          };
        return r;
      });
    };
    h = keep(spawn_order_host(sys, std::move(hc)));
  }

  protocol::host_probe probe() { return ask<protocol::host_probe>(h, protocol::probe_atom::value); }
  protocol::order_probe order_probe() { return ask<protocol::order_probe>(h, protocol::probe_atom::value, alice); }

  void send(protocol::object_event ev) {
    caf::anon_send(h, std::move(ev));
    run();
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(order_host_parking)

BOOST_FIXTURE_TEST_CASE(a_settled_order_parks_after_idle_and_an_event_brings_it_back, park_fixture) {
  send(event(event_type::added, order("1", 1)));
  BOOST_TEST(log->started == 1);
  advance(9s);
  BOOST_TEST(probe().parked == 0u);

  advance(1s);
  auto p = probe();
  BOOST_TEST(p.parked == 1u);
  BOOST_TEST(p.parks == 1u);
  BOOST_TEST(p.live.size() == 1u);  // still the host's order
  BOOST_TEST(m->order_actors.value() == 0.0);
  BOOST_TEST(m->orders_parked.value() == 1.0);
  auto op = order_probe();
  BOOST_TEST(op.key.to_string() == alice.to_string());
  BOOST_TEST(op.phase == static_cast<std::uint8_t>(protocol::order_phase::parked));
  BOOST_TEST(op.passes_finished == 1u);

  // A status write (the predicate filters it) keeps it parked; the next pass sees it.
  send(event(event_type::modified, order("2", 1, "Written"), order("1", 1)));
  BOOST_TEST(probe().parked == 1u);
  BOOST_TEST(log->started == 1);

  // A change of the spec wakes it: a new actor, whose counters go on.
  send(event(event_type::modified, order("3", 2), order("2", 1, "Written")));
  BOOST_TEST_REQUIRE(log->started == 2);
  BOOST_TEST(log->orders.back().resource_version() == "3");
  p = probe();
  BOOST_TEST(p.parked == 0u);
  BOOST_TEST(p.unparks == 1u);
  BOOST_TEST(p.spawned == 1u);
  BOOST_TEST(order_probe().passes_started == 2u);
  BOOST_TEST(m->order_actors.value() == 1.0);

  // A child's event wakes it as well, once parked again; one that changed
  // nothing but the version leaves it parked.
  advance(10s);
  BOOST_TEST_REQUIRE(probe().parked == 1u);
  send(event(event_type::modified, child("6"), child("5")));
  BOOST_TEST(log->started == 2);
  BOOST_TEST(probe().parked == 1u);
  send(event(event_type::modified, child("7", "Ready"), child("6")));
  BOOST_TEST(log->started == 3);
  BOOST_TEST(probe().unparks == 2u);
  // c5c3_pass_wakes_total: the first sight and the spec change as the order's
  // own, the unpark by the child's event as the child's.
  BOOST_TEST(m->wakes(wake_cause::order).value() == 2.0);
  BOOST_TEST(m->wakes(wake_cause::child).value() == 1.0);
}

BOOST_FIXTURE_TEST_CASE(a_parked_order_wakes_when_its_next_timer_is_due, park_fixture) {
  s->rotation = 1h;
  send(event(event_type::added, order("1", 1)));
  advance(10s);
  BOOST_TEST_REQUIRE(probe().parked == 1u);
  BOOST_TEST((order_probe().armed_timers == std::vector<std::string>{"rotation"}));

  advance(1h - 11s);
  BOOST_TEST(log->started == 1);
  advance(1s);  // the rotation, an hour after the pass
  BOOST_TEST(log->started == 2);
  BOOST_TEST(probe().unparks == 1u);
  BOOST_TEST(m->wakes(wake_cause::timer).value() == 1.0);  // a parked order's due time
  // Its pass armed the rotation again; it parks again and wakes again.
  advance(10s);
  BOOST_TEST(probe().parked == 1u);
  advance(1h - 10s);
  BOOST_TEST(log->started == 3);
  // Parked again and deleted: its place in the wheel goes with it (the
  // wheel's next tick finds nothing of it).
  advance(10s);
  BOOST_TEST_REQUIRE(probe().parked == 1u);
  send(event(event_type::deleted, order("1", 1)));
  advance(2h);
  BOOST_TEST(probe().live.empty());
  BOOST_TEST(log->started == 3);
}

BOOST_FIXTURE_TEST_CASE(an_unsettled_or_failing_order_keeps_its_actor, park_fixture) {
  s->settled = false;
  send(event(event_type::added, order("1", 1)));
  advance(1min);
  BOOST_TEST(probe().parked == 0u);
  BOOST_TEST(probe().parks == 0u);

  // Failing passes back off (their state is the actor's): never parked.
  s->settled = true;
  s->fail = true;
  send(event(event_type::modified, order("2", 2), order("1", 1)));
  advance(5min);
  BOOST_TEST(log->started > 2);
  BOOST_TEST(probe().parks == 0u);

  // Once it succeeds settled, it parks.
  s->fail = false;
  advance(20min);  // the retry: a success
  BOOST_TEST(probe().parked == 0u);
  advance(10s);
  BOOST_TEST(probe().parked == 1u);
}

BOOST_FIXTURE_TEST_CASE(a_closure_not_settled_yet_is_asked_again_after_the_idle_time, park_fixture) {
  s->unsettled_asks = 2;
  send(event(event_type::added, order("1", 1)));
  advance(10s);
  BOOST_TEST(s->asks == 1);
  BOOST_TEST(probe().parked == 0u);
  advance(10s);
  BOOST_TEST(s->asks == 2);
  BOOST_TEST(probe().parked == 0u);
  advance(10s);
  BOOST_TEST(s->asks == 3);
  BOOST_TEST(probe().parked == 1u);
  BOOST_TEST(log->started == 1);
}

BOOST_FIXTURE_TEST_CASE(a_wake_that_comes_while_the_actor_parks_is_held_and_delivered, park_fixture) {
  send(event(event_type::added, order("1", 1)));
  // The park timer's tick reaches the actor, which asks the host; the host
  // agrees. Before the actor reads the answer, a spec change comes.
  sched.advance_time(10s);
  BOOST_TEST_REQUIRE(sched.try_run_once());  // the host: the tick (protocol::timer_relay), on to the actor
  BOOST_TEST_REQUIRE(sched.try_run_once());  // the actor: the tick, the request
  BOOST_TEST_REQUIRE(sched.try_run_once());  // the host: agrees (now parking)
  caf::anon_send(h, event(event_type::modified, order("2", 2), order("1", 1)));
  sched.prioritize(h);
  BOOST_TEST_REQUIRE(sched.try_run_once());  // the host: holds the update
  run();
  // The actor parked; the held wake-up brought it straight back.
  auto p = probe();
  BOOST_TEST(p.parks == 1u);
  BOOST_TEST(p.unparks == 1u);
  BOOST_TEST(p.parked == 0u);
  BOOST_TEST_REQUIRE(log->started == 2);
  BOOST_TEST(log->orders.back().resource_version() == "2");
}

// A parked order's object is the entry's alone, kept packed (past 8 parked
// orders, with a dictionary of theirs, every one packed again): a version
// that comes while it is parked and wakes nothing replaces it, and the pass
// its child's event wakes sees that version, whole.
BOOST_FIXTURE_TEST_CASE(a_parked_orders_latest_object_comes_back_whole, park_fixture) {
  std::vector<std::string> names;
  for (int i = 0; i < 20; ++i) names.push_back("user-" + std::to_string(i));
  for (const auto& n : names) send(event(event_type::added, named_order(n, "1", "Ready")));
  advance(10s);
  BOOST_TEST_REQUIRE(probe().parked == names.size());
  for (const auto& n : names)
    send(event(event_type::modified, named_order(n, "2", "Written"), named_order(n, "1", "Ready")));
  BOOST_TEST(probe().parked == names.size());  // a status write wakes nothing
  BOOST_TEST(log->started == 20);
  for (const auto& n : names)
    send(event(event_type::modified, named_child(n, "6", "Ready"), named_child(n, "5", "Pending")));
  BOOST_TEST_REQUIRE(log->started == 40);
  std::set<std::string> seen;
  for (std::size_t i = 20; i < log->orders.size(); ++i) {
    const auto& o = log->orders[i];
    BOOST_TEST(o.to_json() == named_order(std::string(o.name()), "2", "Written").to_json());
    seen.insert(std::string(o.name()));
  }
  BOOST_TEST(seen.size() == names.size());
  BOOST_TEST(probe().unparks == names.size());
}

BOOST_FIXTURE_TEST_CASE(a_parked_order_deleted_or_stopped_is_gone_at_once, park_fixture) {
  send(event(event_type::added, order("1", 1)));
  advance(10s);
  BOOST_TEST_REQUIRE(probe().parked == 1u);
  send(event(event_type::deleted, order("1", 1)));
  auto p = probe();
  BOOST_TEST(p.live.empty());
  BOOST_TEST(p.retiring.empty());
  BOOST_TEST(p.parked == 0u);
  BOOST_TEST(p.retired == 1u);
  BOOST_TEST(forgotten->size() == 1u);  // the ControlPlane directory lets it go

  send(event(event_type::added, order("5", 1)));
  advance(10s);
  BOOST_TEST_REQUIRE(probe().parked == 1u);
  auto ok = ask<protocol::ok_atom>(h, protocol::stop_atom::value);
  BOOST_TEST(ok == protocol::ok_atom::value);
  BOOST_TEST(forgotten->size() == 1u);  // a stopped host's orders go with the host
}

// A kind with admission: the ControlPlane directory keeps a parked order in
// its fan-out for the host, whose control_plane_changed brings the actor
// back; parking and coming back tell the directory nothing, the deletion does.
BOOST_FIXTURE_TEST_CASE(a_control_plane_change_wakes_a_parked_order_and_its_deletion_is_told, park_fixture) {
  send(event(event_type::added, order("1", 1)));
  advance(10s);
  BOOST_TEST_REQUIRE(probe().parked == 1u);
  caf::anon_send(h, protocol::control_plane_changed{{"cp-ns", "cp"}, {alice}});
  run();
  BOOST_TEST(log->started == 2);
  BOOST_TEST(probe().parked == 0u);
  BOOST_TEST(probe().unparks == 1u);
  advance(10s);
  BOOST_TEST_REQUIRE(probe().parked == 1u);
  BOOST_TEST(forgotten->empty());
  send(event(event_type::deleted, order("1", 1)));
  BOOST_TEST_REQUIRE(forgotten->size() == 1u);
  BOOST_TEST(forgotten->front().to_string() == alice.to_string());
}

BOOST_AUTO_TEST_SUITE_END()
