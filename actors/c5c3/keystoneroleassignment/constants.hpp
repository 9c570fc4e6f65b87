// The KeystoneRoleAssignment kind's constants (apis.md 1.6): finalizer,
// labels, condition types and reasons, the instrumenter table.
#pragma once

#include "actors/c5c3/korc/references.hpp"
#include "actors/c5c3/scaffold/order_ref.hpp"

#include <array>
#include <chrono>
#include <string_view>

namespace c5c3::c5c3::keystoneroleassignment {

inline constexpr std::string_view api_version = "c5c3.io/v1alpha1";
inline constexpr std::string_view kind = "KeystoneRoleAssignment";
inline constexpr std::string_view segment = "roleassignment";

inline constexpr std::string_view finalizer = "c5c3.io/keystoneroleassignment-teardown";

inline constexpr std::string_view label_name = "c5c3.io/keystoneroleassignment-name";
inline constexpr std::string_view label_namespace = "c5c3.io/keystoneroleassignment-namespace";
inline constexpr std::string_view label_cluster = "c5c3.io/keystoneroleassignment-cluster";

inline constexpr std::string_view condition_type_assignment_ready = "AssignmentReady";
inline constexpr std::array<std::string_view, 1> sub_condition_types{condition_type_assignment_ready};

inline constexpr std::string_view reason_role_assigned = "RoleAssigned";
inline constexpr std::string_view reason_role_not_allowed = "RoleNotAllowed";
using korc::reason_control_plane_mismatch;
using korc::reason_project_not_found;
using korc::reason_user_not_found;
using korc::reason_waiting_for_project;
using korc::reason_waiting_for_user;
inline constexpr std::string_view reason_duplicate_role_assignment = "DuplicateRoleAssignment";
inline constexpr std::string_view reason_waiting_for_service_accounts = "WaitingForServiceAccounts";
inline constexpr std::string_view reason_role_assignment_failed = "RoleAssignmentFailed";
inline constexpr std::string_view reason_role_assignment_error = "RoleAssignmentError";

// After this long without an Available Role import or RoleAssignment, the
// wait says the role may not exist.
inline constexpr std::chrono::seconds role_may_not_exist_after = std::chrono::minutes(2);

struct sub_reconciler_entry {
  std::string_view sub_reconciler;
  std::string_view condition_type;
};
inline constexpr std::array<sub_reconciler_entry, 1> sub_reconcilers{{
    {"KeystoneRoleAssignmentProvision", condition_type_assignment_ready},
}};

order_label_keys label_keys();

}  // namespace c5c3::c5c3::keystoneroleassignment
