// The three reference gates of a KeystoneApplicationCredential
// (keystone-orders-reconcilers.txt "Application credential provisioning"),
// run on every pass past the shared gates: the KeystoneUser and the
// KeystoneProject the order names, gated as an assignment's references are
// (roleAssignmentReference.gate: not found, another ControlPlane, not
// provisioned yet; to be joined with the assignment's own gate once both
// kinds share one), then roleAssignedOnProject: a KeystoneRoleAssignment
// of the namespace binding the same user and project that reports
// status.roleID (a frozen assignment keeps its role in Keystone, so the role
// id is read, not AssignmentReady); without one, NoRoleOnProject.
#pragma once

#include "actors/c5c3/keystoneapplicationcredential/spec.hpp"
#include "actors/runtime/runner/declaration.hpp"
#include "k8s/object.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace c5c3::c5c3::keystoneapplicationcredential {

struct gate_input {
  const credential_order* order = nullptr;
  // Read in the order's namespace on its cluster (null: not found).
  const k8s::object* user = nullptr;
  const k8s::object* project = nullptr;
  // Every KeystoneRoleAssignment of that namespace (none when the cluster
  // does not serve the kind).
  const std::vector<k8s::object>* role_assignments = nullptr;
};

struct gate_result {
  bool admitted = false;
  std::string reason;  // CredentialReady's reason when refused
  std::string message;
};

gate_result reference_gates(const gate_input& in);

k8s::gvk keystone_user_gvk();
k8s::gvk keystone_project_gvk();

// One referenced order kind: KeystoneUser or KeystoneProject.
struct reference_kind {
  std::string_view kind;             // KeystoneUser
  std::string_view noun;             // user
  std::string_view ready_condition;  // UserReady
  std::string_view not_found;        // UserNotFound
  std::string_view waiting;          // WaitingForUser
};
reference_kind user_reference();
reference_kind project_reference();

// roleAssignmentReference.gate for one reference: `referenced` is the order
// `name` as read in `namespace_` on the order's cluster (`location`, e.g.
// "the management cluster"; null: not found); `control_plane` the order's
// resolved controlPlaneRef.
gate_result gate_reference(const reference_kind& k, const k8s::object* referenced, std::string_view name,
                           std::string_view namespace_, std::string_view location,
                           const k8s::object_key& control_plane);

// The named read of the order spec.<ref_field>.name names, of `gvk`, in the
// order's namespace on its cluster, for a live order only.
runtime::read_slot referenced_order_slot(std::string id, k8s::gvk gvk, std::string ref_field);

// roleAssignmentBindsCredentialPair and a reported status.roleID.
bool role_assigned_on_project(const std::vector<k8s::object>& role_assignments, std::string_view user,
                              std::string_view project);

// keystoneApplicationCredentialRoleAssignmentPredicate: a spec change, a
// change of the deletion timestamp, or of status.roleID. (The runner's
// references have no update filter yet: kept for the join.)
bool role_assignment_update_passes(const k8s::object& before, const k8s::object& after);
// keystoneApplicationCredentialReferencePredicate: a spec change, a deletion,
// a change of Ready, UserReady or ProjectReady, or a move of the user's
// status.passwordGeneration (the mint document follows it).
bool user_update_passes(const k8s::object& before, const k8s::object& after);

}  // namespace c5c3::c5c3::keystoneapplicationcredential
