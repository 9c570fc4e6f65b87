// The KeystoneUser steps (apis.md 1.4b, step by step): provisionUser 1-7,
// deliverCredentials 1-7, and the deletion (holds, then the sweep in the
// document's order). The pass is in keystoneuser_pass_test.cpp.
#include "actors/c5c3/keystoneuser/delivery.hpp"
#include "actors/c5c3/keystoneuser/provision.hpp"
#include "actors/c5c3/keystoneuser/teardown.hpp"
#include "actors/c5c3/korc/children.hpp"
#include "actors/c5c3/korc/clouds_yaml.hpp"
#include "actors/c5c3/korc/unlatch.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"
#include "tests/c5c3/keystone_world.hpp"

#include <boost/test/unit_test.hpp>

#include <fmt/format.h>

using namespace c5c3::test;
using namespace std::chrono_literals;
namespace ku = c5c3::c5c3::keystoneuser;
namespace korc = c5c3::c5c3::korc;

namespace {

const std::string cp_ns = "openstack";


struct user_fixture {
  object order = keystone_user_object();
  object cp = keystone_control_plane();
  ku::user_order o = ku::make_user_order(order, "");
  ku::user_names n{o.id.ref};
  orders::secret_store_state store{"SecretStore", "openbao-tenant-store", true};
  std::vector<object> users;
  std::vector<object> secrets;
  std::vector<c5c3::runtime::write_failure> failures;

  object mine(const object& obj) const { return labelled(obj, o.id.ref); }
  object korc_user(std::string_view name) const {
    return mine(make_object("openstack.k-orc.cloud/v1alpha1", "User", cp_ns, name));
  }
  // The probe and the managed User as the order writes them.
  object probe() const {
    return mine(korc::unmanaged_import("User", n.probe(), cp_ns, "alice", "cp-domain-default",
                                       korc::admin_password_cloud(cp)));
  }
  object managed(std::int64_t gen, bool available = true, std::int64_t applied = -1) const {
    auto u = mine(korc::managed_user(n.user(), cp_ns, "alice", "cp-domain-default", n.password(gen),
                                     korc::admin_password_cloud(cp)));
    if (!available) return korc_pending(u);
    return korc_resource(korc_available(u, "user-id-1"), "appliedPasswordRef",
                         n.password(applied < 0 ? gen : applied));
  }
  object password(std::int64_t gen, std::string_view value = "pw-generated") const {
    return mine(make_secret(cp_ns, n.password(gen), {{"password", std::string(value)}}));
  }
  ku::provision_plan provision() const {
    ku::provision_snapshot s{&o, &cp, store, true, users, secrets, {}, failures, t0(), counting_random()};
    return ku::provision_user(s);
  }
};

void expect(const k8s::condition& c, bool status, std::string_view reason) {
  BOOST_TEST(c.is_true() == status);
  BOOST_TEST(c.reason == reason, c.reason << ": " << c.message);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(keystoneuser_provision)

// 1. Reserved name, folded: ServiceAccountCollision, no requeue.
BOOST_FIXTURE_TEST_CASE(reserved_names_are_never_provisioned, user_fixture) {
  for (auto name : {"admin", "ADMÍN", "Nova", "hypervisor-operator"}) {
    BOOST_TEST_CONTEXT(name) {
      order = keystone_user_object("alice", fmt::format(R"({{"controlPlaneRef":{{"name":"cp","namespace":"openstack"}},"userName":"{}"}})", name));
      o = ku::make_user_order(order, "");
      auto p = provision();
      expect(p.user_ready, false, "ServiceAccountCollision");
      BOOST_TEST(p.user_ready.message.find("ControlPlane openstack/cp reserves") != std::string::npos);
      BOOST_TEST(!p.requeue);
      BOOST_TEST(p.writes.empty());
    }
  }
}

// 2. The secret store not Ready: SecretStoreNotReady (10 s), nothing written.
BOOST_FIXTURE_TEST_CASE(the_store_gates_the_user, user_fixture) {
  store.ready = false;
  auto p = provision();
  expect(p.user_ready, false, "SecretStoreNotReady");
  BOOST_TEST(p.user_ready.message ==
             "SecretStore \"openbao-tenant-store\" in namespace \"openstack\" is not ready; the password cannot be "
             "backed up to OpenBao");
  BOOST_TEST((*p.requeue == 10s));
  BOOST_TEST(p.writes.empty());
}

// 3. The probe: created first; pending ProbingForCollision; Available a
// collision; created externally the name is free.
BOOST_FIXTURE_TEST_CASE(the_probe_decides, user_fixture) {
  auto p = provision();
  expect(p.user_ready, false, "ProbingForCollision");
  BOOST_REQUIRE(p.writes.size() == 1u);
  BOOST_TEST(p.writes[0].describe() == "create User openstack/" + n.probe());
  BOOST_TEST(p.writes[0].body.get_string({"spec", "import", "filter", "name"}) == "alice");
  BOOST_TEST(p.writes[0].body.get_string({"spec", "import", "filter", "domainRef"}) == "cp-domain-default");
  BOOST_TEST(p.writes[0].body.get_string({"spec", "cloudCredentialsRef", "secretName"}) == "cp-admin-password-cloud");

  users = {korc_pending(probe())};
  p = provision();
  expect(p.user_ready, false, "ProbingForCollision");
  BOOST_TEST(p.writes.empty());

  users = {korc_available(probe(), "taken-id")};
  p = provision();
  expect(p.user_ready, false, "ServiceAccountCollision");
  BOOST_TEST(p.user_ready.message.find("already exists") != std::string::npos);
  BOOST_TEST((*p.requeue == 10s));
  BOOST_TEST(p.writes.empty());  // the user it did not create is left untouched

  users = {korc_created_externally(probe())};
  p = provision();
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"create Secret openstack/" + n.password(1),
                                                               "create User openstack/" + n.user(),
                                                               "delete User openstack/" + n.probe()}));
  expect(p.user_ready, false, "WaitingForServiceAccounts");
}

