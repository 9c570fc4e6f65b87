// The KeystoneUser and KeystoneProject order hosts wired as the operator
// wires its kinds, against the in-process emulator (deploy/crds, sim/crds)
// and sim/world (External Secrets, the simulated K-ORC and its in-memory
// Keystone) on their own clients (keystone_fixture.hpp): Ready with the delivered
// clouds.yaml and password, zero requests once converged, a password
// rotation, a deletion held by a KeystoneRoleAssignment naming the user and
// released when it goes (the runner's referenced_by wakes the user), a
// project whose name Keystone already holds (ProjectCollision, untouched), a
// latched transport error handed back to K-ORC, and the teardowns.
#include "actors/c5c3/keystoneuser/constants.hpp"
#include "actors/c5c3/korc/unlatch.hpp"
#include "tests/keystone_actor/keystone_fixture.hpp"
#include "tests/require_eventually.hpp"

namespace c5c3::testing {

BOOST_AUTO_TEST_SUITE(keystone_actor_integration)

BOOST_FIXTURE_TEST_CASE(a_keystone_user_from_order_to_teardown, keystone_fixture) {
  // The informers' lists and watches are not the order's requests.
  BOOST_TEST_REQUIRE(eventually([&] { return synced(); }));
  quiet();
  const auto at_order = operator_requests->by_method_code_host();
  create(user_order("alice"));
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return ready("keystoneusers.c5c3.io", "alice"); }),
                          reason("keystoneusers.c5c3.io", "alice", "UserReady") << " / "
                                                                              << reason("keystoneusers.c5c3.io", "alice", "DeliveryReady"));
  std::string until_ready;
  for (auto& [k, n] : operator_requests->by_method_code_host()) {
    auto it = at_order.find(k);
    if (auto d = n - (it == at_order.end() ? 0 : it->second))
      until_ready += std::get<0>(k) + " " + std::get<1>(k) + "=" + std::to_string(d) + " ";
  }
  BOOST_TEST_MESSAGE("operator requests from the order's creation until Ready: " << until_ready);
  auto order = get("keystoneusers.c5c3.io", "alice");
  BOOST_TEST(order.get_string({"status", "userID"}) == keystone->id("users", "alice"));
  BOOST_TEST(k8s::get_int(order.json(), {"status", "passwordGeneration"}).value_or(0) == 1);
  const auto password = secret("alice-credentials", "password");
  BOOST_TEST(password.size() == 43u);
  const auto clouds = secret("alice-credentials", "clouds.yaml");
  BOOST_TEST(clouds.find("username: \"alice\"") != std::string::npos);
  BOOST_TEST(clouds.find("password: \"" + password + "\"") != std::string::npos);
  BOOST_TEST(keystone->user("alice"));
  BOOST_TEST(labelled("users.openstack.k-orc.cloud", user_label, "alice") == 1u);  // the probe is gone
  BOOST_TEST(reg.render().find(R"(sub_reconciler="KeystoneUserDelivery",condition_type="DeliveryReady",status="True",reason="Delivered")") !=
             std::string::npos);

  BOOST_TEST_CONTEXT("a converged order makes zero API requests") {
    quiet();
    auto before = operator_requests->requests_total();
    std::this_thread::sleep_for(2s);
    BOOST_TEST(operator_requests->requests_total() == before);
  }

  BOOST_TEST_CONTEXT("passwordGeneration 2: a new password applied, the old Secret gone after") {
    auto r = world->merge_patch(user_gvk, "tenant-a", "alice", R"({"spec":{"passwordGeneration":2}})");
    BOOST_TEST_REQUIRE(r.ok());
    BOOST_TEST_REQUIRE(eventually([&] {
      return ready("keystoneusers.c5c3.io", "alice") &&
             k8s::get_int(get("keystoneusers.c5c3.io", "alice").json(), {"status", "passwordGeneration"}).value_or(0) == 2 &&
             secret("alice-credentials", "password") != password;
    }));
    for (auto& u : server.list_objects("users.openstack.k-orc.cloud", "openstack"))
      if (u.label(user_label).value_or("") == "alice")
        BOOST_TEST(std::string(u.get_string({"status", "resource", "appliedPasswordRef"})).ends_with("password-v2"));
    BOOST_TEST(eventually([&] { return labelled("secrets", user_label, "alice") == 2u; }));  // v2 and the source
  }

  BOOST_TEST_CONTEXT("deletion holds while an assignment names the user, then the sweep") {
    create(R"({"apiVersion":"c5c3.io/v1alpha1","kind":"KeystoneRoleAssignment","metadata":{"name":"ra-1","namespace":"tenant-a"},
      "spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"},"userRef":{"name":"alice"},"projectRef":{"name":"team"},"role":"member"}})");
    BOOST_TEST_REQUIRE(world->remove(user_gvk, "tenant-a", "alice").ok());
    BOOST_TEST_REQUIRE(eventually([&] { return reason("keystoneusers.c5c3.io", "alice", "UserReady") == "ReferencedByRoleAssignments"; }));
    BOOST_TEST(labelled("users.openstack.k-orc.cloud", user_label, "alice") == 1u);
    BOOST_TEST(get("keystoneusers.c5c3.io", "alice").find_condition("UserReady")->message.find("[\"ra-1\"]") !=
               std::string::npos);
    BOOST_TEST_REQUIRE(world->remove(assignment_gvk, "tenant-a", "ra-1").ok());
    BOOST_TEST_REQUIRE(eventually([&] { return !get("keystoneusers.c5c3.io", "alice"); }));
    BOOST_TEST(labelled("users.openstack.k-orc.cloud", user_label, "alice") == 0u);
    BOOST_TEST(labelled("secrets", user_label, "alice") == 0u);
    BOOST_TEST(labelled("pushsecrets.external-secrets.io", user_label, "alice") == 0u);
    BOOST_TEST(!get("secrets", "alice-credentials"));
    BOOST_TEST(eventually([&] { return !keystone->user("alice"); }));
  }
}

