// The KeystoneProject kind's constants (apis.md 1.5): finalizer, labels,
// condition types and reasons, the instrumenter table.
#pragma once

#include "actors/c5c3/scaffold/order_ref.hpp"

#include <array>
#include <string_view>

namespace c5c3::c5c3::keystoneproject {

inline constexpr std::string_view api_version = "c5c3.io/v1alpha1";
inline constexpr std::string_view kind = "KeystoneProject";
inline constexpr std::string_view segment = "project";

inline constexpr std::string_view finalizer = "c5c3.io/keystoneproject-teardown";

inline constexpr std::string_view label_name = "c5c3.io/keystoneproject-name";
inline constexpr std::string_view label_namespace = "c5c3.io/keystoneproject-namespace";
inline constexpr std::string_view label_cluster = "c5c3.io/keystoneproject-cluster";

inline constexpr std::string_view condition_type_project_ready = "ProjectReady";
inline constexpr std::array<std::string_view, 1> sub_condition_types{condition_type_project_ready};

inline constexpr std::string_view reason_project_provisioned = "ProjectProvisioned";
inline constexpr std::string_view reason_project_collision = "ProjectCollision";
inline constexpr std::string_view reason_probing_for_collision = "ProbingForCollision";
inline constexpr std::string_view reason_waiting_for_project = "WaitingForProject";
inline constexpr std::string_view reason_project_failed = "ProjectFailed";
inline constexpr std::string_view reason_project_error = "ProjectError";

struct sub_reconciler_entry {
  std::string_view sub_reconciler;
  std::string_view condition_type;
};
inline constexpr std::array<sub_reconciler_entry, 1> sub_reconcilers{{
    {"KeystoneProjectProvision", condition_type_project_ready},
}};

order_label_keys label_keys();

}  // namespace c5c3::c5c3::keystoneproject