// The free name's plan is three writes; an operator restarted after any of
// them plans again from what it lists then and makes no second probe (the
// probe goes last: were it first, a restart right after it would meet
// neither the probe nor the User and probe again; fault_plans_keystoneuser's
// crash@N found that).
BOOST_FIXTURE_TEST_CASE(a_restart_inside_the_free_name_plan_makes_no_second_probe, user_fixture) {
  users = {korc_created_externally(probe())};
  const auto first = provision();
  BOOST_REQUIRE(first.writes.size() == 3u);
  for (std::size_t done = 1; done < first.writes.size(); ++done) {
    BOOST_TEST_CONTEXT("stopped after write " << done) {
      // What the cluster holds once the first `done` writes landed.
      users = {korc_created_externally(probe())};
      secrets = {};
      for (std::size_t i = 0; i < done; ++i) {
        const auto w = first.writes[i].describe();
        if (w == "delete User openstack/" + n.probe()) users.erase(users.begin());
        if (w == "create Secret openstack/" + n.password(1)) secrets.push_back(password(1));
        if (w == "create User openstack/" + n.user()) users.push_back(managed(1, false));
      }
      auto p = provision();
      for (const auto& w : p.writes) BOOST_TEST(w.describe() != "create User openstack/" + n.probe());
      BOOST_TEST(p.writes.size() == first.writes.size() - done);
    }
  }
}

// 4. The password Secret (43 characters, written once), then the managed User
// naming it; the probe goes once the managed User exists.
BOOST_FIXTURE_TEST_CASE(the_managed_user_with_its_password, user_fixture) {
  users = {korc_created_externally(probe())};
  secrets = {password(1)};
  auto p = provision();
  BOOST_TEST_REQUIRE((describe(p.writes) ==
                      std::vector<std::string>{"create User openstack/" + n.user(), "delete User openstack/" + n.probe()}));
  const auto& u = p.writes[0].body;
  BOOST_TEST(u.get_string({"spec", "managementPolicy"}) == "managed");
  BOOST_TEST(u.get_string({"spec", "resource", "name"}) == "alice");
  BOOST_TEST(u.get_string({"spec", "resource", "domainRef"}) == "cp-domain-default");
  BOOST_TEST(u.get_string({"spec", "resource", "passwordRef"}) == n.password(1));
  BOOST_TEST(!u.get({"spec", "resource", "defaultProjectRef"}));
  BOOST_TEST(u.get_string({"spec", "cloudCredentialsRef", "secretName"}) == "cp-admin-password-cloud");
  BOOST_TEST(u.get_string({"spec", "cloudCredentialsRef", "cloudName"}) == "admin");

  // The generated password: 43 characters of base64url, kept once written.
  users = {korc_created_externally(probe())};
  secrets = {};
  auto first = provision();
  BOOST_REQUIRE(first.writes.size() == 3u);
  auto pw = orders::secret_value(first.writes[0].body, "password");
  BOOST_REQUIRE(pw);
  BOOST_TEST(pw->size() == 43u);
}

