// provisionVhost, sentence by sentence (rabbitmqvhost-reconciler.txt "Vhost
// provisioning", steps 1 to 6).
#include "actors/c5c3/rabbitmqvhost/provision.hpp"
#include "tests/c5c3/rabbitmqvhost_world.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;
using namespace std::chrono_literals;

namespace {

const std::string default_spec = R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"}})";

struct world {
  std::string spec = default_spec;
  std::string status = "{}";
  bool store_ready = true;
  vhost::topology_kinds_served served;
  std::optional<object> vhost = live_vhost();
  std::vector<object> users, permissions, secrets, named;
  time_point now = t0();
  vhost::vhost_order order;

  world& generation(std::int64_t gen, topo user = topo::ready, topo permission = topo::ready) {
    secrets.push_back(live_password(gen));
    users.push_back(live_user(gen, user));
    permissions.push_back(live_permission(gen, permission));
    return *this;
  }

  vhost::provision_plan plan() {
    order = vhost::make_vhost_order(vhost_order_object("tenant-a", "orders", spec, status), "");
    vhost::provision_snapshot s{&order,
                                "openstack",
                                "cp",
                                "openstack-rabbitmq",
                                {"SecretStore", "openbao-tenant-store", store_ready},
                                served,
                                vhost ? &*vhost : nullptr,
                                users,
                                permissions,
                                secrets,
                                named,
                                now,
                                counting_random()};
    return vhost::provision_vhost(s);
  }
};

std::string p(std::string_view tail) { return "openstack/orders-32606a5f-vhost-" + std::string(tail); }

void expect(const vhost::provision_plan& plan, bool status, std::string_view reason) {
  BOOST_TEST(plan.vhost_ready.type == "VhostReady");
  BOOST_TEST(plan.vhost_ready.is_true() == status);
  BOOST_TEST(plan.vhost_ready.reason == reason);
}

const std::string provisioned_v1 =
    "vhost \"orders-32606a5f\" and user \"orders-32606a5f-v1\" (generation 1) are provisioned on RabbitmqCluster "
    "openstack/openstack-rabbitmq";

}  // namespace

BOOST_AUTO_TEST_SUITE(rabbitmqvhost_provision)

BOOST_AUTO_TEST_CASE(step1_secret_store_not_ready) {
  world w;
  w.store_ready = false;
  auto plan = w.plan();
  expect(plan, false, "SecretStoreNotReady");
  BOOST_TEST(plan.vhost_ready.message ==
             "SecretStore \"openbao-tenant-store\" in namespace \"openstack\" is not ready; the password cannot be "
             "backed up to OpenBao");
  BOOST_TEST((plan.requeue == orders::requeue(10s)));
  BOOST_TEST(plan.writes.empty());
}

