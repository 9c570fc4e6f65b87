// The KeystoneRoleAssignment (keystone-orders-reconcilers.txt "Role
// assignment" 1-5, "Deletion and Teardown", "Watches"; apis.md 1.6): one row
// per behaviour: the allowlist (the freeze), the references, the duplicate
// rule, assignRole with its waits and the role-may-not-exist hint, the
// status fields, the hold while a credential order has the same user and
// project, the sweep; the reference watches' filter; and a pass loop against
// the pure world stand-in.
#include "actors/c5c3/keystoneroleassignment/declaration.hpp"
#include "actors/c5c3/keystoneroleassignment/pass.hpp"
#include "actors/c5c3/keystoneroleassignment/refusals.hpp"
#include "actors/c5c3/korc/references.hpp"
#include "tests/c5c3/keystone_converge.hpp"

#include <boost/test/unit_test.hpp>

#include <fmt/format.h>

using namespace c5c3::test;
using namespace std::chrono_literals;
namespace ra = c5c3::c5c3::keystoneroleassignment;
namespace korc = c5c3::c5c3::korc;

namespace {

const std::string label = "c5c3.io/keystoneroleassignment-name";

struct world_fixture {
  keystone_world w;
  object cp = keystone_control_plane();
  object user = referenced_user("alice");
  object project = referenced_project("team");
  std::vector<object> peers;
  time_point now = t0();

  korc::order_pass_plan plan(const object& order, const object* control_plane, std::string cluster = "") {
    ra::pass_snapshot s;
    s.order = &order;
    s.cluster = cluster;
    s.control_plane = control_plane;
    s.user = user ? &user : nullptr;
    s.project = project ? &project : nullptr;
    s.peers = peers;
    s.roles = w.labelled("Role", "openstack", label);
    s.role_assignments = w.labelled("RoleAssignment", "openstack", label);
    s.application_credentials = w.of_kind("KeystoneApplicationCredential", "tenant-a");
    s.now = now;
    return ra::plan_pass(s);
  }
  korc::order_pass_plan plan(const object& order) { return plan(order, &cp); }
};

k8s::condition assignment_ready(const korc::order_pass_plan& p) {
  BOOST_REQUIRE(p.status);
  auto c = p.status->find_condition("AssignmentReady");
  BOOST_REQUIRE(c);
  return *c;
}

std::string spec(std::string_view user, std::string_view project, std::string_view role) {
  return fmt::format(R"({{"controlPlaneRef":{{"name":"cp","namespace":"openstack"}},"userRef":{{"name":"{}"}},)"
                     R"("projectRef":{{"name":"{}"}},"role":"{}"}})",
                     user, project, role);
}

// The K-ORC objects of an order named `name`, from its names.
ra::assignment_names names_of(const object& order, std::string cluster = "") {
  return ra::assignment_names(ra::make_assignment_order(order, cluster));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(keystoneroleassignment_steps)

// 1. A role outside the entry's allowedRoles: RoleNotAllowed naming the list;
// nothing is written; the result of an unconverged order.
BOOST_FIXTURE_TEST_CASE(the_role_allowlist_freezes_the_order, world_fixture) {
  struct row {
    const char* what;
    std::string role;
    std::string cluster;
    std::string message;
  };
  const std::vector<row> rows{
      {"a role off the list", "admin", "",
       R"(ControlPlane openstack/cp admits roles ["member" "reader"] from namespace "tenant-a" on the management cluster (spec.namespaceAssignments); ["admin"] is not on that list)"},
      {"the match is case-sensitive", "Member", "",
       R"(ControlPlane openstack/cp admits roles ["member" "reader"] from namespace "tenant-a" on the management cluster (spec.namespaceAssignments); ["Member"] is not on that list)"},
      {"an entry without roles admits none", "member", "edge-1",
       R"(ControlPlane openstack/cp admits roles [] from namespace "tenant-a" on target cluster "edge-1" (spec.namespaceAssignments); ["member"] is not on that list)"},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      auto order = keystone_role_assignment_object("ra", spec("alice", "team", r.role));
      auto p = plan(order, &cp, r.cluster);
      auto c = assignment_ready(p);
      BOOST_TEST(c.reason == "RoleNotAllowed");
      BOOST_TEST(c.message == r.message);
      BOOST_TEST(p.writes.empty());
      BOOST_TEST((p.requeue == 10min));
    }
  }
}

// 2. The references, in the order's namespace on its cluster.
BOOST_FIXTURE_TEST_CASE(the_references, world_fixture) {
  struct row {
    const char* what;
    object user, project;
    std::string reason, fragment, slot;
  };
  const std::vector<row> rows{
      {"no user", {}, referenced_project("team"), "UserNotFound",
       "KeystoneUser tenant-a/alice not found on the management cluster", "user"},
      {"no project", referenced_user("alice"), {}, "ProjectNotFound", "KeystoneProject tenant-a/team not found", "project"},
      {"neither: the user first", {}, {}, "UserNotFound", "KeystoneUser tenant-a/alice", "user"},
      {"a user of another ControlPlane", referenced_user("alice", true, "other"), referenced_project("team"),
       "ControlPlaneMismatch", "KeystoneUser tenant-a/alice belongs to ControlPlane openstack/other, not to ControlPlane openstack/cp", ""},
      {"a project of another ControlPlane", referenced_user("alice"), referenced_project("team", true, "other"),
       "ControlPlaneMismatch", "KeystoneProject tenant-a/team belongs to ControlPlane openstack/other", ""},
      {"a user not provisioned yet", referenced_user("alice", false), referenced_project("team"), "WaitingForUser",
       "KeystoneUser tenant-a/alice is not provisioned yet (UserReady False: WaitingForUser)", "user"},
      {"a project not provisioned yet", referenced_user("alice"), referenced_project("team", false),
       "WaitingForProject", "KeystoneProject tenant-a/team is not provisioned yet (ProjectReady False", "project"},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      user = r.user;
      project = r.project;
      auto p = plan(keystone_role_assignment_object());
      auto c = assignment_ready(p);
      BOOST_TEST(c.reason == r.reason);
      BOOST_TEST(c.message.find(r.fragment) != std::string::npos, c.message);
      BOOST_TEST(p.writes.empty());
      BOOST_TEST((p.requeue == 10min));
      BOOST_TEST(p.waiting_slot == r.slot);
    }
  }
}

