// One pass of a KeystoneApplicationCredential as a pure plan
// (keystone-orders-reconcilers.txt "Application credential provisioning",
// "Application credential delivery", "Deletion and Teardown"): a deleting
// order's two-phase teardown; otherwise admission and the freeze (both
// sub-conditions), the finalizer, the admin-credential gate, the three
// reference gates (a refusal writes CredentialReady, DeliveryReady
// WaitingForCredential only before the first credential, and pauses the
// schedule: no timer), provisionCredential, deliverCredential, the aggregate
// Ready and keystoneApplicationCredentialPassResult, with the timers
// "rotation" (nextRotation), "grace" (previousCredentialDeleteAt) and
// "expiry" (credentialExpiresAt) of the status the pass leaves.
#pragma once

#include "actors/c5c3/keystoneapplicationcredential/spec.hpp"
#include "actors/c5c3/korc/order_pass.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"
#include "actors/runtime/runner/snapshot.hpp"

#include <vector>

namespace c5c3::c5c3::keystoneapplicationcredential {

struct pass_snapshot {
  const k8s::object* order = nullptr;
  std::string cluster;                         // the cluster the order lives on ("" management)
  const k8s::object* control_plane = nullptr;  // null: absent
  // In the order's namespace on its cluster (null: not found).
  const k8s::object* user = nullptr;
  const k8s::object* project = nullptr;
  bool users_served = true;
  bool projects_served = true;
  std::vector<k8s::object> role_assignments;
  // In the ControlPlane's namespace.
  const k8s::object* password_secret = nullptr;
  const k8s::object* ca_bundle_secret = nullptr;
  bool credentials_served = true;
  std::vector<k8s::object> credentials;  // listed by the order's labels
  std::vector<k8s::object> secrets;
  std::vector<k8s::object> push_secrets;
  const k8s::object* delivered_secret = nullptr;  // beside the order, read live before a write
  std::vector<k8s::object> read_by_name;
  std::vector<runtime::write_failure> failures;
  k8s::time_point now;
  random_source random;
};

korc::order_pass_plan plan_pass(const pass_snapshot& s);

// The timers of a status (each only when it lies after `now`).
std::map<std::string, k8s::time_point> timers_of(const credential_status& status, k8s::time_point now);

}  // namespace c5c3::c5c3::keystoneapplicationcredential
