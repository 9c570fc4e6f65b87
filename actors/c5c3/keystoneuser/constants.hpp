// The KeystoneUser kind's constants (apis.md 1.4, 1.4b): finalizer, labels,
// push annotations, condition types and reasons, the delivered keys, the
// instrumenter table.
#pragma once

#include "actors/c5c3/scaffold/order_push.hpp"
#include "actors/c5c3/scaffold/order_ref.hpp"

#include <array>
#include <string_view>

namespace c5c3::c5c3::keystoneuser {

inline constexpr std::string_view api_version = "c5c3.io/v1alpha1";
inline constexpr std::string_view kind = "KeystoneUser";
inline constexpr std::string_view segment = "user";

inline constexpr std::string_view finalizer = "c5c3.io/keystoneuser-teardown";

inline constexpr std::string_view label_name = "c5c3.io/keystoneuser-name";
inline constexpr std::string_view label_namespace = "c5c3.io/keystoneuser-namespace";
inline constexpr std::string_view label_cluster = "c5c3.io/keystoneuser-cluster";

inline constexpr std::string_view annotation_push_hash = "c5c3.io/keystoneuser-push-hash";
inline constexpr std::string_view annotation_push_synced_before = "c5c3.io/keystoneuser-push-synced-before";

inline constexpr std::string_view condition_type_user_ready = "UserReady";
inline constexpr std::string_view condition_type_delivery_ready = "DeliveryReady";
inline constexpr std::array<std::string_view, 2> sub_condition_types{condition_type_user_ready,
                                                                     condition_type_delivery_ready};

// UserReady.
inline constexpr std::string_view reason_user_provisioned = "UserProvisioned";
inline constexpr std::string_view reason_service_account_collision = "ServiceAccountCollision";
inline constexpr std::string_view reason_probing_for_collision = "ProbingForCollision";
inline constexpr std::string_view reason_secret_store_not_ready = "SecretStoreNotReady";
inline constexpr std::string_view reason_waiting_for_service_accounts = "WaitingForServiceAccounts";
inline constexpr std::string_view reason_service_accounts_failed = "ServiceAccountsFailed";
inline constexpr std::string_view reason_service_account_error = "ServiceAccountError";
// DeliveryReady.
inline constexpr std::string_view reason_delivered = "Delivered";
inline constexpr std::string_view reason_keystone_not_published = "KeystoneNotPublished";
inline constexpr std::string_view reason_backup_not_synced = "BackupNotSynced";
inline constexpr std::string_view reason_delivery_refused = "DeliveryRefused";
inline constexpr std::string_view reason_delivery_error = "DeliveryError";

// The source Secret's keys, and the delivered Secret's (status.secretKeys).
inline constexpr std::string_view key_password = "password";
inline constexpr std::string_view key_username = "username";
inline constexpr std::string_view key_user_domain_name = "user_domain_name";
inline constexpr std::string_view key_auth_url = "auth_url";
inline constexpr std::string_view key_region_name = "region_name";
inline constexpr std::string_view key_clouds_yaml = "clouds.yaml";
inline constexpr std::array<std::string_view, 2> delivered_keys{key_clouds_yaml, key_password};

inline constexpr std::string_view credentials_secret_suffix = "-credentials";

// The instrumenter's table: sub_reconciler -> condition_type.
struct sub_reconciler_entry {
  std::string_view sub_reconciler;
  std::string_view condition_type;
};
inline constexpr std::array<sub_reconciler_entry, 2> sub_reconcilers{{
    {"KeystoneUserProvision", condition_type_user_ready},
    {"KeystoneUserDelivery", condition_type_delivery_ready},
}};

order_label_keys label_keys();
push_annotation_keys push_keys();

}  // namespace c5c3::c5c3::keystoneuser
