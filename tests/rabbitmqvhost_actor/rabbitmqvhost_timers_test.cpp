// The rotation and grace timers of the RabbitMQVhost order actor under CAF's
// test coordinator with virtual time (issue 7: "a rotation fires when it is
// due, not at the next refresh"; "timers re-derived from status, no double
// rotation"). The actor's wall clock is t0 plus the virtual time elapsed.
// Plus the pass's I/O paths against the fake cluster: teardown with the
// ControlPlane gone, an unserved topology kind, a foreign Vhost met on create,
// a Conflict on the status write.
#include "actors/c5c3/rabbitmqvhost/kind.hpp"
#include "actors/c5c3/rabbitmqvhost/spec.hpp"
#include "actors/runtime/order_actor.hpp"
#include "protocol/timer_relay.hpp"
#include "tests/rabbitmqvhost_actor/fake_world.hpp"
#include "tests/runtime/coordinator_fixture.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>

namespace c5c3::testing {
namespace {

using namespace std::chrono_literals;
namespace vh = c5c3::rabbitmqvhost;

const std::string spec =
    R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"},"rotation":{"interval":"1h","gracePeriod":"10m"}})";

k8s::object secret_store() {
  auto b = test::make_object("external-secrets.io/v1", "SecretStore", "openstack", "openbao-tenant-store").edit();
  return test::with_condition(std::move(b).freeze(), "Ready", true);
}

// The order metrics' registry outlives the actor system (a base destroyed
// after coordinator_fixture): the actors' closures drop their order last.
struct registry_holder {
  runtime::metrics::registry registry;
};

struct timers_fixture : registry_holder, coordinator_fixture {
  std::shared_ptr<fake_store> store = std::make_shared<fake_store>();
  caf::actor cluster, directory, control_planes, actor;
  caf::actor_clock::time_point start;
  const protocol::order_key key{"", "tenant-a", "orders"};
  // The order metrics of the actors this fixture spawns (a private registry,
  // the actors' virtual wall clock).
  std::shared_ptr<runtime::order_metrics> orders;

  timers_fixture() {
    for (auto o : {test::control_plane(), test::rabbitmq_cluster(), test::default_user_secret(), secret_store(),
                   test::vhost_order_object("tenant-a", "orders", spec)})
      fake_store_put(*store, o, false);
    store->created.clear();
    cluster = keep(sys.spawn(fake_cluster, store));
    directory = keep(sys.spawn(fake_directory, cluster));
    control_planes = keep(sys.spawn(fake_control_planes, store));
    start = now();
    orders = runtime::order_metrics::make(registry, "rabbitmqvhost", [this] { return wall(now()); });
  }

  std::chrono::system_clock::time_point wall(caf::actor_clock::time_point t) const {
    return test::t0() + std::chrono::duration_cast<std::chrono::system_clock::duration>(t - start);
  }

  // One series' value on the registry's exposition (-1: absent).
  double metric(const std::string& series) const {
    auto text = registry.render();
    auto pos = text.find("\n" + series + " ");
    return pos == std::string::npos ? -1 : std::stod(text.substr(pos + series.size() + 2));
  }

  // A fresh order actor, as the host spawns one on the informer's add
  // (`host`, `park_after`: whom it asks to park it, and when).
  void spawn_actor(caf::actor host = {}, caf::timespan park_after = {}) {
    vh::pass_deps deps;
    deps.clusters = directory;
    deps.control_planes = control_planes;
    deps.random = test::counting_random();
    deps.orders = orders;
    runtime::order_actor_config cfg;
    cfg.key = key;
    cfg.pass = vh::make_order_pass(deps);
    cfg.host = host.address();
    cfg.options.park_after = park_after;
    auto base = test::t0();
    auto origin = start;
    cfg.options.wall_clock = [base, origin](caf::actor_clock::time_point t) {
      return base + std::chrono::duration_cast<std::chrono::system_clock::duration>(t - origin);
    };
    actor = keep(runtime::spawn_order_actor(sys, std::move(cfg)));
    store->order_actor = actor;
    self->send(actor, protocol::order_update{order(), true});
    run();
  }

  void kill_actor() {
    caf::anon_send_exit(actor, caf::exit_reason::user_shutdown);
    run();
    store->order_actor = nullptr;
  }

