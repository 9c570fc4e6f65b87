// One pass of a KeystoneUser order as a pure plan (apis.md 1.4b "Pass"): a
// deleting order's holds and teardown; otherwise admission and the freeze
// (both sub-conditions), the finalizer, the admin-credential gate,
// provisionUser, deliverCredentials once the user is provisioned (otherwise
// DeliveryReady waits), the aggregate Ready and orderPassResult.
#pragma once

#include "actors/c5c3/keystoneuser/spec.hpp"
#include "actors/c5c3/korc/order_pass.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"
#include "actors/c5c3/scaffold/secret_store.hpp"
#include "actors/runtime/runner/snapshot.hpp"

#include <vector>

namespace c5c3::c5c3::keystoneuser {

struct pass_snapshot {
  const k8s::object* order = nullptr;
  std::string cluster;                         // the cluster the order lives on ("" management)
  const k8s::object* control_plane = nullptr;  // null: absent
  secret_store_state store;
  bool users_served = true;
  // Listed in the ControlPlane's namespace by the order's labels.
  std::vector<k8s::object> users;
  std::vector<k8s::object> secrets;
  std::vector<k8s::object> push_secrets;
  const k8s::object* delivered_secret = nullptr;  // beside the order, read live before a write
  // A deleting order's references, in its namespace on its cluster.
  std::vector<k8s::object> role_assignments;
  std::vector<k8s::object> application_credentials;
  std::vector<k8s::object> read_by_name;
  std::vector<runtime::write_failure> failures;
  k8s::time_point now;
  random_source random;
};

korc::order_pass_plan plan_pass(const pass_snapshot& s);

}  // namespace c5c3::c5c3::keystoneuser