BOOST_AUTO_TEST_CASE(step2_the_vhost_cr) {
  struct row {
    const char* sentence;
    std::string spec;
    std::optional<object> vhost;
    bool served;
    std::vector<std::string> writes;
    std::string reason;
    std::string message;
    orders::requeue requeue;
  };
  auto foreign = make_object("rabbitmq.com/v1beta1", "Vhost", "openstack", "orders-32606a5f-vhost-vhost");
  const std::string delete_spec = R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"},"deletionPolicy":"Delete"})";
  const row rows[] = {
      // WaitingForVhost asks for no timed requeue: the Vhost is the order's
      // child, and its events wake the order (on_child_event).
      {"the Vhost CR <prefix>vhost is created when none is live, and its event wakes the order", default_spec,
       std::nullopt, true, {"create Vhost " + p("vhost")}, "WaitingForVhost",
       "Vhost " + p("vhost") + " is not Ready yet", std::nullopt},
      {"a changed policy reaches it (applied in the topology operator's spelling)", delete_spec, live_vhost("retain"),
       true, {"apply Vhost " + p("vhost")}, "WaitingForVhost", "Vhost " + p("vhost") + " is not Ready yet",
       std::nullopt},
      {"a cluster that serves no Vhost kind reads TopologyOperatorNotInstalled and comes back after 10 minutes",
       default_spec, std::nullopt, false, {}, "TopologyOperatorNotInstalled",
       "the cluster serves no vhosts.rabbitmq.com; install the RabbitMQ Messaging Topology Operator", 10min},
      {"a Vhost of that name the order did not create is refused with VhostError and no requeue", default_spec, foreign,
       true, {}, "VhostError",
       "refusing to adopt pre-existing Vhost " + p("vhost") + ": it was not created by this order", std::nullopt},
      {"FailedCreateOrUpdate reads VhostFailed with its message", default_spec, live_vhost("retain", topo::failed),
       true, {}, "VhostFailed", "the topology operator cannot create vhost \"orders-32606a5f\": nope", 10s},
      {"until the topology operator reports it Ready at its current generation the step reads WaitingForVhost",
       default_spec, live_vhost("retain", topo::pending), true, {}, "WaitingForVhost",
       "Vhost " + p("vhost") + " is not Ready yet", std::nullopt},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      world w;
      w.spec = r.spec;
      w.vhost = r.vhost;
      w.served.vhost = r.served;
      auto plan = w.plan();
      BOOST_TEST(describe(plan.writes) == r.writes, boost::test_tools::per_element());
      expect(plan, false, r.reason);
      BOOST_TEST(plan.vhost_ready.message == r.message);
      BOOST_TEST((plan.requeue == r.requeue));
      BOOST_TEST(plan.status.vhost.empty());
    }
  }
  world w;
  w.spec = delete_spec;
  auto plan = w.plan();
  BOOST_REQUIRE(plan.writes.size() == 1u);
  const object& body = plan.writes[0].body;
  BOOST_TEST(body.get_string({"spec", "deletionPolicy"}) == "delete");
  BOOST_TEST(body.get_string({"spec", "name"}) == "orders-32606a5f");
  BOOST_TEST(body.get_string({"spec", "rabbitmqClusterReference", "name"}) == "openstack-rabbitmq");
  BOOST_TEST(body.label("c5c3.io/rabbitmqvhost-cluster").has_value());
}

BOOST_AUTO_TEST_CASE(step3_the_user_and_permission_kinds_must_be_served) {
  world w;
  w.served.user = false;
  auto plan = w.plan();
  expect(plan, false, "TopologyOperatorNotInstalled");
  BOOST_TEST(plan.vhost_ready.message ==
             "the cluster serves no users.rabbitmq.com; install the RabbitMQ Messaging Topology Operator");
  BOOST_TEST((plan.requeue == orders::requeue(10min)));
}