  k8s::object order() const { return *store->get("RabbitMQVhost", "tenant-a", "orders"); }
  vh::vhost_status status() const { return vh::read_status(order()); }
  protocol::order_probe probe() { return ask<protocol::order_probe>(actor, protocol::probe_atom::value); }
  bool armed(const std::string& name) {
    auto t = probe().armed_timers;
    return std::find(t.begin(), t.end(), name) != t.end();
  }
  std::size_t users() const {
    std::size_t n = 0;
    for (auto& [k, o] : store->objects) n += std::get<0>(k) == "User";
    return n;
  }
  std::size_t user_creations() const {
    return static_cast<std::size_t>(std::count_if(store->created.begin(), store->created.end(),
                                                  [](const std::string& c) { return c.rfind("User/", 0) == 0; }));
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(rabbitmqvhost_actor_timers)

BOOST_FIXTURE_TEST_CASE(the_rotation_fires_when_due_and_the_grace_sweep_when_it_ends, timers_fixture) {
  spawn_actor();
  BOOST_TEST_REQUIRE(order().find_condition("Ready").has_value());
  BOOST_TEST_REQUIRE(order().find_condition("Ready")->is_true(), order().find_condition("VhostReady")->reason);
  BOOST_TEST(status().password_generation == 1);
  BOOST_TEST_REQUIRE(status().next_rotation.has_value());
  BOOST_TEST((*status().next_rotation == test::t0() + 1h));
  BOOST_TEST(armed("rotation"));
  BOOST_TEST(!armed("grace"));

  advance(59min);
  BOOST_TEST_CONTEXT("not before it is due") {
    BOOST_TEST(status().password_generation == 1);
    BOOST_TEST(user_creations() == 1u);
  }

  advance(1min + 2s);
  BOOST_TEST_CONTEXT("the rotation ran when due: generation 2 live, generation 1 kept for the grace period") {
    BOOST_TEST(status().password_generation == 2);
    BOOST_TEST(status().previous_password_generation == 1);
    BOOST_TEST_REQUIRE(status().previous_password_delete_at.has_value());
    BOOST_TEST(users() == 2u);
    BOOST_TEST(armed("grace"));
    BOOST_TEST(armed("rotation"));
  }

  advance(10min + 2s);
  BOOST_TEST_CONTEXT("the grace sweep ran when the period ended") {
    BOOST_TEST(status().password_generation == 2);
    BOOST_TEST(status().previous_password_generation == 0);
    BOOST_TEST(!status().previous_password_delete_at.has_value());
    BOOST_TEST(users() == 1u);
    BOOST_TEST(store->get("User", "openstack", vh::vhost_names(vh::make_order_ref("orders", "tenant-a", "")).user(1)) ==
               nullptr);
    BOOST_TEST(!armed("grace"));
    BOOST_TEST(user_creations() == 2u);
  }
}

// A kind with admission parks like any other: its admission request names
// its host, for which the ControlPlane directory keeps it in the fan-out
// once the actor is gone (runner/sense.cpp finish).
BOOST_FIXTURE_TEST_CASE(an_order_with_admission_names_its_host_and_asks_to_be_parked, timers_fixture) {
  auto asked = std::make_shared<int>(0);
  auto order_actor = std::make_shared<caf::actor>();
  // A host that passes the actor's ticks on (protocol::timer_relay) and
  // counts its requests to park, refusing them. With an argument: CAF 0.17
  // spawning a function without one trips UBSan.
  auto host = keep(sys.spawn(
      [](caf::event_based_actor* self, std::shared_ptr<int> n, std::shared_ptr<caf::actor> a) -> caf::behavior {
        return {[n](protocol::park_atom, const protocol::order_key&, std::uint64_t) {
                  ++*n;
                  return false;
                },
                [self, a](const protocol::timer_relay& t) { self->send(*a, protocol::timer_tick{t.at}); }};
      },
      asked, order_actor));
  spawn_actor(host, 10s);
  *order_actor = actor;
  BOOST_TEST_REQUIRE(order().find_condition("Ready")->is_true());
  BOOST_TEST_REQUIRE(!store->admission_hosts.empty());
  for (const auto& h : store->admission_hosts) BOOST_TEST((h == host.address()));
  advance(5min);
  BOOST_TEST(*asked >= 1);
  BOOST_TEST(probe().phase == static_cast<std::uint8_t>(protocol::order_phase::idle));  // refused: it stays
}

BOOST_FIXTURE_TEST_CASE(the_order_metrics_move_as_the_order_gets_ready_rotates_and_goes, timers_fixture) {
  const std::string ready = R"(c5c3_orders{controller="rabbitmqvhost",ready="True",reason="AllReady"})";
  const std::string lag_count = R"(c5c3_rotation_lag_seconds_count{controller="rabbitmqvhost"})";
  const std::string lag_sum = R"(c5c3_rotation_lag_seconds_sum{controller="rabbitmqvhost"})";
  const std::string overdue = R"(c5c3_rotation_overdue_seconds{controller="rabbitmqvhost"})";
  BOOST_TEST(metric(ready) == -1);
  spawn_actor();
  BOOST_TEST_REQUIRE(order().find_condition("Ready")->is_true());
  BOOST_TEST_CONTEXT("Ready: counted under its reason; the rotation due in an hour, none run yet") {
    BOOST_TEST(metric(ready) == 1);
    BOOST_TEST(metric(lag_count) == 0);
    BOOST_TEST(metric(overdue) == 0);
  }

  advance(1h + 2s);
  BOOST_TEST_REQUIRE(status().password_generation == 2);
  BOOST_TEST_CONTEXT("the rotation ran when its timer fired, a second or two after it was due") {
    BOOST_TEST(metric(lag_count) == 1);
    BOOST_TEST(metric(lag_sum) >= 0);
    BOOST_TEST(metric(lag_sum) <= 3);
    BOOST_TEST(metric(overdue) == 0);
    BOOST_TEST(metric(ready) == 1);
  }

  kill_actor();
  BOOST_TEST_CONTEXT("the actor gone: the order counts no more") {
    BOOST_TEST(metric(ready) == 0);
    BOOST_TEST(metric(overdue) == -1);
  }
}

BOOST_FIXTURE_TEST_CASE(a_restarted_actor_rederives_its_timers_from_status_without_rotating_again, timers_fixture) {
  spawn_actor();
  advance(1h + 2s);
  BOOST_TEST_REQUIRE(status().password_generation == 2);
  const auto before = status();
  const auto writes = store->writes;

  kill_actor();
  advance(1min);
  spawn_actor();  // the informer's add of the same order
  BOOST_TEST_CONTEXT("the fresh actor's first pass changes nothing and re-arms both timers from status") {
    BOOST_TEST((status() == before));
    BOOST_TEST(store->writes == writes);
    BOOST_TEST(user_creations() == 2u);
    BOOST_TEST(armed("rotation"));
    BOOST_TEST(armed("grace"));
  }

  advance(9min + 2s);
  BOOST_TEST_CONTEXT("the grace timer it re-armed ends the grace period, once") {
    BOOST_TEST(status().previous_password_generation == 0);
    BOOST_TEST(status().password_generation == 2);
    BOOST_TEST(users() == 1u);
    BOOST_TEST(user_creations() == 2u);
  }

  advance(50min);
  BOOST_TEST_CONTEXT("the next rotation is due an interval after the last one, not earlier") {
    BOOST_TEST(status().password_generation == 3);
    BOOST_TEST(user_creations() == 3u);
  }
}

BOOST_FIXTURE_TEST_CASE(with_the_control_plane_gone_a_deleted_order_tears_down_at_once, timers_fixture) {
  spawn_actor();
  BOOST_TEST_REQUIRE(order().has_finalizer(vh::finalizer));
  BOOST_TEST_REQUIRE(users() == 1u);
  store->objects.erase({"ControlPlane", "openstack", "cp"});
  auto deleting = test::terminating(order());
  store->objects[{"RabbitMQVhost", "tenant-a", "orders"}] = deleting;
  self->send(actor, protocol::order_update{deleting, true});
  run();
  BOOST_TEST(!order().has_finalizer(vh::finalizer));
  for (auto kind : {"Vhost", "User", "Permission", "PushSecret"}) {
    BOOST_TEST_CONTEXT(kind) {
      std::size_t n = 0;
      for (auto& [k, o] : store->objects) n += std::get<0>(k) == kind;
      BOOST_TEST(n == 0u);
    }
  }
  BOOST_TEST(store->get("Secret", "tenant-a", "orders-credentials") == nullptr);
  BOOST_TEST(store->get("Secret", "openstack", "orders-32606a5f-vhost-source") == nullptr);
  BOOST_TEST(probe().last_error.empty(), probe().last_error);
}

BOOST_FIXTURE_TEST_CASE(a_cluster_serving_no_vhost_kind_reads_topology_operator_not_installed, timers_fixture) {
  store->unserved = {"Vhost", "User", "Permission"};
  spawn_actor();
  auto c = order().find_condition("VhostReady");
  BOOST_TEST_REQUIRE(c.has_value());
  BOOST_TEST(c->reason == "TopologyOperatorNotInstalled");
  BOOST_TEST(probe().last_error.empty(), probe().last_error);
}

BOOST_FIXTURE_TEST_CASE(a_foreign_vhost_met_on_create_is_read_by_name_and_refused, timers_fixture) {
  auto names = vh::vhost_names(vh::make_order_ref("orders", "tenant-a", ""));
  // Not labelled for the order: the label-filtered list does not show it,
  // the create meets AlreadyExists, the read by name shows it foreign.
  fake_store_put(*store, test::make_object("rabbitmq.com/v1beta1", "Vhost", "openstack", names.vhost_child()), false);
  spawn_actor();
  auto c = order().find_condition("VhostReady");
  BOOST_TEST_REQUIRE(c.has_value());
  BOOST_TEST(c->reason == "VhostError");
  BOOST_TEST(c->message.find("refusing to adopt") != std::string::npos, c->message);
  BOOST_TEST(!store->get("Vhost", "openstack", names.vhost_child())->label(vh::label_name).has_value());
}

BOOST_FIXTURE_TEST_CASE(a_conflict_on_the_status_write_is_a_requeue_not_an_error, timers_fixture) {
  store->status_conflicts = 1;
  spawn_actor();
  auto p = probe();
  BOOST_TEST(p.last_error.empty(), p.last_error);
  // The rate-limited requeue runs the pass again, and it writes the status.
  advance(1s);
  BOOST_TEST_REQUIRE(order().find_condition("Ready").has_value());
  BOOST_TEST(order().find_condition("Ready")->is_true());
  BOOST_TEST(store->status_conflicts == 0);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
