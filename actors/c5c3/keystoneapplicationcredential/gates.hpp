// The three reference gates of a KeystoneApplicationCredential
// (keystone-orders-reconcilers.txt "Application credential provisioning"),
// run on every pass past the shared gates: the KeystoneUser and the
// KeystoneProject the order names, through the gate an assignment's
// references pass (korc::reference_gate: not found, another ControlPlane, not
// provisioned yet), then roleAssignedOnProject: a KeystoneRoleAssignment of
// the namespace binding the same user and project that reports status.roleID
// (a frozen assignment keeps its role in Keystone, so the role id is read,
// not AssignmentReady); without one, NoRoleOnProject. The watches' update
// filters (declaration.hpp's references) are here too.
#pragma once

#include "actors/c5c3/keystoneapplicationcredential/spec.hpp"
#include "actors/c5c3/korc/references.hpp"
#include "k8s/object.hpp"

#include <string_view>
#include <vector>

namespace c5c3::c5c3::keystoneapplicationcredential {

struct gate_input {
  const credential_order* order = nullptr;
  // Read in the order's namespace on its cluster (null: not found).
  const k8s::object* user = nullptr;
  const k8s::object* project = nullptr;
  bool users_served = true;
  bool projects_served = true;
  // Every KeystoneRoleAssignment of that namespace (none when the cluster
  // does not serve the kind).
  const std::vector<k8s::object>* role_assignments = nullptr;
};

// Refused: CredentialReady's reason and message; no requeue of its own (the
// reference watches bring the order back).
gate_result reference_gates(const gate_input& in);

// roleAssignmentBindsCredentialPair and a reported status.roleID.
bool role_assigned_on_project(const std::vector<k8s::object>& role_assignments, std::string_view user,
                              std::string_view project);

// keystoneApplicationCredentialRoleAssignmentPredicate: a spec change, a
// change of the deletion timestamp, or of status.roleID.
bool role_assignment_update_passes(const k8s::object& before, const k8s::object& after);
// keystoneApplicationCredentialReferencePredicate: what korc's user
// reference passes, or a move of the user's status.passwordGeneration.
bool user_update_passes(const k8s::object& before, const k8s::object& after);

}  // namespace c5c3::c5c3::keystoneapplicationcredential
