// One KeystoneUser pass (apis.md 1.4b "Pass"): the gates on both
// sub-conditions, the finalizer only past admission, and a pass loop against
// the pure world stand-in: Ready with the delivered Secret, quiet once
// converged, a rotation, a deletion held by an assignment then swept, and a
// name Keystone already holds.
#include "actors/c5c3/keystoneuser/pass.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"
#include "tests/c5c3/keystone_converge.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;
using namespace std::chrono_literals;
namespace ku = c5c3::c5c3::keystoneuser;
namespace korc = c5c3::c5c3::korc;

namespace {

template <class F>
object edited(const object& o, F f) {
  auto b = o.edit();
  f(b);
  return std::move(b).freeze();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(keystoneuser_pass)

// One source for every pass, so each generation's password differs.
const orders::random_source passwords = counting_random(3);

korc::order_pass_plan plan(keystone_world& w, const object& order, const object* cp, std::string cluster = "") {
  ku::pass_snapshot s;
  s.order = &order;
  s.cluster = cluster;
  s.control_plane = cp;
  s.store = {"SecretStore", "openbao-tenant-store", true};
  s.users = w.labelled("User", "openstack", "c5c3.io/keystoneuser-name");
  s.secrets = w.labelled("Secret", "openstack", "c5c3.io/keystoneuser-name");
  s.push_secrets = w.labelled("PushSecret", "openstack", "c5c3.io/keystoneuser-name");
  s.delivered_secret = w.get("Secret", "tenant-a", std::string(order.name()) + "-credentials");
  s.role_assignments = w.of_kind("KeystoneRoleAssignment", "tenant-a");
  s.application_credentials = w.of_kind("KeystoneApplicationCredential", "tenant-a");
  s.now = t0();
  s.random = passwords;
  return ku::plan_pass(s);
}

const k8s::condition* find(const object& o, std::string_view type) {
  static std::optional<k8s::condition> c;
  c = o.find_condition(type);
  return c ? &*c : nullptr;
}

// Admission and the admin-credential gate fail both sub-conditions; the
// finalizer goes on only past admission.
BOOST_AUTO_TEST_CASE(gates) {
  keystone_world w;
  auto order = keystone_user_object("alice", "", "{}", false);
  auto p = plan(w, order, nullptr);
  BOOST_TEST((p.stage == korc::pass_stage::refused_admission));
  BOOST_REQUIRE(p.status);
  BOOST_TEST(find(*p.status, "UserReady")->reason == "ControlPlaneNotFound");
  BOOST_TEST(find(*p.status, "DeliveryReady")->reason == "ControlPlaneNotFound");
  BOOST_TEST(find(*p.status, "Ready")->reason == "NotAllReady");
  BOOST_TEST(!p.add_finalizer);

  auto cp = keystone_control_plane(false);
  p = plan(w, order, &cp);
  BOOST_TEST(p.add_finalizer);
  order = keystone_user_object();
  p = plan(w, order, &cp);
  BOOST_TEST((p.stage == korc::pass_stage::refused_gate));
  BOOST_TEST(find(*p.status, "UserReady")->reason == "WaitingForAdminCredential");
  BOOST_TEST(find(*p.status, "DeliveryReady")->reason == "WaitingForAdminCredential");
  BOOST_TEST((*p.requeue == 10s));

  // Not assigned: the freeze (NamespaceNotAssigned, 1 min).
  auto other = keystone_user_object("alice", R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"}})");
  p = plan(w, other, &cp, "edge-2");
  BOOST_TEST(find(*p.status, "UserReady")->reason == "NamespaceNotAssigned");
  BOOST_TEST((*p.requeue == 1min));
}

// The whole order, pass after pass against the stand-in: Ready with the
// delivered Secret; no write once converged; a rotation; a reserved name; a
// deletion held by an assignment, then swept.
BOOST_AUTO_TEST_CASE(converges_rotates_and_tears_down) {
  keystone_world w;
  auto cp = keystone_control_plane();
  object order = keystone_user_object();
  auto run = [&](int max_passes) {
    return drive(w, order, ku::finalizer, [&](const object& o) { return plan(w, o, &cp); }, max_passes);
  };
  BOOST_TEST_REQUIRE(run(20) > 0);
  BOOST_TEST(find(order, "Ready")->is_true(), find(order, "UserReady")->message);
  BOOST_TEST(find(order, "DeliveryReady")->reason == "Delivered");
  auto status = ku::read_status(order);
  BOOST_TEST(status.user_id == "id-alice");
  BOOST_TEST(status.password_generation == 1);
  const auto* delivered = w.get("Secret", "tenant-a", "alice-credentials");
  BOOST_REQUIRE(delivered);
  auto user = ku::user_names(ku::make_user_order(order, "").id.ref);
  BOOST_TEST(!w.get("User", "openstack", user.probe()));  // the probe is gone
  auto pw1 = orders::secret_value(*delivered, "password");
  // Converged: the next plan writes nothing.
  auto quiet = plan(w, order, &cp);
  BOOST_TEST(quiet.writes.empty());
  BOOST_TEST(!quiet.status);
  BOOST_TEST(!quiet.requeue);

  // passwordGeneration 2: a new Secret, the User re-pointed, delivered again, v1 gone.
  order = edited(order, [](auto& b) {
    b.set_int({"spec", "passwordGeneration"}, 2);
    b.set_int({"metadata", "generation"}, 2);
  });
  BOOST_TEST_REQUIRE(run(20) > 0);
  BOOST_TEST(find(order, "Ready")->is_true());
  BOOST_TEST(ku::read_status(order).password_generation == 2);
  BOOST_TEST(ku::read_status(order).last_password_rotation.has_value());
  BOOST_TEST((orders::secret_value(*w.get("Secret", "tenant-a", "alice-credentials"), "password") != pw1));
  BOOST_TEST(!w.get("Secret", "openstack", user.password(1)));
  BOOST_TEST(w.get("Secret", "openstack", user.password(2)));

  // Deletion: held while an assignment names it, then the sweep.
  w.put(role_assignment("ra-1", "alice", "team"));
  order = terminating(order);
  run(3);
  BOOST_TEST(find(order, "UserReady")->reason == "ReferencedByRoleAssignments");
  BOOST_TEST(w.get("User", "openstack", user.user()));
  w.objects.erase({"KeystoneRoleAssignment", "tenant-a", "ra-1"});
  run(5);
  BOOST_TEST(!order.has_finalizer(ku::finalizer));
  BOOST_TEST(w.labelled("User", "openstack", "c5c3.io/keystoneuser-name").empty());
  BOOST_TEST(w.labelled("Secret", "openstack", "c5c3.io/keystoneuser-name").empty());
  BOOST_TEST(!w.get("Secret", "tenant-a", "alice-credentials"));
}

// A user name Keystone already holds: ServiceAccountCollision, and the order
// writes no managed User.
BOOST_AUTO_TEST_CASE(an_existing_keystone_user_is_a_collision) {
  keystone_world w;
  w.keystone_users.insert("alice");
  auto cp = keystone_control_plane();
  object order = keystone_user_object();
  drive(w, order, ku::finalizer, [&](const object& o) { return plan(w, o, &cp); }, 5);
  BOOST_TEST(find(order, "UserReady")->reason == "ServiceAccountCollision");
  auto user = ku::user_names(ku::make_user_order(order, "").id.ref);
  BOOST_TEST(!w.get("User", "openstack", user.user()));
}

BOOST_AUTO_TEST_SUITE_END()
