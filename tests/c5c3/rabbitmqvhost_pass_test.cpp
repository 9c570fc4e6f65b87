// One pass of a RabbitMQVhost order (rabbitmqvhost-reconciler.txt
// "Reconciliation Flow"; apis.md 1.3 "Reconcile flow and requeues"): the
// admission gates and the freeze, the finalizer, the messaging gate, the legs,
// the aggregate Ready and the pass result.
#include "actors/c5c3/rabbitmqvhost/pass.hpp"
#include "tests/c5c3/rabbitmqvhost_world.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;
using namespace std::chrono_literals;

namespace {

const std::string spec = R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"}})";

object with_finalizer(object o) {
  auto b = o.edit();
  b.add_finalizer(vhost::finalizer);
  return std::move(b).freeze();
}

object frozen_control_plane() {
  auto b = control_plane().edit();
  b.remove({"spec", "namespaceAssignments"});
  return std::move(b).freeze();
}

// A converged order on the management cluster, and everything it sees.
struct world {
  std::string cluster;
  object order = with_finalizer(vhost_order_object("tenant-a", "orders", spec, live_status(1)));
  std::optional<object> cp = control_plane();
  std::optional<object> rmq = rabbitmq_cluster();
  std::optional<object> default_user = default_user_secret();
  std::vector<object> vhosts{live_vhost()};
  std::vector<object> users{live_user(1)};
  std::vector<object> permissions{live_permission(1)};
  std::vector<object> secrets{live_password(1), source_secret()};
  std::vector<object> push_secrets{fresh_push()};
  std::optional<object> delivered = delivered_secret();

