// The reference holds on deletion (keystone-orders-reconcilers.txt "Deletion
// and Teardown"; apis.md 1.4b "Deletion"): while a KeystoneRoleAssignment,
// then a KeystoneApplicationCredential, in the order's namespace on the
// order's cluster names the order (spec.userRef or spec.projectRef), its
// sub-condition reads ReferencedByRoleAssignments or
// ReferencedByApplicationCredentials naming them, nothing is deleted, and the
// pass comes back after a minute. K-ORC guards a referenced User and Project
// with a finalizer, so a sweep would wedge.
//
// The two read slots list those kinds from the order cluster's cache, only
// for a deleting order (a cluster that does not serve a kind has none), and
// the declaration's referenced_by wakes the held order when one of them
// changes or goes.
#pragma once

#include "actors/c5c3/scaffold/pass_result.hpp"
#include "actors/runtime/runner/declaration.hpp"
#include "k8s/object.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace c5c3::c5c3::korc {

inline constexpr std::string_view reason_referenced_by_role_assignments = "ReferencedByRoleAssignments";
inline constexpr std::string_view reason_referenced_by_application_credentials = "ReferencedByApplicationCredentials";
inline constexpr std::string_view slot_role_assignments = "referencing_role_assignments";
inline constexpr std::string_view slot_application_credentials = "referencing_application_credentials";

k8s::gvk role_assignment_gvk();
k8s::gvk application_credential_gvk();

// The two listed slots, and the referenced_by entries for `ref_field`
// ("userRef" or "projectRef").
std::vector<runtime::read_slot> hold_slots();
std::vector<runtime::reference_field> hold_references(std::string_view ref_field);

// The credential orders' slot alone (the assignment's hold).
runtime::read_slot application_credential_hold_slot();

// Sorted names of the `items` whose spec.<ref_field>.name is `order_name`.
std::vector<std::string> referencing_names(const std::vector<k8s::object>& items, std::string_view ref_field,
                                           std::string_view order_name);

// Go's %q of a []string: ["a" "b"].
std::string quote_names(const std::vector<std::string>& names);

struct hold {
  bool held = false;
  std::string reason;
  std::string message;
  c5c3::requeue requeue;  // orderReferenceHoldRequeueAfter when held
};

// The holds of an order named `order_name` in `namespace_`: the assignments
// first, then the credential orders. `noun` is "user" or "project"; `why` says
// why the credential orders go first.
hold reference_hold(const std::vector<k8s::object>& role_assignments,
                    const std::vector<k8s::object>& application_credentials, std::string_view ref_field,
                    std::string_view order_name, std::string_view namespace_, std::string_view noun,
                    std::string_view why);

// The assignment's hold: while a credential order in `namespace_` has the
// same user and project, ReferencedByApplicationCredentials naming them
// (K-ORC creates and deletes those credentials with a token scoped to the
// project, which needs the role).
hold credential_hold(const std::vector<k8s::object>& application_credentials, std::string_view user,
                     std::string_view project, std::string_view namespace_);

}  // namespace c5c3::c5c3::korc
