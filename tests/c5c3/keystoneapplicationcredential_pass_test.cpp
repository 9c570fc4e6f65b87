// The KeystoneApplicationCredential's delivery ("Application credential
// delivery"), its two-phase teardown ("Deletion and Teardown") and one pass
// against the pure world stand-in: the gates pause the schedule, Ready with
// the delivered clouds.yaml, quiet between rotations, a declared and a
// scheduled rotation with the grace period, the timers, the teardown.
#include "actors/c5c3/keystoneapplicationcredential/delivery.hpp"
#include "actors/c5c3/keystoneapplicationcredential/pass.hpp"
#include "actors/c5c3/keystoneapplicationcredential/teardown.hpp"
#include "actors/c5c3/korc/clouds_yaml.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"
#include "tests/c5c3/keystone_converge.hpp"
#include "tests/c5c3/keystoneapplicationcredential_fixture.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;
using namespace std::chrono_literals;
namespace korc = c5c3::c5c3::korc;

namespace {

const std::string cp_ns = "openstack";
const std::string push_hash = "c5c3.io/keystoneapplicationcredential-push-hash";
const std::string push_before = "c5c3.io/keystoneapplicationcredential-push-synced-before";

void expect(const k8s::condition& c, bool status, std::string_view reason) {
  BOOST_TEST(c.is_true() == status);
  BOOST_TEST(c.reason == reason, c.reason << ": " << c.message);
}

const k8s::condition* find(const object& o, std::string_view type) {
  static std::optional<k8s::condition> c;
  c = o.find_condition(type);
  return c ? &*c : nullptr;
}

struct delivery_fixture {
  object order = keystone_application_credential_object("creds", "alice", "team", appcred_spec);
  object cp = keystone_control_plane();
  std::string cluster;
  kac::credential_order o = kac::make_credential_order(order, "");
  kac::credential_names n{o.id.ref};
  kac::credential_status status = [] {
    kac::credential_status s;
    s.credential_generation = 1;
    s.credential_id = "ac-1";
    return s;
  }();
  std::optional<object> value, source, push, delivered;

  object mine(const object& obj) const { return labelled(obj, o.id.ref); }
  kac::delivery_plan deliver() {
    o = kac::make_credential_order(order, cluster);
    n = kac::credential_names(o.id.ref);
    kac::delivery_snapshot s;
    s.order = &o;
    s.status = &status;
    s.control_plane = &cp;
    s.value_secret = value ? &*value : nullptr;
    s.source_secret = source ? &*source : nullptr;
    s.push_secret = push ? &*push : nullptr;
    s.delivered_secret = delivered ? &*delivered : nullptr;
    return kac::deliver_credential(s);
  }
  std::string clouds(std::string_view id, std::string_view secret) const {
    return korc::build_app_cred_clouds_yaml(cp, id, secret, cluster);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(keystoneapplicationcredential_delivery)

// The auth URL for a target cluster: KeystoneNotPublished, no requeue; no
// secret yet: WaitingForCredential.
BOOST_FIXTURE_TEST_CASE(its_waits, delivery_fixture) {
  cp = keystone_control_plane(true, "{}");
  cluster = "edge-1";
  value = value_secret(o, 1, "s1");
  auto p = deliver();
  expect(p.delivery_ready, false, "KeystoneNotPublished");
  BOOST_TEST(!p.requeue);
  cluster.clear();
  value.reset();
  p = deliver();
  expect(p.delivery_ready, false, "WaitingForCredential");
  BOOST_TEST(p.writes.empty());
  value = value_secret(o, 1, "s1");
  status.credential_id.clear();
  p = deliver();
  expect(p.delivery_ready, false, "WaitingForCredential");
}

// The source Secret and the PushSecret; BackupNotSynced until pushed; then
// <name>-credentials with three keys; a switch reaches it once pushed again.
BOOST_FIXTURE_TEST_CASE(backup_delivery_and_a_switch, delivery_fixture) {
  value = value_secret(o, 1, "s1");
  auto p = deliver();
  expect(p.delivery_ready, false, "BackupNotSynced");
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"create Secret openstack/" + n.source(),
                                                               "create PushSecret openstack/" + n.backup()}));
  const auto doc = clouds("ac-1", "s1");
  BOOST_TEST(*orders::secret_value(p.writes[0].body, "clouds.yaml") == doc);
  BOOST_TEST(doc.find("v3applicationcredential") != std::string::npos);
  BOOST_TEST(k8s::to_json(*p.writes[1].body.get({"spec", "data"})).find(
                 "openstack/keystone/openstack/" + n.prefix.substr(0, n.prefix.size() - 1) +
                 "/service-accounts/application-credential") != std::string::npos);
  source = mine(p.writes[0].body);
  push = pushed(mine(p.writes[1].body), push_hash, push_before, orders::sha256_hex(doc));
  p = deliver();
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"apply Secret tenant-a/creds-credentials"}));
  const auto& d = p.writes[0].body;
  BOOST_TEST(*orders::secret_value(d, "clouds.yaml") == doc);
  BOOST_TEST(*orders::secret_value(d, "application_credential_id") == "ac-1");
  BOOST_TEST(*orders::secret_value(d, "application_credential_secret") == "s1");
  BOOST_TEST(d.controller_reference()->uid == "uid-order");
  delivered = d;
  p = deliver();
  expect(p.delivery_ready, true, "Delivered");
  BOOST_TEST(p.writes.empty());
  BOOST_TEST(p.status.secret_name == "creds-credentials");
  BOOST_TEST(p.status.secret_keys.size() == 3u);

  // The switch to generation 2: the backup first, then the Secret.
  status.credential_generation = 2;
  status.credential_id = "ac-2";
  value = value_secret(o, 2, "s2");
  p = deliver();
  expect(p.delivery_ready, false, "BackupNotSynced");
  BOOST_TEST(p.delivery_ready.message.find("credential is not backed up") != std::string::npos);
  BOOST_TEST_REQUIRE(p.writes.size() == 2u);
  source = mine(p.writes[0].body);
  push = pushed(mine(p.writes[1].body), push_hash, push_before, orders::sha256_hex(clouds("ac-2", "s2")));
  p = deliver();
  BOOST_TEST_REQUIRE(p.writes.size() == 1u);
  BOOST_TEST(*orders::secret_value(p.writes[0].body, "application_credential_id") == "ac-2");
}

