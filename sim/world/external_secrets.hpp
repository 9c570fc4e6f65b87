// External Secrets, simulated (apis.md 4 and 1.9): SecretStore and
// ClusterSecretStore become Ready (reason Valid); a PushSecret pushes its
// source Secret to the key-value store standing in for OpenBao and records the
// push in its status; deletionPolicy Delete removes the remote keys with the
// PushSecret (finalizer pushsecret.externalsecrets.io/finalizer).
#pragma once

#include "sim/world/kv_store.hpp"
#include "sim/world/world_object.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::sim::world {

inline constexpr std::string_view push_secret_finalizer = "pushsecret.externalsecrets.io/finalizer";
inline constexpr std::chrono::seconds push_error_requeue{10};

// ---- SecretStore / ClusterSecretStore ----
// The store with Ready True reason Valid; nullopt when it already says so.
std::optional<object_write> reconcile_secret_store(const k8s::object& store, k8s::time_point now);

// ---- PushSecret ----
struct push_snapshot {
  k8s::object push_secret;
  k8s::object source;  // spec.selector.secret.name in the PushSecret's namespace; empty: not found
  // The stores that exist, keyed "<Kind>/<name>" (a SecretStore of the
  // PushSecret's namespace, or a ClusterSecretStore).
  std::map<std::string, k8s::object> stores;
  k8s::time_point now;
};

struct kv_write {
  enum class op { put, merge, remove };
  op operation = op::put;
  std::string key;
  kv_entry value;
  friend bool operator==(const kv_write&, const kv_write&) = default;
};

struct push_plan {
  std::vector<object_write> before;  // the finalizer added or dropped on a live object
  std::vector<kv_write> remote;      // to the store, after `before`
  std::vector<object_write> after;   // the status, or the finalizer's removal on deletion
  std::optional<std::chrono::nanoseconds> requeue_after;
};

push_plan reconcile_push_secret(const push_snapshot& s);

void apply_remote(kv_store& store, const std::vector<kv_write>& writes);

// "<metadata.generation>-<hash of metadata.labels and metadata.annotations>".
std::string push_secret_version(const k8s::object& push_secret);

}  // namespace c5c3::sim::world
