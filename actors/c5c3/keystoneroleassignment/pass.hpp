// One pass of a KeystoneRoleAssignment as a pure plan
// (keystone-orders-reconcilers.txt "Role assignment", "Deletion and
// Teardown"): a deleting order's hold (a credential order with the same user
// and project: ReferencedByApplicationCredentials) and its sweep (the
// RoleAssignment, then the Role import); or admission and the freeze, the
// finalizer, the admin-credential gate, then the role allowlist, the
// references, the duplicate rule (each refusal the result of an unconverged
// order), assignRole, the aggregate Ready and orderPassResult.
#pragma once

#include "actors/c5c3/keystoneroleassignment/provision.hpp"
#include "actors/c5c3/korc/order_pass.hpp"
#include "actors/c5c3/scaffold/teardown.hpp"
#include "actors/runtime/runner/snapshot.hpp"

#include <vector>

namespace c5c3::c5c3::keystoneroleassignment {

inline constexpr std::string_view slot_peers = "peers";

struct pass_snapshot {
  const k8s::object* order = nullptr;
  std::string cluster;
  const k8s::object* control_plane = nullptr;
  const k8s::object* user = nullptr;     // the KeystoneUser spec.userRef names (null: none)
  const k8s::object* project = nullptr;  // the KeystoneProject spec.projectRef names
  bool users_served = true;
  bool projects_served = true;
  std::vector<k8s::object> peers;  // the KeystoneRoleAssignments of the order's namespace
  bool roles_served = true;
  bool role_assignments_served = true;
  std::vector<k8s::object> roles;
  std::vector<k8s::object> role_assignments;
  std::vector<k8s::object> application_credentials;  // a deleting order's hold
  std::vector<k8s::object> read_by_name;
  k8s::time_point now;
};

// The sweep: the RoleAssignment first, then the Role import.
sweep_result sweep_role_assignment_children(const assignment_order& o, const std::vector<k8s::object>& role_assignments,
                                            const std::vector<k8s::object>& roles);

korc::order_pass_plan plan_pass(const pass_snapshot& s);

}  // namespace c5c3::c5c3::keystoneroleassignment
