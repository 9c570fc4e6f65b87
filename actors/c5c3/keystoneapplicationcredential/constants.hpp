// The KeystoneApplicationCredential kind's constants (apis.md 1.8;
// keystone-orders-reconcilers.txt "Application credential provisioning",
// "Application credential delivery"): finalizer, labels, push annotations,
// condition types and reasons, the Secret keys, the instrumenter table.
#pragma once

#include "actors/c5c3/korc/references.hpp"
#include "actors/c5c3/scaffold/order_push.hpp"
#include "actors/c5c3/scaffold/order_ref.hpp"

#include <array>
#include <string_view>

namespace c5c3::c5c3::keystoneapplicationcredential {

inline constexpr std::string_view api_version = "c5c3.io/v1alpha1";
inline constexpr std::string_view kind = "KeystoneApplicationCredential";
inline constexpr std::string_view segment = "applicationcredential";

inline constexpr std::string_view finalizer = "c5c3.io/keystoneapplicationcredential-teardown";

inline constexpr std::string_view label_name = "c5c3.io/keystoneapplicationcredential-name";
inline constexpr std::string_view label_namespace = "c5c3.io/keystoneapplicationcredential-namespace";
inline constexpr std::string_view label_cluster = "c5c3.io/keystoneapplicationcredential-cluster";

inline constexpr std::string_view annotation_push_hash = "c5c3.io/keystoneapplicationcredential-push-hash";
inline constexpr std::string_view annotation_push_synced_before =
    "c5c3.io/keystoneapplicationcredential-push-synced-before";

inline constexpr std::string_view condition_type_credential_ready = "CredentialReady";
inline constexpr std::string_view condition_type_delivery_ready = "DeliveryReady";
inline constexpr std::array<std::string_view, 2> sub_condition_types{condition_type_credential_ready,
                                                                     condition_type_delivery_ready};

// CredentialReady. The reference gates read as an assignment's do
// (UserNotFound, ProjectNotFound, ControlPlaneMismatch, WaitingForUser,
// WaitingForProject: korc/references.hpp).
inline constexpr std::string_view reason_credential_minted = "CredentialMinted";
inline constexpr std::string_view reason_no_role_on_project = "NoRoleOnProject";
inline constexpr std::string_view reason_waiting_for_ca_bundle = "WaitingForCABundle";
inline constexpr std::string_view reason_waiting_for_credential = "WaitingForCredential";
inline constexpr std::string_view reason_credential_failed = "CredentialFailed";
inline constexpr std::string_view reason_credential_error = "CredentialError";
using korc::reason_control_plane_mismatch;
using korc::reason_project_not_found;
using korc::reason_user_not_found;
using korc::reason_waiting_for_project;
using korc::reason_waiting_for_user;
// DeliveryReady (and WaitingForCredential before the first credential).
inline constexpr std::string_view reason_delivered = "Delivered";
inline constexpr std::string_view reason_keystone_not_published = "KeystoneNotPublished";
inline constexpr std::string_view reason_backup_not_synced = "BackupNotSynced";
inline constexpr std::string_view reason_delivery_refused = "DeliveryRefused";
inline constexpr std::string_view reason_delivery_error = "DeliveryError";

// K-ORC reads a credential's secret from this key of its secretRef.
inline constexpr std::string_view key_value = "value";
// The mint document's key, the source Secret's and the delivered Secret's.
inline constexpr std::string_view key_clouds_yaml = "clouds.yaml";
inline constexpr std::string_view key_application_credential_id = "application_credential_id";
inline constexpr std::string_view key_application_credential_secret = "application_credential_secret";
inline constexpr std::string_view key_auth_url = "auth_url";
inline constexpr std::string_view key_region_name = "region_name";
inline constexpr std::array<std::string_view, 3> delivered_keys{key_clouds_yaml, key_application_credential_id,
                                                                key_application_credential_secret};

inline constexpr std::string_view credentials_secret_suffix = "-credentials";

// The instrumenter's table: sub_reconciler -> condition_type.
struct sub_reconciler_entry {
  std::string_view sub_reconciler;
  std::string_view condition_type;
};
inline constexpr std::array<sub_reconciler_entry, 2> sub_reconcilers{{
    {"KeystoneApplicationCredentialProvision", condition_type_credential_ready},
    {"KeystoneApplicationCredentialDelivery", condition_type_delivery_ready},
}};

order_label_keys label_keys();
push_annotation_keys push_keys();

}  // namespace c5c3::c5c3::keystoneapplicationcredential