  vhost::pass_plan plan() const {
    vhost::pass_snapshot s;
    s.order = &order;
    s.cluster = cluster;
    s.control_plane = cp ? &*cp : nullptr;
    s.rabbitmq_cluster = rmq ? &*rmq : nullptr;
    s.default_user_secret = default_user ? &*default_user : nullptr;
    s.store = {"SecretStore", "openbao-tenant-store", true};
    s.vhosts = vhosts;
    s.users = users;
    s.permissions = permissions;
    s.secrets = secrets;
    s.push_secrets = push_secrets;
    s.delivered_secret = delivered ? &*delivered : nullptr;
    s.now = t0();
    s.random = counting_random();
    return vhost::plan_pass(s);
  }
};

const k8s::condition* find(const std::vector<k8s::condition>& conds, std::string_view type) {
  for (auto& c : conds)
    if (c.type == type) return &c;
  return nullptr;
}

void expect_both(const vhost::pass_plan& plan, std::string_view reason) {
  for (auto type : {"VhostReady", "DeliveryReady"}) {
    const auto* c = find(plan.conditions, type);
    BOOST_REQUIRE(c);
    BOOST_TEST(!c->is_true());
    BOOST_TEST(c->reason == reason);
  }
  const auto* ready = find(plan.conditions, "Ready");
  BOOST_REQUIRE(ready);
  BOOST_TEST(ready->reason == "NotAllReady");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rabbitmqvhost_pass)

BOOST_AUTO_TEST_CASE(admission_and_the_freeze) {
  struct row {
    const char* sentence;
    std::string cluster;
    std::optional<object> cp;
    std::string reason;
    orders::requeue requeue;
  };
  const row rows[] = {
      {"ControlPlaneNotFound (10 s)", "", std::nullopt, "ControlPlaneNotFound", 10s},
      {"NamespaceNotAssigned on a target cluster when the ControlPlane is missing (1 m)", "edge-1", std::nullopt,
       "NamespaceNotAssigned", 1min},
      {"the freeze: NamespaceNotAssigned (1 m)", "", frozen_control_plane(), "NamespaceNotAssigned", 1min},
      {"ClusterNameTooLong (no requeue)", std::string(64, 'c'), control_plane(), "ClusterNameTooLong", std::nullopt},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      world w;
      w.cluster = r.cluster;
      w.cp = r.cp;
      // Everything in the ControlPlane's namespace is missing: a refused pass
      // must not react to it.
      w.vhosts.clear();
      w.users.clear();
      w.secrets.clear();
      w.push_secrets.clear();
      auto plan = w.plan();
      BOOST_TEST((plan.stage == vhost::pass_stage::refused_admission));
      BOOST_TEST_CONTEXT("a refused pass touches nothing in the ControlPlane's namespace") {
        BOOST_TEST(plan.writes.empty());
      }
      expect_both(plan, r.reason);
      BOOST_TEST((plan.requeue == r.requeue));
      BOOST_TEST(!plan.add_finalizer);
      BOOST_TEST(plan.status_changed);
      BOOST_TEST(plan.status.observed_generation == 1);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_finalizer_is_installed_only_past_admission) {
  world w;
  w.order = vhost_order_object("tenant-a", "orders", spec);
  auto plan = w.plan();
  BOOST_TEST((plan.stage == vhost::pass_stage::add_finalizer));
  BOOST_TEST(plan.add_finalizer);
  BOOST_TEST(plan.writes.empty());
  w.cp = frozen_control_plane();
  BOOST_TEST(!w.plan().add_finalizer);
}

BOOST_AUTO_TEST_CASE(the_messaging_gate_writes_both_sub_conditions) {
  struct row {
    const char* sentence;
    std::function<void(world&)> setup;
    std::string reason;
    orders::requeue requeue;
  };
  const row rows[] = {
      {"a refusal only a ControlPlane edit lifts turns into the 10-minute refresh",
       [](world& w) { w.cp = control_plane("", false); }, "MessagingNotDeclared", 10min},
      {"MessagingNotManaged: the same refresh", [](world& w) { w.cp = control_plane("", true, false); },
       "MessagingNotManaged", 10min},
      {"WaitingForMessagingCredentials comes back after 10 s", [](world& w) { w.default_user.reset(); },
       "WaitingForMessagingCredentials", 10s},
      {"WaitingForMessaging comes back after 10 s", [](world& w) { w.rmq = rabbitmq_cluster(false); },
       "WaitingForMessaging", 10s},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      world w;
      r.setup(w);
      auto plan = w.plan();
      BOOST_TEST((plan.stage == vhost::pass_stage::refused_gate));
      BOOST_TEST(plan.writes.empty());
      expect_both(plan, r.reason);
      BOOST_TEST((plan.requeue == r.requeue));
    }
  }
}

BOOST_AUTO_TEST_CASE(without_a_live_user_delivery_is_skipped_with_waiting_for_password) {
  world w;
  w.order = with_finalizer(vhost_order_object("tenant-a", "orders", spec));
  w.vhosts.clear();
  w.users.clear();
  w.permissions.clear();
  w.secrets.clear();
  w.push_secrets.clear();
  w.delivered.reset();
  auto plan = w.plan();
  BOOST_TEST((plan.stage == vhost::pass_stage::legs));
  BOOST_TEST(describe(plan.writes) == std::vector<std::string>{"create Vhost openstack/orders-32606a5f-vhost-vhost"},
             boost::test_tools::per_element());
  BOOST_TEST(find(plan.conditions, "VhostReady")->reason == "WaitingForVhost");
  BOOST_TEST(find(plan.conditions, "DeliveryReady")->reason == "WaitingForPassword");
  // The Vhost's events wake the order; the scaffold's refresh is the backstop.
  BOOST_TEST((plan.requeue == orders::requeue(10min)));
}

BOOST_AUTO_TEST_CASE(a_converged_order) {
  BOOST_TEST_CONTEXT("on the management cluster it writes nothing and waits for its timer or an event") {
    world w;
    auto plan = w.plan();
    BOOST_TEST(plan.writes.empty());
    BOOST_TEST(find(plan.conditions, "VhostReady")->reason == "VhostProvisioned");
    BOOST_TEST(find(plan.conditions, "DeliveryReady")->reason == "Delivered");
    BOOST_TEST(find(plan.conditions, "Ready")->is_true());
    BOOST_TEST(find(plan.conditions, "Ready")->reason == "AllReady");
    BOOST_TEST((plan.requeue == orders::requeue(696h)));
  }
  BOOST_TEST_CONTEXT("with the schedule off it waits for an event only") {
    world w;
    w.order = with_finalizer(vhost_order_object(
        "tenant-a", "orders", R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"},"rotation":{"interval":"0s"}})",
        live_status(1)));
    auto plan = w.plan();
    BOOST_TEST(plan.writes.empty());
    BOOST_TEST(!plan.requeue);
  }
  BOOST_TEST_CONTEXT("a second pass over the written status changes nothing") {
    world w;
    auto first = w.plan();
    auto b = w.order.edit();
    vhost::write_status(b, first.status);
    k8s::write_conditions(b, first.conditions);
    w.order = std::move(b).freeze();
    auto second = w.plan();
    BOOST_TEST(!second.status_changed);
    BOOST_TEST(second.writes.empty());
  }
}

BOOST_AUTO_TEST_CASE(a_deleting_order_tears_down_without_consulting_the_assignment) {
  world w;
  w.order = terminating(w.order);
  w.cp = frozen_control_plane();
  auto plan = w.plan();
  BOOST_TEST((plan.stage == vhost::pass_stage::teardown));
  BOOST_TEST(plan.writes.size() == 7u);  // PushSecret, Permission, User, Vhost, password, source, delivered
  BOOST_TEST(!plan.release_finalizer);
  BOOST_TEST((plan.requeue == orders::requeue(10s)));
  BOOST_TEST_CONTEXT("items listed without apiVersion and kind are deleted by kind") {
    world bare = w;
    for (auto& u : bare.users) {
      auto b = u.edit();
      b.remove({"apiVersion"});
      b.remove({"kind"});
      u = std::move(b).freeze();
    }
    auto p = bare.plan();
    BOOST_TEST(p.writes[2].describe() == "delete User openstack/orders-32606a5f-vhost-user-v1");
  }
  w.cp.reset();
  auto gone = w.plan();
  BOOST_TEST(gone.release_finalizer);
  BOOST_TEST(gone.writes.size() == 7u);
}

BOOST_AUTO_TEST_SUITE_END()
