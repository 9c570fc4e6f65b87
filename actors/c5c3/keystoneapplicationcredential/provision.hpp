// provisionCredential (keystone-orders-reconcilers.txt "Application credential
// provisioning" 1-7) as a pure function of what the order sees: the mint
// document, the generations, the mint of a new generation (its secret written
// once, its ApplicationCredential created once and never applied again: K-ORC
// keeps the resource immutable), the switch once it is Available with the
// grace period of the superseded one, the grace sweep, the schedule. It
// writes CredentialReady. K-ORC never updates a credential, so a rotation is
// a new generation.
#pragma once

#include "actors/c5c3/keystoneapplicationcredential/spec.hpp"
#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"
#include "actors/c5c3/scaffold/pass_result.hpp"
#include "actors/runtime/runner/snapshot.hpp"
#include "k8s/object.hpp"

#include <vector>

namespace c5c3::c5c3::keystoneapplicationcredential {

struct provision_snapshot {
  const credential_order* order = nullptr;
  const k8s::object* control_plane = nullptr;
  const k8s::object* user = nullptr;     // admitted by the reference gates
  const k8s::object* project = nullptr;
  const k8s::object* password_secret = nullptr;   // the user's, of its status.passwordGeneration
  const k8s::object* ca_bundle_secret = nullptr;  // the one the ControlPlane names (null: none)
  bool credentials_served = true;  // the management cluster serves applicationcredentials.openstack.k-orc.cloud
  // Listed in the ControlPlane's namespace by the order's labels.
  std::vector<k8s::object> credentials;
  std::vector<k8s::object> secrets;  // secret-v<N>, mint-cloud, source
  std::vector<k8s::object> read_by_name;
  std::vector<runtime::write_failure> failures;
  k8s::time_point now;
  random_source random;
};

struct provision_plan {
  std::vector<child_write> writes;
  credential_status status;  // after the step (nextRotation recomputed)
  k8s::condition credential_ready;
  c5c3::requeue requeue;  // the waits, and the times to nextRotation, previousCredentialDeleteAt, credentialExpiresAt
};

provision_plan provision_credential(const provision_snapshot& s);

// requeueAt: the time until `t`; none when absent or not after `now`.
c5c3::requeue requeue_until(const std::optional<k8s::time_point>& t, k8s::time_point now);

}  // namespace c5c3::c5c3::keystoneapplicationcredential