// 3. The duplicate rule: the younger order (creationTimestamp, then name)
// reads DuplicateRoleAssignment; the older proceeds.
BOOST_FIXTURE_TEST_CASE(the_duplicate_rule, world_fixture) {
  auto mine = keystone_role_assignment_object("ra-b", "", "{}", true, "2026-12-01T00:00:10Z");
  struct row {
    const char* what;
    object peer;
    bool duplicate;
  };
  const std::vector<row> rows{
      {"an older order of the same triple", keystone_role_assignment_object("ra-z", "", "{}", true, "2026-12-01T00:00:05Z"), true},
      {"a younger one", keystone_role_assignment_object("ra-a", "", "{}", true, "2026-12-01T00:00:20Z"), false},
      {"the same second, a smaller name", keystone_role_assignment_object("ra-a", "", "{}", true, "2026-12-01T00:00:10Z"), true},
      {"the same second, a larger name", keystone_role_assignment_object("ra-c", "", "{}", true, "2026-12-01T00:00:10Z"), false},
      {"another role", keystone_role_assignment_object("ra-z", spec("alice", "team", "reader"), "{}", true, "2026-12-01T00:00:05Z"), false},
      {"another user", keystone_role_assignment_object("ra-z", spec("bob", "team", "member"), "{}", true, "2026-12-01T00:00:05Z"), false},
      {"a terminating older one still holds its assignment",
       terminating(keystone_role_assignment_object("ra-z", "", "{}", true, "2026-12-01T00:00:05Z")), true},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      peers = {mine, r.peer};
      auto p = plan(mine);
      auto c = assignment_ready(p);
      BOOST_TEST((c.reason == "DuplicateRoleAssignment") == r.duplicate, c.reason << ": " << c.message);
      if (r.duplicate) {
        BOOST_TEST(c.message.find(fmt::format("KeystoneRoleAssignment tenant-a/{} (older)", r.peer.name())) !=
                   std::string::npos);
        BOOST_TEST(p.writes.empty());
        BOOST_TEST(p.waiting_slot == "peers");
        BOOST_TEST(p.waiting_name == r.peer.name());
      } else {
        BOOST_TEST(!p.writes.empty());
      }
    }
  }
}

