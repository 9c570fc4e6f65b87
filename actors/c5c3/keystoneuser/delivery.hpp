// deliverCredentials of the KeystoneUser (apis.md 1.4b): the auth URL for the
// order's cluster, the password of the provisioned generation, the source
// Secret with its six keys, the PushSecret with push freshness, and
// <name>-credentials (clouds.yaml, password) beside the order. It writes
// DeliveryReady.
#pragma once

#include "actors/c5c3/keystoneuser/spec.hpp"
#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/pass_result.hpp"
#include "actors/c5c3/scaffold/secret_store.hpp"
#include "k8s/object.hpp"

#include <vector>

namespace c5c3::c5c3::keystoneuser {

struct delivery_snapshot {
  const user_order* order = nullptr;
  const user_status* status = nullptr;  // after the provision step
  std::string order_api_version = std::string(api_version);
  const k8s::object* control_plane = nullptr;
  secret_store_state store;
  // In the ControlPlane's namespace.
  const k8s::object* password_secret = nullptr;  // <prefix>password-v<N>
  const k8s::object* source_secret = nullptr;    // <prefix>source
  const k8s::object* push_secret = nullptr;      // <prefix>backup
  // Beside the order, read live: <name>-credentials.
  const k8s::object* delivered_secret = nullptr;
  std::vector<k8s::object> read_by_name;
};

struct delivery_plan {
  std::vector<child_write> writes;
  user_status status;
  k8s::condition delivery_ready;
  c5c3::requeue requeue;
};

delivery_plan deliver_credentials(const delivery_snapshot& s);

}  // namespace c5c3::c5c3::keystoneuser
