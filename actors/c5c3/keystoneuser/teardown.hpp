// The KeystoneUser's deletion (apis.md 1.4b "Deletion";
// keystone-orders-reconcilers.txt "Deletion and Teardown"): the holds first
// (a KeystoneRoleAssignment, then a KeystoneApplicationCredential, naming the
// user), then the sweep in the document's order under the scaffold's
// patient, fail-open orderTeardown: the PushSecret, the managed User, the
// probe, the password Secrets, the source Secret, then the delivered Secret
// when the order controls it.
#pragma once

#include "actors/c5c3/keystoneuser/spec.hpp"
#include "actors/c5c3/korc/holds.hpp"
#include "actors/c5c3/scaffold/teardown.hpp"

#include <vector>

namespace c5c3::c5c3::keystoneuser {

struct teardown_snapshot {
  const user_order* order = nullptr;
  bool has_finalizer = false;
  bool control_plane_present = false;
  std::vector<k8s::object> push_secrets;
  std::vector<k8s::object> users;    // the managed User and the probe
  std::vector<k8s::object> secrets;  // password Secrets and the source Secret
  const k8s::object* delivered_secret = nullptr;
  // In the order's namespace on the order's cluster.
  std::vector<k8s::object> role_assignments;
  std::vector<k8s::object> application_credentials;
};

struct teardown_plan {
  korc::hold hold;
  std::vector<child_write> writes;
  int remaining = 0;
  bool release_finalizer = false;
  c5c3::requeue requeue;
};

sweep_result sweep_keystone_user_children(const teardown_snapshot& s);
teardown_plan plan_teardown(const teardown_snapshot& s);

}  // namespace c5c3::c5c3::keystoneuser