// 4. assignRole: the Role import and the RoleAssignment binding the user's
// and the project's K-ORC objects, in one plan.
BOOST_FIXTURE_TEST_CASE(assign_role_writes_the_import_and_the_binding, world_fixture) {
  auto order = keystone_role_assignment_object();
  auto n = names_of(order);
  auto p = plan(order);
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"create Role openstack/" + n.role(),
                                                            "create RoleAssignment openstack/" + n.assignment()}));
  const auto& role = p.writes[0].body;
  BOOST_TEST(role.get_string({"spec", "managementPolicy"}) == "unmanaged");
  BOOST_TEST(role.get_string({"spec", "import", "filter", "name"}) == "member");
  const auto& binding = p.writes[1].body;
  BOOST_TEST(binding.get_string({"spec", "managementPolicy"}) == "managed");
  BOOST_TEST(binding.get_string({"spec", "resource", "roleRef"}) == n.role());
  BOOST_TEST(binding.get_string({"spec", "resource", "userRef"}) == n.user_child);
  BOOST_TEST(binding.get_string({"spec", "resource", "projectRef"}) == n.project_child);
  BOOST_TEST((n.user_child.starts_with("alice-") && n.user_child.ends_with("-user-user")), n.user_child);
  BOOST_TEST((n.project_child.starts_with("team-") && n.project_child.ends_with("-project-project")), n.project_child);
  BOOST_TEST(binding.get_string({"spec", "cloudCredentialsRef", "secretName"}) == "cp-admin-password-cloud");
  BOOST_TEST(binding.label(label).value_or("") == "ra");
  auto c = assignment_ready(p);
  BOOST_TEST(c.reason == "WaitingForServiceAccounts");
  BOOST_TEST((p.requeue == 10s));
}

// 4-5. The outcomes: pending (the hint after 2 minutes), terminal, assigned.
BOOST_FIXTURE_TEST_CASE(assign_role_outcomes, world_fixture) {
  auto order = keystone_role_assignment_object();
  auto n = names_of(order);
  for (auto& wr : plan(order).writes) w.apply(wr);
  auto with_created = [&](const char* kind, const std::string& name, auto f) {
    auto o = f(*w.get(kind, "openstack", name));
    auto b = o.edit();
    b.set_string({"metadata", "creationTimestamp"}, "2026-12-01T00:00:00Z");
    w.put(std::move(b).freeze());
  };
  with_created("Role", n.role(), [](const object& o) { return korc_created_externally(o); });
  with_created("RoleAssignment", n.assignment(), [](const object& o) { return korc_pending(o, "Waiting for Role/x to be ready"); });
  auto p = plan(order);
  auto c = assignment_ready(p);
  BOOST_TEST(c.reason == "WaitingForServiceAccounts");
  BOOST_TEST(c.message.find("Role openstack/" + n.role() + " is not yet Available") != std::string::npos, c.message);
  BOOST_TEST(c.message.find("may not exist") == std::string::npos);
  BOOST_TEST(p.waiting_slot == "roles");
  now = t0() + 2min;
  c = assignment_ready(plan(order));
  BOOST_TEST(c.message.find("after 2m0s the role \"member\" may not exist in Keystone") != std::string::npos, c.message);

  with_created("Role", n.role(), [](const object& o) { return korc_available(o, "role-id"); });
  c = assignment_ready(plan(order));
  BOOST_TEST(c.reason == "WaitingForServiceAccounts");
  BOOST_TEST(c.message.find("RoleAssignment openstack/" + n.assignment()) != std::string::npos);

  with_created("RoleAssignment", n.assignment(),
               [](const object& o) { return korc_terminal(o, "InvalidConfiguration", "bad reference"); });
  c = assignment_ready(plan(order));
  BOOST_TEST(c.reason == "RoleAssignmentFailed");
  BOOST_TEST(c.message == "K-ORC reported a terminal error on RoleAssignment openstack/" + n.assignment() +
                              ": bad reference");

  with_created("RoleAssignment", n.assignment(), [](const object& o) {
    auto a = korc_resource(korc_available(o, ""), "roleID", "role-id");
    return korc_resource(korc_resource(a, "userID", "user-id"), "projectID", "project-id");
  });
  auto done = plan(order);
  c = assignment_ready(done);
  BOOST_TEST(c.reason == "RoleAssigned");
  BOOST_TEST(c.message.find("RoleAssignment openstack/" + n.assignment()) != std::string::npos);
  auto st = ra::read_status(*done.status);
  BOOST_TEST(st.role_id == "role-id");
  BOOST_TEST(st.user_id == "user-id");
  BOOST_TEST(st.project_id == "project-id");
  BOOST_TEST(done.status->find_condition("Ready")->is_true());
  BOOST_TEST(!done.requeue);  // converged on the management cluster: wait for an event
}