// A Secret the order does not control: DeliveryRefused.
BOOST_FIXTURE_TEST_CASE(a_foreign_delivered_secret_is_refused, delivery_fixture) {
  value = value_secret(o, 1, "s1");
  auto first = deliver();
  source = mine(first.writes[0].body);
  push = pushed(mine(first.writes[1].body), push_hash, push_before, orders::sha256_hex(clouds("ac-1", "s1")));
  delivered = make_secret("tenant-a", "creds-credentials", {{"clouds.yaml", "theirs"}});
  auto p = deliver();
  expect(p.delivery_ready, false, "DeliveryRefused");
  BOOST_TEST(p.writes.empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(keystoneapplicationcredential_teardown)

// While a credential is listed: PushSecret, every credential-v<N>, every
// secret-v<N>, source (mint-cloud kept); once none is: mint-cloud, then the
// delivered Secret; with the ControlPlane gone both at once.
BOOST_FIXTURE_TEST_CASE(two_phases, delivery_fixture) {
  auto mint = mine(make_secret(cp_ns, n.mint_cloud(), {}));
  auto src = mine(make_secret(cp_ns, n.source(), {}));
  auto ps = mine(make_object("external-secrets.io/v1alpha1", "PushSecret", cp_ns, n.backup()));
  auto mine_delivered = controlled_by(make_secret("tenant-a", "creds-credentials", {}), "uid-order");
  kac::teardown_snapshot t{&o,  true, true, {ps}, {credential_child(o, 1), credential_child(o, 2)},
                           {src, mint, value_secret(o, 1), value_secret(o, 2)}, &mine_delivered};
  auto p = kac::plan_teardown(t);
  BOOST_TEST(p.mint_cloud_held);
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{
                  "delete PushSecret openstack/" + n.backup(),
                  "delete ApplicationCredential openstack/" + n.credential(1),
                  "delete ApplicationCredential openstack/" + n.credential(2),
                  "delete Secret openstack/" + n.secret(1), "delete Secret openstack/" + n.secret(2),
                  "delete Secret openstack/" + n.source()}));
  BOOST_TEST(!p.release_finalizer);
  BOOST_TEST((*p.requeue == 10s));

  t.credentials = {};
  t.push_secrets = {};
  t.secrets = {mint};
  p = kac::plan_teardown(t);
  BOOST_TEST(!p.mint_cloud_held);
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"delete Secret openstack/" + n.mint_cloud(),
                                                               "delete Secret tenant-a/creds-credentials"}));
  BOOST_TEST(!p.release_finalizer);

  t.secrets = {};
  t.delivered_secret = nullptr;
  BOOST_TEST(kac::plan_teardown(t).release_finalizer);

  kac::teardown_snapshot gone{&o,  true, false, {ps}, {credential_child(o, 1)}, {src, mint, value_secret(o, 1)},
                              &mine_delivered};
  p = kac::plan_teardown(gone);
  BOOST_TEST(p.writes.size() == 6u);
  BOOST_TEST(p.release_finalizer);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(keystoneapplicationcredential_pass)

