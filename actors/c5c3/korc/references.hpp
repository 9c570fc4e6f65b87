// The references an order makes to a KeystoneUser and a KeystoneProject
// (keystone-orders-reconcilers.txt "Role assignment" 2, "Application
// credential provisioning": roleAssignmentReference.gate; "Watches"). Both
// are read in the order's namespace on the order's cluster, from that
// cluster's cache: a missing one reads UserNotFound or ProjectNotFound, one of
// another ControlPlane ControlPlaneMismatch, one not provisioned yet
// (UserReady, ProjectReady not True) WaitingForUser or WaitingForProject.
// The declaration's `references` wake every order naming a user or a project
// when it changes in a way the gate reads: a spec change, a deletion, or a
// change of Ready or of the gate's condition.
#pragma once

#include "actors/c5c3/korc/order_pass.hpp"
#include "actors/c5c3/scaffold/admission.hpp"
#include "actors/runtime/runner/declaration.hpp"
#include "k8s/object.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace c5c3::c5c3::korc {

inline constexpr std::string_view reason_user_not_found = "UserNotFound";
inline constexpr std::string_view reason_project_not_found = "ProjectNotFound";
inline constexpr std::string_view reason_control_plane_mismatch = "ControlPlaneMismatch";
inline constexpr std::string_view reason_waiting_for_user = "WaitingForUser";
inline constexpr std::string_view reason_waiting_for_project = "WaitingForProject";

inline constexpr std::string_view slot_user = "user";
inline constexpr std::string_view slot_project = "project";

k8s::gvk keystone_user_gvk();
k8s::gvk keystone_project_gvk();

// The named slots "user" and "project": spec.userRef.name and
// spec.projectRef.name of a live order, in its namespace on its cluster
// (optional: a cluster that does not serve the kind has none).
std::vector<runtime::read_slot> reference_slots();

// Whether an update of a referenced order is one the gate reads: the
// generation or the deletion moved, or Ready or `gate_condition` changed its
// status or reason.
bool reference_update_passes(const k8s::object& old, const k8s::object& now, std::string_view gate_condition);

// The `references` of a kind naming a user and a project by
// spec.userRef.name and spec.projectRef.name, filtered as above.
std::vector<runtime::reference_field> user_project_references();

// A kind whose objects share spec.userRef.name and spec.projectRef.name with
// the orders (a credential order and the assignments of its user and
// project), every event waking.
runtime::reference_field same_user_and_project(k8s::gvk gvk);

struct reference_input {
  const order_identity* order = nullptr;
  std::string user_name;     // spec.userRef.name
  std::string project_name;  // spec.projectRef.name
  const k8s::object* user = nullptr;     // null: not found
  const k8s::object* project = nullptr;  // null: not found
  bool users_served = true;
  bool projects_served = true;
};

// The gate: both exist, then both belong to the order's ControlPlane, then
// the user, then the project, is provisioned. Refused: the reason and a
// message naming the referenced order; no requeue of its own (the order's
// unconverged result and the reference watches bring it back).
gate_result reference_gate(const reference_input& in);

}  // namespace c5c3::c5c3::korc
