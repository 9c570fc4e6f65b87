// Steps 1 and 3 of the KeystoneRoleAssignment's reconcileNormal
// (keystone-orders-reconcilers.txt "Role assignment"; apis.md 1.6); step 2,
// the references, is korc::reference_gate. Each refusal leaves the order
// unconverged; nothing is written.
//
// 1. The role allowlist: a role outside the entry's allowedRoles (exact,
//    case-sensitive) reads RoleNotAllowed naming the list. It freezes the
//    order: nothing is provisioned, and what was created stays.
// 3. The duplicate rule: an older order in the namespace (by
//    creationTimestamp, then by name) with the same user, project and role
//    makes this one DuplicateRoleAssignment. The peers come from the order
//    cluster's cache (one namespaced list, no API read).
#pragma once

#include "actors/c5c3/keystoneroleassignment/spec.hpp"
#include "actors/c5c3/scaffold/admission.hpp"

#include <vector>

namespace c5c3::c5c3::keystoneroleassignment {

// RoleNotAllowed, or passed; `cp` is the admitted ControlPlane.
gate_result role_allowlist(const assignment_order& o, const k8s::object& cp);

// Whether `a` is older than `b`: creationTimestamp, then name.
bool older(const k8s::object& a, const k8s::object& b);

// The oldest order of `peers` (KeystoneRoleAssignments of the order's
// namespace) older than `order` with the same user, project and role; null
// when none.
const k8s::object* older_duplicate(const assignment_order& o, const k8s::object& order,
                                   const std::vector<k8s::object>& peers);

// DuplicateRoleAssignment naming the older order, or passed.
gate_result duplicate_check(const assignment_order& o, const k8s::object& order,
                            const std::vector<k8s::object>& peers);

}  // namespace c5c3::c5c3::keystoneroleassignment