// A foreign object of a child's name is refused (RoleAssignmentError).
BOOST_FIXTURE_TEST_CASE(a_foreign_child_is_refused, world_fixture) {
  auto order = keystone_role_assignment_object();
  auto n = names_of(order);
  w.put(make_object("openstack.k-orc.cloud/v1alpha1", "Role", "openstack", n.role()));
  ra::provision_snapshot ps;
  auto o = ra::make_assignment_order(order, "");
  ps.order = &o;
  ps.control_plane = &cp;
  ps.read_by_name = {*w.get("Role", "openstack", n.role())};
  ps.now = t0();
  auto p = ra::assign_role(ps);
  BOOST_TEST(p.assignment_ready.reason == "RoleAssignmentError");
  BOOST_TEST(p.assignment_ready.message.find("refusing to adopt pre-existing Role") != std::string::npos);
  ps.read_by_name.clear();
  ps.roles_served = false;
  p = ra::assign_role(ps);
  BOOST_TEST(p.assignment_ready.reason == "RoleAssignmentError");
  BOOST_TEST(p.assignment_ready.message.find("roles.openstack.k-orc.cloud") != std::string::npos);
}

// Deletion: held while a credential order has the same user and project;
// then the RoleAssignment, then the Role import; released once none is left
// (or at once with the ControlPlane gone).
BOOST_FIXTURE_TEST_CASE(hold_and_teardown, world_fixture) {
  auto order = keystone_role_assignment_object();
  auto n = names_of(order);
  for (auto& wr : plan(order).writes) w.apply(wr);
  order = terminating(order);
  w.put(application_credential("cred-other", "alice", "elsewhere"));
  w.put(application_credential("cred-1", "alice", "team"));
  auto p = plan(order);
  BOOST_TEST((p.stage == korc::pass_stage::hold));
  auto c = assignment_ready(p);
  BOOST_TEST(c.reason == "ReferencedByApplicationCredentials");
  BOOST_TEST(c.message.find(R"(KeystoneApplicationCredential(s) ["cred-1"] in namespace "tenant-a")") !=
             std::string::npos, c.message);
  BOOST_TEST(p.writes.empty());
  BOOST_TEST((p.requeue == 1min));
  w.objects.erase({"KeystoneApplicationCredential", "tenant-a", "cred-1"});
  p = plan(order);
  BOOST_TEST((p.stage == korc::pass_stage::teardown));
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"delete RoleAssignment openstack/" + n.assignment(),
                                                            "delete Role openstack/" + n.role()}));
  BOOST_TEST(!p.release_finalizer);
  BOOST_TEST((p.requeue == 10s));
  auto gone = plan(order, nullptr);
  BOOST_TEST(gone.release_finalizer);
  for (auto& wr : p.writes) w.apply(wr);
  BOOST_TEST(plan(order).release_finalizer);
}