const orders::random_source secrets_random = counting_random(5);

struct pass_world {
  keystone_world w;
  object cp = keystone_control_plane();
  object order = keystone_application_credential_object("creds", "alice", "team", appcred_spec);
  time_point now = t0();

  pass_world() {
    w.put(ready_user());
    w.put(ready_project());
    w.put(assigned());
    w.put(user_password());
  }
  korc::order_pass_plan plan(const object& o) {
    const auto* user = w.get("KeystoneUser", "tenant-a", "alice");
    kac::pass_snapshot s;
    s.order = &o;
    s.control_plane = &cp;
    s.user = user;
    s.project = w.get("KeystoneProject", "tenant-a", "team");
    s.role_assignments = w.of_kind("KeystoneRoleAssignment", "tenant-a");
    if (user)
      s.password_secret = w.get("Secret", cp_ns,
                                kac::user_children_of("alice", "tenant-a", "", 1).password_secret);
    s.credentials = w.labelled("ApplicationCredential", cp_ns, std::string(kac::label_name));
    s.secrets = w.labelled("Secret", cp_ns, std::string(kac::label_name));
    s.push_secrets = w.labelled("PushSecret", cp_ns, std::string(kac::label_name));
    s.delivered_secret = w.get("Secret", "tenant-a", "creds-credentials");
    s.now = now;
    s.random = secrets_random;
    return kac::plan_pass(s);
  }
  int run(int max) {
    return drive(w, order, kac::finalizer, [&](const object& o) { return plan(o); }, max);
  }
  kac::credential_status status() const { return kac::read_status(order); }
};

// A refused gate: CredentialReady names it, DeliveryReady WaitingForCredential
// before the first credential, the schedule paused (no timer), no re-check.
BOOST_FIXTURE_TEST_CASE(a_gate_pauses_the_schedule, pass_world) {
  w.objects.erase({"KeystoneRoleAssignment", "tenant-a", "ra-1"});
  run(5);
  BOOST_TEST(find(order, "CredentialReady")->reason == "NoRoleOnProject");
  BOOST_TEST(find(order, "DeliveryReady")->reason == "WaitingForCredential");
  BOOST_TEST(find(order, "Ready")->reason == "NotAllReady");
  auto p = plan(order);
  BOOST_TEST((p.stage == korc::pass_stage::refused_reference));
  BOOST_TEST(p.timers.empty());
  // No short re-check: an assignment reporting its role wakes the order
  // (declaration.cpp's references); the refresh only otherwise.
  BOOST_TEST((*p.requeue == c5c3::c5c3::order_refresh_after));
  BOOST_TEST(w.labelled("ApplicationCredential", cp_ns, std::string(kac::label_name)).empty());
}