BOOST_AUTO_TEST_CASE(step4_the_first_generation_step_by_step) {
  const std::string waiting =
      "User openstack/orders-32606a5f-vhost-user-v1 or Permission openstack/orders-32606a5f-vhost-permission-v1 of "
      "generation 1 is not Ready yet";
  BOOST_TEST_CONTEXT("the password Secret <prefix>password-v<N> is written first, with a 43-character password") {
    world w;
    auto plan = w.plan();
    BOOST_TEST(describe(plan.writes) == std::vector<std::string>{"create Secret " + p("password-v1")},
               boost::test_tools::per_element());
    const object& secret = plan.writes[0].body;
    BOOST_TEST(*orders::secret_value(secret, "username") == "orders-32606a5f-v1");
    BOOST_TEST(*orders::secret_value(secret, "password") == "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8");
    BOOST_TEST(*secret.label("rabbitmq.com/topology-operator") == "true");
    expect(plan, false, "WaitingForUser");
    BOOST_TEST(plan.vhost_ready.message == waiting);
    BOOST_TEST(plan.status.vhost == "orders-32606a5f");
    BOOST_TEST(plan.status.password_generation == 0);
    BOOST_TEST(!plan.live);
  }
  BOOST_TEST_CONTEXT("the User <prefix>user-v<N> imports it; no Permission before the User is Ready") {
    world w;
    w.secrets.push_back(live_password(1));
    auto plan = w.plan();
    BOOST_TEST(describe(plan.writes) == std::vector<std::string>{"create User " + p("user-v1")},
               boost::test_tools::per_element());
    BOOST_TEST(plan.writes[0].body.get_string({"spec", "importCredentialsSecret", "name"}) ==
               "orders-32606a5f-vhost-password-v1");
    expect(plan, false, "WaitingForUser");
  }
  BOOST_TEST_CONTEXT("a User that is not Ready yet: still no Permission") {
    world w;
    w.secrets.push_back(live_password(1));
    w.users.push_back(live_user(1, topo::pending));
    auto plan = w.plan();
    BOOST_TEST(plan.writes.empty());
    expect(plan, false, "WaitingForUser");
    BOOST_TEST_CONTEXT("with no timed requeue: the User's event wakes the order") BOOST_TEST(!plan.requeue);
  }
  BOOST_TEST_CONTEXT("the Permission grants .* three times on the vhost once the User is Ready") {
    world w;
    w.secrets.push_back(live_password(1));
    w.users.push_back(live_user(1));
    auto plan = w.plan();
    BOOST_TEST(describe(plan.writes) == std::vector<std::string>{"create Permission " + p("permission-v1")},
               boost::test_tools::per_element());
    BOOST_TEST(plan.writes[0].body.get_string({"spec", "user"}) == "orders-32606a5f-v1");
    BOOST_TEST(plan.writes[0].body.get_string({"spec", "vhost"}) == "orders-32606a5f");
    expect(plan, false, "WaitingForUser");
    BOOST_TEST(!plan.requeue);
  }
  BOOST_TEST_CONTEXT("a broker refusal still comes back after 10 s (the topology operator retries it)") {
    world w;
    w.generation(1, topo::failed, topo::ready);
    BOOST_TEST((w.plan().requeue == orders::requeue(10s)));
  }
  BOOST_TEST_CONTEXT("a broker refusal reads VhostFailed") {
    world w;
    w.generation(1, topo::failed, topo::ready);
    auto plan = w.plan();
    expect(plan, false, "VhostFailed");
    BOOST_TEST(plan.vhost_ready.message ==
               "the topology operator cannot create User openstack/orders-32606a5f-vhost-user-v1 of generation 1: nope");
  }
  BOOST_TEST_CONTEXT("once both are Ready status switches: passwordGeneration, username and lastRotation") {
    world w;
    w.generation(1);
    auto plan = w.plan();
    BOOST_TEST(plan.writes.empty());
    expect(plan, true, "VhostProvisioned");
    BOOST_TEST(plan.vhost_ready.message == provisioned_v1);
    BOOST_TEST(plan.status.password_generation == 1);
    BOOST_TEST(plan.status.username == "orders-32606a5f-v1");
    BOOST_TEST((plan.status.last_rotation == t0()));
    BOOST_TEST(plan.status.previous_password_generation == 0);
    BOOST_TEST(!plan.status.previous_password_delete_at);
    BOOST_TEST(plan.live);
    BOOST_TEST_CONTEXT("step 6: nextRotation is lastRotation plus the interval, and the step comes back then") {
      BOOST_TEST((plan.status.next_rotation == t0() + 720h));
      BOOST_TEST((plan.requeue == orders::requeue(720h)));
    }
  }
  BOOST_TEST_CONTEXT("a User of that name the order did not create is refused") {
    world w;
    w.secrets.push_back(live_password(1));
    w.named.push_back(make_object("rabbitmq.com/v1beta1", "User", "openstack", "orders-32606a5f-vhost-user-v1"));
    auto plan = w.plan();
    expect(plan, false, "VhostError");
    BOOST_TEST(plan.writes.empty());
  }
}

BOOST_AUTO_TEST_CASE(a_converged_pass_writes_nothing) {
  world w;
  w.status = live_status(1, "2026-11-30T00:00:00Z");
  w.generation(1);
  auto plan = w.plan();
  BOOST_TEST(plan.writes.empty());
  expect(plan, true, "VhostProvisioned");
  BOOST_TEST(plan.vhost_ready.message == provisioned_v1);
  BOOST_TEST((plan.requeue == orders::requeue(696h)));
  BOOST_TEST((plan.status.next_rotation == t0() + 696h));
}