// 4-5, 7. Available with the password applied: userID, passwordGeneration, UserProvisioned.
BOOST_FIXTURE_TEST_CASE(provisioned, user_fixture) {
  users = {managed(1)};
  secrets = {password(1)};
  auto p = provision();
  expect(p.user_ready, true, "UserProvisioned");
  BOOST_TEST(p.user_ready.message.find("at password generation 1") != std::string::npos);
  BOOST_TEST(p.status.user_id == "user-id-1");
  BOOST_TEST(p.status.password_generation == 1);
  BOOST_TEST(!p.status.last_password_rotation);
  BOOST_TEST(p.writes.empty());
  BOOST_TEST(p.provisioned);
}

// 4, 6. A new generation: the User re-pointed; waiting for appliedPasswordRef;
// the older Secret deleted only after; lastPasswordRotation on the switch.
BOOST_FIXTURE_TEST_CASE(rotation_waits_for_the_applied_password, user_fixture) {
  order = keystone_user_object("alice", R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"},"passwordGeneration":2})",
                               R"({"passwordGeneration":1,"userID":"user-id-1"})");
  o = ku::make_user_order(order, "");
  users = {managed(1)};
  secrets = {password(1), password(2, "pw-two")};
  auto p = provision();
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"apply User openstack/" + n.user()}));
  BOOST_TEST(p.writes[0].body.get_string({"spec", "resource", "passwordRef"}) == n.password(2));
  expect(p.user_ready, false, "WaitingForServiceAccounts");

  users = {managed(2, true, 1)};  // re-pointed, not applied yet
  p = provision();
  expect(p.user_ready, false, "WaitingForServiceAccounts");
  BOOST_TEST(p.user_ready.message == "awaiting K-ORC to apply password generation 2 to User openstack/" + n.user());
  BOOST_TEST(p.writes.empty());  // password-v1 stays until v2 is applied
  BOOST_TEST(p.status.password_generation == 1);

  users = {managed(2)};
  p = provision();
  expect(p.user_ready, true, "UserProvisioned");
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"delete Secret openstack/" + n.password(1)}));
  BOOST_TEST(p.status.password_generation == 2);
  BOOST_TEST((*p.status.last_password_rotation == t0()));

  // The generation never goes down: a User at v3 keeps v3 while spec says 2.
  users = {managed(3)};
  secrets = {password(3)};
  BOOST_TEST(ku::desired_generation(o, &users[0]) == 3);
}

// 6. Not Available; a terminal error; a latched transport error handed back;
// one that cannot be cleared.
BOOST_FIXTURE_TEST_CASE(failure_reasons, user_fixture) {
  secrets = {password(1)};
  users = {managed(1, false)};
  auto p = provision();
  expect(p.user_ready, false, "WaitingForServiceAccounts");
  BOOST_TEST(p.user_ready.message.find("is registered but not yet Available") != std::string::npos);
  BOOST_TEST((*p.requeue == 10s));

  auto base = managed(1, false);
  users = {korc_terminal(base, "UnrecoverableError", "the domain is gone")};
  p = provision();
  expect(p.user_ready, false, "ServiceAccountsFailed");
  BOOST_TEST(p.user_ready.message ==
             "K-ORC reported a terminal error on User openstack/" + n.user() + ": the domain is gone");

  users = {with_uid(korc_terminal(base, "InvalidConfiguration", "dial tcp: connection refused"), "uid-u")};
  p = provision();
  expect(p.user_ready, false, "WaitingForServiceAccounts");
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"patch User openstack/" + n.user() + " (status)",
                                                               "patch User openstack/" + n.user()}));
  // Inside the backoff the terminal error is what the user reads.
  users = {annotated(users[0], korc::annotation_unlatched_at, "2026-12-01T00:00:00Z")};
  p = provision();
  expect(p.user_ready, false, "ServiceAccountsFailed");
  BOOST_TEST(p.writes.empty());
  BOOST_TEST((*p.requeue <= 10s));

  users = {with_uid(korc_terminal(base, "InvalidConfiguration", "dial tcp: connection refused"), "uid-u")};
  failures = {{c5c3::runtime::write_cluster::management, "User", cp_ns, n.user(), "status",
               c5c3::protocol::api_errc::forbidden, "forbidden"}};
  p = provision();
  expect(p.user_ready, false, "TransportErrorRetryFailed");
  BOOST_TEST(p.user_ready.message.find("User openstack/" + n.user()) != std::string::npos);
  BOOST_TEST(p.writes.empty());
}

