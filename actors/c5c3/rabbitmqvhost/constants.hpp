// The RabbitMQVhost kind's constants (apis.md 1.3, rabbitmqvhost-reconciler.txt):
// finalizer, labels, annotations, condition types and reasons, Secret keys.
#pragma once

#include "actors/c5c3/scaffold/order_push.hpp"
#include "actors/c5c3/scaffold/order_ref.hpp"
#include "actors/c5c3/scaffold/pass_result.hpp"
#include "actors/c5c3/scaffold/rotation.hpp"

#include <array>
#include <string_view>

namespace c5c3::c5c3::rabbitmqvhost {

inline constexpr std::string_view api_version = "c5c3.io/v1alpha1";
inline constexpr std::string_view kind = "RabbitMQVhost";
inline constexpr std::string_view segment = "vhost";

inline constexpr std::string_view finalizer = "c5c3.io/rabbitmqvhost-teardown";

inline constexpr std::string_view label_name = "c5c3.io/rabbitmqvhost-name";
inline constexpr std::string_view label_namespace = "c5c3.io/rabbitmqvhost-namespace";
inline constexpr std::string_view label_cluster = "c5c3.io/rabbitmqvhost-cluster";

inline constexpr std::string_view annotation_push_hash = "c5c3.io/rabbitmqvhost-push-hash";
inline constexpr std::string_view annotation_push_synced_before = "c5c3.io/rabbitmqvhost-push-synced-before";

// The topology operator's webhook requires this label on an imported Secret.
inline constexpr std::string_view topology_operator_label = "rabbitmq.com/topology-operator";

inline constexpr std::string_view condition_type_vhost_ready = "VhostReady";
inline constexpr std::string_view condition_type_delivery_ready = "DeliveryReady";
inline constexpr std::array<std::string_view, 2> sub_condition_types{condition_type_vhost_ready,
                                                                     condition_type_delivery_ready};

// VhostReady.
inline constexpr std::string_view reason_vhost_provisioned = "VhostProvisioned";
inline constexpr std::string_view reason_secret_store_not_ready = "SecretStoreNotReady";
inline constexpr std::string_view reason_topology_operator_not_installed = "TopologyOperatorNotInstalled";
inline constexpr std::string_view reason_waiting_for_vhost = "WaitingForVhost";
inline constexpr std::string_view reason_waiting_for_user = "WaitingForUser";
inline constexpr std::string_view reason_vhost_failed = "VhostFailed";
inline constexpr std::string_view reason_vhost_error = "VhostError";
// DeliveryReady.
inline constexpr std::string_view reason_delivered = "Delivered";
inline constexpr std::string_view reason_waiting_for_password = "WaitingForPassword";
inline constexpr std::string_view reason_messaging_not_published = "MessagingNotPublished";
inline constexpr std::string_view reason_backup_not_synced = "BackupNotSynced";
inline constexpr std::string_view reason_delivery_refused = "DeliveryRefused";
inline constexpr std::string_view reason_delivery_error = "DeliveryError";
// The messaging gate (both sub-conditions).
inline constexpr std::string_view reason_messaging_not_declared = "MessagingNotDeclared";
inline constexpr std::string_view reason_messaging_not_managed = "MessagingNotManaged";
inline constexpr std::string_view reason_waiting_for_messaging_credentials = "WaitingForMessagingCredentials";
inline constexpr std::string_view reason_waiting_for_messaging = "WaitingForMessaging";

// The delivered Secret's keys, in the order status.secretKeys lists them.
inline constexpr std::string_view key_transport_url = "transport_url";
inline constexpr std::string_view key_host = "host";
inline constexpr std::string_view key_port = "port";
inline constexpr std::string_view key_username = "username";
inline constexpr std::string_view key_password = "password";
inline constexpr std::string_view key_vhost = "vhost";
inline constexpr std::array<std::string_view, 6> secret_keys{key_transport_url, key_host,     key_port,
                                                             key_username,      key_password, key_vhost};

inline constexpr std::string_view credentials_secret_suffix = "-credentials";

// rabbitMQVhostRequeueAfter: the waits of the gate and the legs, except the
// waits for the order's own Vhost, Users, Permissions, password Secrets and
// PushSecret (BackupNotSynced), whose events wake it (on_child_event).
inline constexpr duration requeue_after = korc_requeue_after;

// The spec defaults the reconciler resolves itself (the kind has no webhook).
// default_rotation_interval, default_rotation_grace_period: scaffold/rotation.hpp.

// The instrumenter's table: sub_reconciler -> condition_type.
struct sub_reconciler_entry {
  std::string_view sub_reconciler;
  std::string_view condition_type;
};
inline constexpr std::array<sub_reconciler_entry, 2> sub_reconcilers{{
    {"RabbitMQVhostProvision", condition_type_vhost_ready},
    {"RabbitMQVhostDelivery", condition_type_delivery_ready},
}};

// The kind's label keys and push annotation keys for the scaffold.
order_label_keys label_keys();
push_annotation_keys push_keys();

}  // namespace c5c3::c5c3::rabbitmqvhost