BOOST_AUTO_TEST_CASE(vhost_desired_generation_table) {
  struct row {
    const char* sentence;
    std::string spec;
    std::string status;
    std::function<void(world&)> children;
    std::int64_t desired;
  };
  auto spec_gen = [](int g, std::string_view interval = "720h") {
    return fmt::format(
        R"({{"controlPlaneRef":{{"name":"cp","namespace":"openstack"}},"passwordGeneration":{},"rotation":{{"interval":"{}"}}}})",
        g, interval);
  };
  const std::string recent = "2026-11-30T00:00:00Z";
  const std::string overdue = "2026-10-01T00:00:00Z";
  const row rows[] = {
      {"the declared one before the first user is live", spec_gen(3), "{}", [](world&) {}, 3},
      {"the live one when nothing asks for a rotation", spec_gen(1), live_status(1, recent),
       [](world& w) { w.generation(1); }, 1},
      {"a higher generation is declared", spec_gen(2), live_status(1, recent), [](world& w) { w.generation(1); }, 2},
      {"a declared generation far above rotates straight to it", spec_gen(5), live_status(1, recent),
       [](world& w) { w.generation(1); }, 5},
      {"the schedule is due", spec_gen(1), live_status(1, overdue), [](world& w) { w.generation(1); }, 2},
      {"0s turns the schedule off", spec_gen(1, "0s"), live_status(1, overdue), [](world& w) { w.generation(1); }, 1},
      {"the live generation lost its password", spec_gen(1), live_status(1, recent),
       [](world& w) {
         w.users.push_back(live_user(1));
         w.permissions.push_back(live_permission(1));
       },
       2},
      {"an empty password is a lost one", spec_gen(1), live_status(1, recent),
       [](world& w) {
         w.generation(1);
         w.secrets[0] = labelled(make_secret("openstack", names().password_secret(1), {{"password", ""}}), order_ref_mgmt());
       },
       2},
      {"the live generation lost its User", spec_gen(1), live_status(1, recent),
       [](world& w) {
         w.secrets.push_back(live_password(1));
         w.permissions.push_back(live_permission(1));
       },
       2},
      {"the live generation lost its Permission", spec_gen(1), live_status(1, recent),
       [](world& w) {
         w.secrets.push_back(live_password(1));
         w.users.push_back(live_user(1));
       },
       2},
      {"a User above the live generation is a rotation in flight", spec_gen(1), live_status(1, recent),
       [](world& w) {
         w.generation(1);
         w.users.push_back(live_user(2, topo::pending));
       },
       2},
      {"a refused successor stays in flight until a higher generation is declared", spec_gen(1),
       live_status(1, recent),
       [](world& w) {
         w.generation(1);
         w.users.push_back(live_user(2, topo::failed));
       },
       2},
      {"a higher declared generation replaces a refused successor", spec_gen(3), live_status(1, recent),
       [](world& w) {
         w.generation(1);
         w.users.push_back(live_user(2, topo::failed));
       },
       3},
      {"a restart re-reads status: a rotation that happened is not repeated", spec_gen(1),
       live_status(2, recent),
       [](world& w) { w.generation(2); }, 2},
      {"no rotation starts while a grace period runs", spec_gen(3), live_status(2, overdue, 1, "2026-12-01T10:00:00Z"),
       [](world& w) { w.generation(1).generation(2); }, 2},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      world w;
      w.spec = r.spec;
      w.status = r.status;
      r.children(w);
      w.order = vhost::make_vhost_order(vhost_order_object("tenant-a", "orders", w.spec, w.status), "");
      vhost::provision_snapshot s{&w.order, "openstack", "cp", "openstack-rabbitmq", {}, {}, nullptr,
                                  w.users, w.permissions, w.secrets, {}, w.now, counting_random()};
      auto children = vhost::key_generations(w.order, s);
      BOOST_TEST(vhost::vhost_desired_generation(w.order, children, w.now) == r.desired);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_later_generation_keeps_vhost_ready_at_vhost_provisioned) {
  world w;
  w.spec = R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"},"passwordGeneration":2})";
  w.status = live_status(1);
  w.generation(1);
  auto plan = w.plan();
  BOOST_TEST(describe(plan.writes) == std::vector<std::string>{"create Secret " + p("password-v2")},
             boost::test_tools::per_element());
  expect(plan, true, "VhostProvisioned");
  BOOST_TEST(plan.vhost_ready.message == provisioned_v1 + "; generation 2 is being created");
  BOOST_TEST(plan.status.password_generation == 1);
  BOOST_TEST(plan.live);
}

BOOST_AUTO_TEST_CASE(a_rotation_switches_status_and_starts_the_grace_period) {
  world w;
  w.spec = R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"},"passwordGeneration":2})";
  w.status = live_status(1);
  w.generation(1).generation(2);
  auto plan = w.plan();
  BOOST_TEST(plan.writes.empty());
  expect(plan, true, "VhostProvisioned");
  BOOST_TEST(plan.status.password_generation == 2);
  BOOST_TEST(plan.status.username == "orders-32606a5f-v2");
  BOOST_TEST(plan.status.previous_password_generation == 1);
  BOOST_TEST((plan.status.previous_password_delete_at == t0() + 24h));
  BOOST_TEST((plan.status.last_rotation == t0()));
  BOOST_TEST_CONTEXT("the step comes back at the earlier of nextRotation and the end of grace") {
    BOOST_TEST((plan.requeue == orders::requeue(24h)));
  }
}

BOOST_AUTO_TEST_CASE(every_generation_neither_live_wanted_nor_in_grace_is_deleted) {
  world w;
  w.status = live_status(3, "2026-11-30T00:00:00Z", 2, "2026-12-01T10:00:00Z");
  w.spec = R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"},"passwordGeneration":3})";
  w.generation(1).generation(2).generation(3);
  w.users[0] = terminating(w.users[0]);  // user-v1 is already being deleted
  w.secrets.push_back(make_secret("openstack", names().password_secret(6), {}));  // not the order's
  auto plan = w.plan();
  BOOST_TEST(describe(plan.writes) ==
                 (std::vector<std::string>{"delete Permission " + p("permission-v1"), "delete Secret " + p("password-v1")}),
             boost::test_tools::per_element());
  expect(plan, true, "VhostProvisioned");
}

BOOST_AUTO_TEST_CASE(step5_the_grace_sweep) {
  const std::string status_in_grace = live_status(2, "2026-11-30T00:00:00Z", 1, "2026-11-30T12:00:00Z");
  const std::string spec2 = R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"},"passwordGeneration":2})";
  BOOST_TEST_CONTEXT("once previousPasswordDeleteAt has passed, the superseded Permission and User are deleted") {
    world w;
    w.spec = spec2;
    w.status = status_in_grace;
    w.generation(1).generation(2);
    auto plan = w.plan();
    BOOST_TEST(describe(plan.writes) ==
                   (std::vector<std::string>{"delete Permission " + p("permission-v1"), "delete User " + p("user-v1")}),
               boost::test_tools::per_element());
    BOOST_TEST(plan.status.previous_password_generation == 1);
    BOOST_TEST(plan.status.previous_password_delete_at.has_value());
  }
  BOOST_TEST_CONTEXT("a User already being deleted is not deleted again") {
    world w;
    w.spec = spec2;
    w.status = status_in_grace;
    w.generation(2);
    w.users.push_back(terminating(live_user(1)));
    w.secrets.push_back(live_password(1));
    auto plan = w.plan();
    BOOST_TEST(plan.writes.empty());
    BOOST_TEST(plan.status.previous_password_generation == 1);
  }
  BOOST_TEST_CONTEXT("on the pass that no longer lists the User, its password Secret goes and previous* are cleared") {
    world w;
    w.spec = spec2;
    w.status = status_in_grace;
    w.generation(2);
    w.secrets.push_back(live_password(1));
    auto plan = w.plan();
    BOOST_TEST(describe(plan.writes) == std::vector<std::string>{"delete Secret " + p("password-v1")},
               boost::test_tools::per_element());
    BOOST_TEST(plan.status.previous_password_generation == 0);
    BOOST_TEST(!plan.status.previous_password_delete_at);
  }
  BOOST_TEST_CONTEXT("before the end of grace nothing is swept and the step comes back at its end") {
    world w;
    w.spec = spec2;
    w.status = live_status(2, "2026-11-30T00:00:00Z", 1, "2026-12-01T06:00:00Z");
    w.generation(1).generation(2);
    auto plan = w.plan();
    BOOST_TEST(plan.writes.empty());
    BOOST_TEST((plan.requeue == orders::requeue(6h)));
  }
}

BOOST_AUTO_TEST_CASE(step6_with_the_schedule_off_next_rotation_is_absent) {
  world w;
  w.spec = R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"},"rotation":{"interval":"0s"}})";
  w.status = live_status(1, "2026-01-01T00:00:00Z");
  w.generation(1);
  auto plan = w.plan();
  BOOST_TEST(plan.writes.empty());
  BOOST_TEST(!plan.status.next_rotation);
  BOOST_TEST(!plan.requeue);
}

BOOST_AUTO_TEST_SUITE_END()
