// assignRole (keystone-orders-reconcilers.txt "Role assignment" 4-5; apis.md
// 1.6): the unmanaged Role import <prefix>role filtered by the role's name,
// and the managed RoleAssignment <prefix>assignment binding the user's
// <user prefix>user to the project's <project prefix>project, both through
// the admin password cloud (applyAccountRole). A terminal error reads
// RoleAssignmentFailed; a child not Available yet WaitingForServiceAccounts,
// whose message adds after 2 minutes that the role may not exist. On
// Available, roleID, userID and projectID come from the RoleAssignment's
// status.resource and AssignmentReady reads RoleAssigned.
#pragma once

#include "actors/c5c3/keystoneroleassignment/spec.hpp"
#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/pass_result.hpp"

#include <string>
#include <vector>

namespace c5c3::c5c3::keystoneroleassignment {

inline constexpr std::string_view slot_roles = "roles";
inline constexpr std::string_view slot_role_assignments = "role_assignments";

struct provision_snapshot {
  const assignment_order* order = nullptr;
  const k8s::object* control_plane = nullptr;
  bool roles_served = true;
  bool role_assignments_served = true;
  std::vector<k8s::object> roles;             // by the order's labels
  std::vector<k8s::object> role_assignments;  // by the order's labels
  std::vector<k8s::object> read_by_name;
  k8s::time_point now;
};

struct provision_plan {
  std::vector<child_write> writes;
  assignment_status status;
  k8s::condition assignment_ready;
  c5c3::requeue requeue;
  std::string waiting_slot;  // the child it waits for (explain)
  std::string waiting_name;
};

provision_plan assign_role(const provision_snapshot& s);

}  // namespace c5c3::c5c3::keystoneroleassignment
