// The KeystoneRoleAssignment kind as the order runner runs it: its reads
// (the K-ORC Roles and RoleAssignments by the order's labels in the
// ControlPlane's namespace; the KeystoneUser and KeystoneProject it names and
// its peers, the KeystoneRoleAssignments of its namespace, from its
// cluster's cache; for a deleting order the KeystoneApplicationCredentials of
// its namespace), the references that wake it (the user and the project it
// names, a credential order of the same user and project, a peer of the same
// user, project and role), the holds it is read for (referenced_by on the
// user's and the project's side), the adapter to plan_pass and its
// constants. Pure: no actor, no request.
#pragma once

#include "actors/c5c3/keystoneroleassignment/pass.hpp"
#include "actors/runtime/runner/declaration.hpp"

#include <memory>

namespace c5c3::c5c3::keystoneroleassignment {

k8s::gvk order_gvk();
// The field selector of the peers slot: the order's spec.userRef.name,
// spec.projectRef.name and spec.role, the keys of the duplicate rule.
std::string peer_fields(const k8s::object& order);
std::vector<runtime::read_slot> reads();
std::vector<runtime::reference_field> references();
pass_snapshot snapshot_of(const runtime::sense_snapshot& s);
std::shared_ptr<const runtime::kind_declaration> declaration();

}  // namespace c5c3::c5c3::keystoneroleassignment