BOOST_FIXTURE_TEST_CASE(keystone_projects_ready_collision_unlatch_teardown, keystone_fixture) {
  keystone->create("projects", R"({"project":{"name":"taken","domain_id":"default"}})");
  create(project_order("team"));
  create(project_order("taken"));
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return ready("keystoneprojects.c5c3.io", "team"); }),
                          reason("keystoneprojects.c5c3.io", "team", "ProjectReady"));
  auto team = get("keystoneprojects.c5c3.io", "team");
  BOOST_TEST(team.get_string({"status", "projectID"}) == keystone->id("projects", "team"));
  BOOST_TEST(team.get_string({"status", "projectName"}) == "team");
  BOOST_TEST(team.get_string({"status", "domainName"}) == "Default");

  BOOST_TEST_CONTEXT("a name Keystone holds is a collision, and nothing managed is made") {
    BOOST_TEST_REQUIRE(eventually([&] { return reason("keystoneprojects.c5c3.io", "taken", "ProjectReady") == "ProjectCollision"; }));
    for (auto& p : server.list_objects("projects.openstack.k-orc.cloud", "openstack"))
      if (p.label(project_label).value_or("") == "taken") BOOST_TEST(p.get_string({"spec", "managementPolicy"}) == "unmanaged");
  }

  BOOST_TEST_CONTEXT("a latched transport error is handed back to K-ORC") {
    // Keystone unreachable while K-ORC creates the project: the create gets
    // no answer, which K-ORC latches as a terminal InvalidConfiguration.
    keystone->identity().set_down(true);
    create(project_order("flaky"));
    auto latched = [&] {
      for (auto& p : server.list_objects("projects.openstack.k-orc.cloud", "openstack"))
        if (p.label(project_label).value_or("") == "flaky" && p.get_string({"spec", "managementPolicy"}) == "managed" &&
            (c5c3::korc::transport_latched(p) || p.annotation(c5c3::korc::annotation_unlatched_at)))
          return true;
      return false;
    };
    BOOST_TEST_REQUIRE(eventually(latched));
    keystone->identity().set_down(false);
    // The first latch is cleared at once, a later one after the 30 s backoff.
    C5C3_REQUIRE_EVENTUALLY(eventually([&] { return ready("keystoneprojects.c5c3.io", "flaky"); }, 120),
                            reason("keystoneprojects.c5c3.io", "flaky", "ProjectReady"));
    bool stamped = false;
    for (auto& p : server.list_objects("projects.openstack.k-orc.cloud", "openstack"))
      if (p.label(project_label).value_or("") == "flaky" && p.annotation(c5c3::korc::annotation_unlatched_at)) stamped = true;
    BOOST_TEST(stamped);
    BOOST_TEST(keystone->project("flaky"));
  }

  BOOST_TEST_CONTEXT("deletion sweeps the managed Project and the probe") {
    for (auto name : {"team", "taken", "flaky"}) BOOST_TEST_REQUIRE(world->remove(project_gvk, "tenant-a", name).ok());
    BOOST_TEST_REQUIRE(eventually([&] {
      return !get("keystoneprojects.c5c3.io", "team") && !get("keystoneprojects.c5c3.io", "taken") &&
             !get("keystoneprojects.c5c3.io", "flaky");
    }));
    BOOST_TEST(server.list_objects("projects.openstack.k-orc.cloud", "openstack").empty());
    BOOST_TEST(eventually([&] { return !keystone->project("team") && !keystone->project("flaky"); }));
    BOOST_TEST(keystone->project("taken"));  // untouched
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
