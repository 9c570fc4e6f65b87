// The KeystoneApplicationCredential's deletion (keystone-orders-reconcilers.txt
// "Deletion and Teardown"): no hold; the sweep in two phases under the
// scaffold's patient, fail-open orderTeardown. While an ApplicationCredential
// of the order is listed: the PushSecret, every credential-v<N>, every
// secret-v<N>, the source Secret, keeping <prefix>mint-cloud (K-ORC
// authenticates the Keystone delete with it and guards it with a finalizer);
// once none is: mint-cloud, then the delivered Secret when the order controls
// it. With the ControlPlane gone both phases run in one pass.
#pragma once

#include "actors/c5c3/keystoneapplicationcredential/spec.hpp"
#include "actors/c5c3/scaffold/teardown.hpp"

#include <vector>

namespace c5c3::c5c3::keystoneapplicationcredential {

struct teardown_snapshot {
  const credential_order* order = nullptr;
  bool has_finalizer = false;
  bool control_plane_present = false;
  std::vector<k8s::object> push_secrets;
  std::vector<k8s::object> credentials;  // K-ORC ApplicationCredentials
  std::vector<k8s::object> secrets;      // secret-v<N>, source, mint-cloud
  const k8s::object* delivered_secret = nullptr;
};

struct teardown_plan {
  std::vector<child_write> writes;
  int remaining = 0;
  bool mint_cloud_held = false;  // phase one: a credential is still listed
  bool release_finalizer = false;
  c5c3::requeue requeue;
};

teardown_plan plan_teardown(const teardown_snapshot& s);

}  // namespace c5c3::c5c3::keystoneapplicationcredential
