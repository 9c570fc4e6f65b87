// The condition reasons and messages of the scaffold's gates (apis.md 1.1),
// spelled exactly as the documents spell them.
#pragma once

#include <string_view>

namespace c5c3::c5c3 {

inline constexpr std::string_view reason_cluster_name_too_long = "ClusterNameTooLong";
inline constexpr std::string_view reason_control_plane_not_found = "ControlPlaneNotFound";
inline constexpr std::string_view reason_namespace_not_assigned = "NamespaceNotAssigned";
inline constexpr std::string_view reason_waiting_for_admin_credential = "WaitingForAdminCredential";
inline constexpr std::string_view reason_referenced_by_role_assignments = "ReferencedByRoleAssignments";
inline constexpr std::string_view reason_all_ready = "AllReady";
inline constexpr std::string_view reason_not_all_ready = "NotAllReady";

inline constexpr std::string_view condition_type_ready = "Ready";
inline constexpr std::string_view condition_type_admin_credential_ready = "AdminCredentialReady";

// Kubernetes caps a label value at 63 characters (validation.LabelValueMaxLength).
inline constexpr std::size_t label_value_max_length = 63;

}  // namespace c5c3::c5c3