// A managed User of that name the order did not create is refused.
BOOST_FIXTURE_TEST_CASE(a_foreign_user_is_refused, user_fixture) {
  users = {korc_created_externally(probe())};
  secrets = {password(1)};
  ku::provision_snapshot s{&o, &cp, store, true, users, secrets,
                           {make_object("openstack.k-orc.cloud/v1alpha1", "User", cp_ns, n.user())},
                           {}, t0(), counting_random()};
  auto p = ku::provision_user(s);
  expect(p.user_ready, false, "ServiceAccountError");
  BOOST_TEST(p.user_ready.message.find("refusing to adopt pre-existing User openstack/" + n.user()) != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(keystoneuser_delivery)

struct delivery_fixture : user_fixture {
  ku::user_status status = [] {
    ku::user_status s;
    s.password_generation = 1;
    return s;
  }();
  object pw = password(1, "s3cr3t");
  std::optional<object> source, push, delivered;
  std::string cluster;

  ku::delivery_plan deliver() {
    o = ku::make_user_order(order, cluster);
    n = ku::user_names(o.id.ref);
    pw = password(1, "s3cr3t");
    ku::delivery_snapshot s;
    s.order = &o;
    s.status = &status;
    s.control_plane = &cp;
    s.store = store;
    s.password_secret = &pw;
    s.source_secret = source ? &*source : nullptr;
    s.push_secret = push ? &*push : nullptr;
    s.delivered_secret = delivered ? &*delivered : nullptr;
    return ku::deliver_credentials(s);
  }
  std::string clouds() const { return korc::build_user_clouds_yaml(cp, "alice", "Default", "s3cr3t", cluster); }
};

// 1. No auth URL for a target cluster: KeystoneNotPublished, no requeue.
BOOST_FIXTURE_TEST_CASE(keystone_not_published, delivery_fixture) {
  cp = keystone_control_plane(true, "{}");
  cluster = "edge-1";
  auto p = deliver();
  expect(p.delivery_ready, false, "KeystoneNotPublished");
  BOOST_TEST(p.delivery_ready.message.find("target cluster \"edge-1\"") != std::string::npos);
  BOOST_TEST(!p.requeue);
}

// 3-6. Source Secret with six keys and the PushSecret; BackupNotSynced until
// pushed; then the Secret beside the order; Delivered.
BOOST_FIXTURE_TEST_CASE(backup_then_delivery, delivery_fixture) {
  auto p = deliver();
  expect(p.delivery_ready, false, "BackupNotSynced");
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"create Secret openstack/" + n.source(),
                                                               "create PushSecret openstack/" + n.backup()}));
  const auto& src = p.writes[0].body;
  for (auto k : {"password", "username", "user_domain_name", "auth_url", "region_name", "clouds.yaml"})
    BOOST_TEST_CONTEXT(k) { BOOST_TEST(orders::secret_value(src, k).has_value()); }
  BOOST_TEST(*orders::secret_value(src, "auth_url") == "http://cp-keystone.openstack.svc:5000/v3");
  BOOST_TEST(*orders::secret_value(src, "clouds.yaml") == clouds());
  const auto& ps = p.writes[1].body;
  BOOST_TEST(ps.get_string({"spec", "data"}).empty());
  BOOST_TEST(*ps.annotation("c5c3.io/keystoneuser-push-hash") == orders::sha256_hex(clouds()));
  BOOST_TEST(k8s::to_json(*ps.get({"spec", "data"})) ==
             R"([{"match":{"remoteRef":{"remoteKey":"openstack/keystone/openstack/)" +
                 n.prefix.substr(0, n.prefix.size() - 1) + R"(/service-accounts/credentials"}}}])");

  source = mine(p.writes[0].body);
  push = mine(p.writes[1].body);
  p = deliver();
  expect(p.delivery_ready, false, "BackupNotSynced");
  BOOST_TEST(p.delivery_ready.message == "the password is not backed up to OpenBao yet (PushSecret openstack/" +
                                             n.backup() + ")");
  push = pushed(*push, "c5c3.io/keystoneuser-push-hash", "c5c3.io/keystoneuser-push-synced-before",
                orders::sha256_hex(clouds()));
  p = deliver();
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"apply Secret tenant-a/alice-credentials"}));
  const auto& d = p.writes[0];
  BOOST_TEST((d.cluster == orders::write_cluster::order));
  BOOST_TEST(d.force);
  BOOST_TEST(d.body.get_string({"type"}) == "Opaque");
  BOOST_TEST(*d.body.label("c5c3.io/keystoneuser-name") == "alice");
  BOOST_TEST(!d.body.label("c5c3.io/keystoneuser-cluster"));
  BOOST_TEST(d.body.controller_reference()->uid == "uid-order");
  BOOST_TEST(*orders::secret_value(d.body, "password") == "s3cr3t");
  BOOST_TEST(*orders::secret_value(d.body, "clouds.yaml") == clouds());
  BOOST_TEST(!orders::secret_value(d.body, "username"));

  delivered = d.body;
  p = deliver();
  expect(p.delivery_ready, true, "Delivered");
  BOOST_TEST(p.writes.empty());
  BOOST_TEST(p.status.secret_name == "alice-credentials");
  BOOST_TEST((p.status.secret_keys == std::vector<std::string>{"clouds.yaml", "password"}));
}