// Ready with the delivered clouds.yaml; quiet with the timers armed; a
// declared rotation with the grace period; a scheduled one; the teardown.
BOOST_FIXTURE_TEST_CASE(converges_rotates_and_tears_down, pass_world) {
  BOOST_TEST_REQUIRE(run(20) > 0);
  BOOST_TEST(find(order, "Ready")->is_true(), find(order, "CredentialReady")->message);
  BOOST_TEST(find(order, "DeliveryReady")->reason == "Delivered");
  auto st = status();
  const auto n = kac::credential_names(kac::make_credential_order(order, "").id.ref);
  BOOST_TEST(st.credential_generation == 1);
  BOOST_TEST(st.credential_id == "ac-" + n.credential(1));
  BOOST_TEST((st.credential_expires_at == t0() + 1h + 10min));
  BOOST_TEST((st.next_rotation == t0() + 1h));
  const auto* delivered = w.get("Secret", "tenant-a", "creds-credentials");
  BOOST_TEST_REQUIRE(delivered);
  BOOST_TEST(*orders::secret_value(*delivered, "application_credential_id") == st.credential_id);

  auto quiet = plan(order);
  BOOST_TEST(quiet.writes.empty());
  BOOST_TEST(!quiet.status);
  BOOST_TEST((*quiet.requeue == 1h));
  BOOST_TEST((quiet.timers == std::map<std::string, k8s::time_point>{{"rotation", t0() + 1h},
                                                                       {"expiry", t0() + 1h + 10min}}));

  // credentialGeneration 2: minted, switched, the old one kept for its grace.
  now = t0() + 5min;
  auto b = order.edit();
  b.set_int({"spec", "credentialGeneration"}, 2);
  b.set_int({"metadata", "generation"}, 2);
  order = std::move(b).freeze();
  BOOST_TEST_REQUIRE(run(20) > 0);
  st = status();
  BOOST_TEST(st.credential_generation == 2);
  BOOST_TEST(st.previous_credential_generation == 1);
  BOOST_TEST((st.previous_credential_delete_at == now + 10min));
  BOOST_TEST(w.get("ApplicationCredential", cp_ns, n.credential(1)));
  BOOST_TEST(*orders::secret_value(*w.get("Secret", "tenant-a", "creds-credentials"), "application_credential_id") ==
             "ac-" + n.credential(2));
  BOOST_TEST(plan(order).timers.count("grace") == 1u);

  // The grace period ends: credential-v1 and secret-v1 go.
  now += 10min;
  run(10);
  BOOST_TEST(!w.get("ApplicationCredential", cp_ns, n.credential(1)));
  BOOST_TEST(!w.get("Secret", cp_ns, n.secret(1)));
  BOOST_TEST(status().previous_credential_generation == 0);

  // The schedule is due: generation 3 with no declared change.
  now = *status().next_rotation;
  BOOST_TEST_REQUIRE(run(20) > 0);
  BOOST_TEST(status().credential_generation == 3);
  BOOST_TEST(find(order, "Ready")->is_true());

  // Deletion: phase one keeps the mint document, phase two takes it.
  order = terminating(order);
  run(3);
  BOOST_TEST(w.labelled("ApplicationCredential", cp_ns, std::string(kac::label_name)).empty());
  run(5);
  BOOST_TEST(!order.has_finalizer(kac::finalizer));
  BOOST_TEST(w.labelled("Secret", cp_ns, std::string(kac::label_name)).empty());
  BOOST_TEST(!w.get("Secret", "tenant-a", "creds-credentials"));
}

// Issue 14: under load K-ORC posts credential-v2 only after its expiry, and
// Keystone refuses it ("The expiration time is in the past"; K-ORC retries,
// never Available). Once generation 1 has expired the order does not read
// Ready; generation 2 is given up and pruned, generation 3 minted and Ready.
BOOST_FIXTURE_TEST_CASE(a_generation_past_its_expiry_is_given_up, pass_world) {
  BOOST_TEST_REQUIRE(run(20) > 0);
  const auto o = kac::make_credential_order(order, "");
  const auto n = kac::credential_names(o.id.ref);
  w.put(korc_pending(credential_child(o, 2, true, t0() + 1h + 10min), "The expiration time is in the past"));
  w.put(value_secret(o, 2, "s2"));
  now = t0() + 1h + 10min;
  auto p = plan(order);
  BOOST_TEST_REQUIRE(p.status.has_value());
  BOOST_TEST(!find(*p.status, "Ready")->is_true());
  BOOST_TEST(find(*p.status, "CredentialReady")->reason == "WaitingForCredential");

  BOOST_TEST_REQUIRE(run(20) > 0);
  BOOST_TEST(status().credential_generation == 3);
  BOOST_TEST(!w.get("ApplicationCredential", cp_ns, n.credential(2)));
  BOOST_TEST(!w.get("Secret", cp_ns, n.secret(2)));
  BOOST_TEST(find(order, "Ready")->is_true(), find(order, "CredentialReady")->message);
  BOOST_TEST(*orders::secret_value(*w.get("Secret", "tenant-a", "creds-credentials"), "application_credential_id") ==
             "ac-" + n.credential(3));
}

BOOST_AUTO_TEST_CASE(timers_of) {
  kac::credential_status s;
  s.next_rotation = t0() + 1h;
  s.credential_expires_at = t0() + 2h;
  s.previous_credential_delete_at = t0() + 5min;
  BOOST_TEST(kac::timers_of(s, t0()).size() == 2u);  // no previous generation: no grace timer
  s.previous_credential_generation = 1;
  BOOST_TEST(kac::timers_of(s, t0()).size() == 3u);
  BOOST_TEST(kac::timers_of(s, t0() + 90min).size() == 1u);  // only the expiry lies ahead
}

BOOST_AUTO_TEST_SUITE_END()
