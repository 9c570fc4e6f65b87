// provisionUser (apis.md 1.4b): the Keystone user through K-ORC in the
// ControlPlane's namespace, as a pure function of what the order sees. Early
// returns in the document's order: a reserved name, the secret store, the
// collision probe, the managed User with its password generation, a latched
// transport error, a terminal K-ORC error, the wait. It writes UserReady.
#pragma once

#include "actors/c5c3/keystoneuser/spec.hpp"
#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"
#include "actors/c5c3/scaffold/pass_result.hpp"
#include "actors/c5c3/scaffold/secret_store.hpp"
#include "actors/runtime/runner/snapshot.hpp"
#include "k8s/object.hpp"

#include <vector>

namespace c5c3::c5c3::keystoneuser {

struct provision_snapshot {
  const user_order* order = nullptr;
  const k8s::object* control_plane = nullptr;
  secret_store_state store;
  bool users_served = true;  // the management cluster serves users.openstack.k-orc.cloud
  // Listed in the ControlPlane's namespace by the order's labels.
  std::vector<k8s::object> users;    // the managed User and the probe
  std::vector<k8s::object> secrets;  // the password Secrets and the source Secret
  std::vector<k8s::object> read_by_name;
  std::vector<runtime::write_failure> failures;
  k8s::time_point now;
  random_source random;
};

struct provision_plan {
  std::vector<child_write> writes;
  user_status status;
  k8s::condition user_ready;
  c5c3::requeue requeue;
  bool provisioned = false;  // UserReady is True: delivery runs
};

// The password generation the pass works toward: the declared one, never
// below the one the managed User's passwordRef names.
std::int64_t desired_generation(const user_order& order, const k8s::object* managed_user);

provision_plan provision_user(const provision_snapshot& s);

}  // namespace c5c3::c5c3::keystoneuser