// The gates come first; the finalizer only past admission.
BOOST_FIXTURE_TEST_CASE(gates_before_the_steps, world_fixture) {
  auto p = plan(keystone_role_assignment_object("ra", "", "{}", false), nullptr);
  BOOST_TEST(assignment_ready(p).reason == "ControlPlaneNotFound");
  BOOST_TEST(!p.add_finalizer);
  BOOST_TEST(plan(keystone_role_assignment_object("ra", "", "{}", false)).add_finalizer);
  auto not_ready = keystone_control_plane(false);
  BOOST_TEST(assignment_ready(plan(keystone_role_assignment_object(), &not_ready)).reason == "WaitingForAdminCredential");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(keystoneroleassignment_watches)

// The user's and the project's updates that wake the assignments naming
// them: a spec change, a deletion, a change of Ready or of the gate's
// condition; not a status write that moves neither.
BOOST_AUTO_TEST_CASE(the_reference_filter) {
  auto refs = ra::references();
  BOOST_REQUIRE(refs.size() == 4u);
  const auto& by_user = refs[0];
  BOOST_TEST(by_user.gvk.kind == "KeystoneUser");
  BOOST_TEST((by_user.path == std::vector<std::string>{"spec", "userRef", "name"}));
  BOOST_TEST(refs[1].gvk.kind == "KeystoneProject");
  BOOST_TEST(refs[2].gvk.kind == "KeystoneApplicationCredential");
  BOOST_TEST(refs[2].shared.size() == 2u);
  BOOST_TEST(refs[3].gvk.kind == "KeystoneRoleAssignment");
  BOOST_TEST(refs[3].shared.size() == 3u);
  auto ready = referenced_user("alice"), waiting = referenced_user("alice", false);
  auto message_only = [&] {
    auto b = ready.edit();
    b.set_string({"status", "userID"}, "id");
    return std::move(b).freeze();
  }();
  auto respec = [&] {
    auto b = ready.edit();
    b.set_int({"metadata", "generation"}, 2);
    return std::move(b).freeze();
  }();
  struct row {
    const char* what;
    object old, now;
    bool passes;
  };
  const std::vector<row> rows{
      {"a status write moving nothing read", ready, message_only, false},
      {"UserReady and Ready flip", waiting, ready, true},
      {"a spec change", ready, respec, true},
      {"the deletion starts", ready, terminating(ready), true},
  };
  for (const auto& r : rows)
    BOOST_TEST_CONTEXT(r.what) { BOOST_TEST(by_user.passes(r.old, r.now) == r.passes); }
  BOOST_TEST(korc::reference_update_passes(referenced_project("team", false), referenced_project("team"), "ProjectReady"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(keystoneroleassignment_converge)

// The whole order against the stand-in, with the user and the project
// provisioned there: RoleAssigned with the ids, quiet once converged, then
// the teardown.
BOOST_FIXTURE_TEST_CASE(converges_and_tears_down, world_fixture) {
  auto order = keystone_role_assignment_object("ra", "", "{}", false);
  auto n = names_of(order);
  w.put(korc_available(make_object("openstack.k-orc.cloud/v1alpha1", "User", "openstack", n.user_child), "id-alice"));
  w.put(korc_available(make_object("openstack.k-orc.cloud/v1alpha1", "Project", "openstack", n.project_child), "id-team"));
  auto run = [&](int max) { return drive(w, order, ra::finalizer, [&](const object& o) { return plan(o); }, max); };
  BOOST_TEST_REQUIRE(run(10) > 0);
  BOOST_TEST(order.find_condition("Ready")->is_true(), order.find_condition("AssignmentReady")->message);
  auto st = ra::read_status(order);
  BOOST_TEST(st.role_id == "id-role-member");
  BOOST_TEST(st.user_id == "id-alice");
  BOOST_TEST(st.project_id == "id-team");
  auto quiet = plan(order);
  BOOST_TEST(quiet.writes.empty());
  BOOST_TEST(!quiet.status);
  order = terminating(order);
  run(5);
  BOOST_TEST(!order.has_finalizer(ra::finalizer));
  BOOST_TEST(w.labelled("RoleAssignment", "openstack", label).empty());
  BOOST_TEST(w.labelled("Role", "openstack", label).empty());
}

BOOST_AUTO_TEST_SUITE_END()
