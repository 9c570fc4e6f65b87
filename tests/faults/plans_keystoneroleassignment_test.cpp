// Generated perturbation plans for the KeystoneRoleAssignment order (issue
// 18), on the shared runner (plan_runner.hpp, keystone_scenario.hpp). The
// scenario: a user, a project and the assignment ra1 of the member role,
// converged; a second order ra2 of the same user, project and role (the
// change: the duplicate rule through the order cache's field index); ra1
// deleted, and ra2 takes over. Oracle: the end state equals the reference's
// (ra1 gone with its Role import and RoleAssignment; ra2 Ready with one of
// each and the role assigned in Keystone) and so do the operator's
// successful creates and deletes per kind (no second RoleAssignment, none
// left behind).
//
// C5C3_FAULT_PLANS picks the plans (plan_runner.hpp); the default is what CI
// runs.
#include "tests/faults/keystone_scenario.hpp"

namespace c5c3::testing {
namespace {

const std::string assignment_resource = "keystoneroleassignments.c5c3.io";
const std::string assignment_label = "c5c3.io/keystoneroleassignment-name";

struct keystoneroleassignment_scenario : faults::keystone_scenario {
  explicit keystoneroleassignment_scenario(bool start) : keystone_scenario(start) {}

  std::vector<faults::scenario_step> steps() {
    return {create_step("create", {user_order("alice"), project_order("team"), assignment_order("ra1", "alice", "team")},
                        [this] { return not_ready(assignment_resource, "ra1", {"AssignmentReady"}); }),
            create_step("duplicate", {assignment_order("ra2", "alice", "team")},
                        [this] {
                          auto r = reason(assignment_resource, "ra2", "AssignmentReady");
                          return r == "DuplicateRoleAssignment" ? "" : "ra2(AssignmentReady=" + r + ")";
                        }),
            {"delete", [this] { remove(assignment_gvk, "ra1"); },
             [this] {
               return not_gone(assignment_resource, "ra1") + not_ready(assignment_resource, "ra2", {"AssignmentReady"});
             }}};
  }

  std::vector<std::string> order_names() const { return {"ra1", "ra2"}; }

  std::string order_state(const std::string& name) const {
    auto o = get(assignment_resource, name);
    return fmt::format("exists={} ready={} reason={} {}assigned={} ids={}", static_cast<bool>(o), o && ready(o),
                       reason(assignment_resource, name, "AssignmentReady"),
                       korc_children(assignment_label, name, {"roles", "roleassignments"}),
                       keystone->assigned("member", "alice", "team"),
                       o && o.get_string({"status", "userID"}) == keystone->id("users", "alice") &&
                           o.get_string({"status", "projectID"}) == keystone->id("projects", "team"));
  }

  void expect_reference() const {
    BOOST_TEST(order_state("ra1") == "exists=false ready=false reason= roles=0 roleassignments=0 assigned=true ids=false");
    BOOST_TEST(order_state("ra2") ==
               "exists=true ready=true reason=RoleAssigned roles=1 roleassignments=1 assigned=true ids=true");
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans_keystoneroleassignment)

BOOST_AUTO_TEST_CASE(every_chosen_plan_ends_as_the_reference_run) {
  faults::every_chosen_plan_ends_as_the_reference_run<keystoneroleassignment_scenario>(3, assignment_resource);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