// 5. A foreign Secret beside the order: DeliveryRefused, no requeue.
BOOST_FIXTURE_TEST_CASE(a_foreign_delivered_secret_is_refused, delivery_fixture) {
  source = mine(make_secret(cp_ns, n.source(), {}));
  auto first = deliver();
  source = mine(first.writes[0].body);
  push = pushed(mine(first.writes[1].body), "c5c3.io/keystoneuser-push-hash",
                "c5c3.io/keystoneuser-push-synced-before", orders::sha256_hex(clouds()));
  delivered = make_secret("tenant-a", "alice-credentials", {{"password", "theirs"}});
  auto p = deliver();
  expect(p.delivery_ready, false, "DeliveryRefused");
  BOOST_TEST(p.delivery_ready.message ==
             "Secret tenant-a/alice-credentials exists and is not owned by this order; delete it or rename the order");
  BOOST_TEST(!p.requeue);
  BOOST_TEST(p.writes.empty());
}

// 2. An empty password: WaitingForServiceAccounts (10 s).
BOOST_FIXTURE_TEST_CASE(an_empty_password_waits, delivery_fixture) {
  ku::delivery_snapshot s;
  s.order = &o;
  s.status = &status;
  s.control_plane = &cp;
  s.store = store;
  auto p = ku::deliver_credentials(s);
  expect(p.delivery_ready, false, "WaitingForServiceAccounts");
  BOOST_TEST((*p.requeue == 10s));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(keystoneuser_teardown)

// Holds first (assignments, then credentials); then PushSecret, User, probe,
// password Secrets, source Secret, the delivered Secret.
BOOST_FIXTURE_TEST_CASE(holds_then_the_sweep_in_order, user_fixture) {
  ku::teardown_snapshot t;
  t.order = &o;
  t.has_finalizer = true;
  t.control_plane_present = true;
  t.role_assignments = {role_assignment("ra-1", "alice", "team")};
  t.application_credentials = {application_credential("ac-1", "alice", "team")};
  t.users = {korc_user(n.probe()), korc_user(n.user())};
  t.secrets = {mine(make_secret(cp_ns, n.source(), {})), password(1), password(2)};
  t.push_secrets = {mine(make_object("external-secrets.io/v1alpha1", "PushSecret", cp_ns, n.backup()))};
  auto delivered = controlled_by(make_secret("tenant-a", "alice-credentials", {}), "uid-order");
  t.delivered_secret = &delivered;

  auto p = ku::plan_teardown(t);
  BOOST_TEST(p.hold.reason == "ReferencedByRoleAssignments");
  BOOST_TEST(p.writes.empty());
  BOOST_TEST((*p.requeue == 1min));
  t.role_assignments = {role_assignment("ra-1", "bob", "team")};
  p = ku::plan_teardown(t);
  BOOST_TEST(p.hold.reason == "ReferencedByApplicationCredentials");
  t.application_credentials = {};
  p = ku::plan_teardown(t);
  BOOST_TEST(!p.hold.held);
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{
                                        "delete PushSecret openstack/" + n.backup(),
                                        "delete User openstack/" + n.user(),
                                        "delete User openstack/" + n.probe(),
                                        "delete Secret openstack/" + n.password(1),
                                        "delete Secret openstack/" + n.password(2),
                                        "delete Secret openstack/" + n.source(),
                                        "delete Secret tenant-a/alice-credentials",
                                    }));
  BOOST_TEST((p.writes.back().cluster == orders::write_cluster::order));
  BOOST_TEST(!p.release_finalizer);
  BOOST_TEST((*p.requeue == 10s));
  // Nothing left: the finalizer goes. ControlPlane gone: at once.
  p = ku::plan_teardown({&o, true, true, {}, {}, {}, nullptr, {}, {}});
  BOOST_TEST(p.release_finalizer);
  t.control_plane_present = false;
  p = ku::plan_teardown(t);
  BOOST_TEST(p.release_finalizer);
  BOOST_TEST(p.writes.size() == 7u);
}

BOOST_AUTO_TEST_SUITE_END()

