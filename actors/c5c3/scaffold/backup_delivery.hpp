// The tail every delivering order shares (rabbitmqvhost-reconciler.txt
// "Credential delivery" 3-5; apis.md 1.4b deliverCredentials 3-6;
// keystone-orders-reconcilers.txt "Application credential delivery"): the
// source Secret in the ControlPlane's namespace, the PushSecret backing it up
// to OpenBao stamped with the document's hash (nothing is delivered before
// ESO reports a push of it), and the Secret beside the order, controlled by
// it, after a live read that refuses a Secret the order does not control.
#pragma once

#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/order_push.hpp"
#include "actors/c5c3/scaffold/order_ref.hpp"
#include "actors/c5c3/scaffold/secret_store.hpp"
#include "k8s/object.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::c5c3 {

struct backup_delivery_input {
  const order_ref* order = nullptr;
  order_owner owner;                 // the order's uid: the delivered Secret's controller
  std::string order_api_version;     // e.g. c5c3.io/v1alpha1
  std::string order_kind;            // e.g. KeystoneUser
  std::string child_namespace;       // the ControlPlane's
  // The source Secret <prefix>source and its data (plain).
  std::string source_name;
  std::map<std::string, std::string> source_data;
  const k8s::object* source = nullptr;  // as listed (null: none)
  // The PushSecret <prefix>backup.
  std::string push_name;
  std::string remote_key;
  secret_store_state store;
  push_annotation_keys push_keys;
  std::string hash;  // the hash of the pushed document
  const k8s::object* push = nullptr;
  // The Secret beside the order (read live before it is written), on the
  // order's cluster.
  k8s::object_key delivered_key;
  std::map<std::string, std::string> delivered_data;
  const k8s::object* delivered = nullptr;
  std::vector<k8s::object> read_by_name;
};

enum class backup_delivery_step {
  delivered,          // the Secret beside the order carries the data
  backup_not_synced,  // the PushSecret was written or ESO has not pushed the document yet
  refused,            // the Secret beside the order is not the order's (no requeue)
  error,              // a child of the ControlPlane's namespace is somebody else's
  applying,           // the delivered Secret is being written: it does not carry the data yet
};

struct backup_delivery_result {
  std::vector<child_write> writes;
  backup_delivery_step step = backup_delivery_step::delivered;
  std::string message;  // refused, error: the reason's message
  std::string push_key; // <ns>/<push name>, for the BackupNotSynced message
};

backup_delivery_result backup_and_deliver(const backup_delivery_input& in);

// DeliveryReady of a result that did not deliver: DeliveryError or
// DeliveryRefused (no requeue); BackupNotSynced, "the <what> not backed up
// to OpenBao yet (PushSecret ns/name)" (what: "credentials are", "password is");
// while the delivered Secret is written, `waiting_reason` naming it and what
// it does not carry yet (`carried`: "password", "credential"). Both waits
// come back after `wait`.
struct delivery_failure {
  std::string reason;
  std::string message;
  std::optional<std::chrono::nanoseconds> requeue;
};
std::optional<delivery_failure> undelivered(const backup_delivery_result& r, std::string_view what,
                                            std::string_view waiting_reason, const k8s::object_key& delivered,
                                            std::chrono::nanoseconds wait, std::string_view carried = "password");

// The read slot "delivered": <order name><suffix> beside the order on its
// cluster, carrying the order's name and namespace labels (no cluster label),
// read live before a write to it (a foreign Secret is refused).
runtime::read_slot delivered_secret_slot(const runtime::ownership_keys& keys, std::string_view suffix);

}  // namespace c5c3::c5c3
