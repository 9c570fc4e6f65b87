// The RabbitMQVhost teardown (rabbitmqvhost-reconciler.txt, "Deletion and
// Teardown"): sweepRabbitMQVhostChildren in the document's order, under the
// scaffold's patient, fail-open orderTeardown. The assignment is not
// consulted, so a frozen order tears down too; nothing references a
// RabbitMQVhost, so there is no hold.
#pragma once

#include "actors/c5c3/rabbitmqvhost/spec.hpp"
#include "actors/c5c3/scaffold/teardown.hpp"

#include <vector>

namespace c5c3::c5c3::rabbitmqvhost {

struct teardown_snapshot {
  const vhost_order* order = nullptr;
  bool has_finalizer = false;
  bool control_plane_present = false;
  // Listed in the resolved controlPlaneRef namespace by the order's labels; a
  // kind the cluster does not serve holds none.
  std::vector<k8s::object> push_secrets;
  std::vector<k8s::object> permissions;
  std::vector<k8s::object> users;
  std::vector<k8s::object> vhosts;
  std::vector<k8s::object> secrets;
  // The Secret beside the order, on the order's cluster (null: none).
  const k8s::object* delivered_secret = nullptr;
};

struct teardown_plan {
  std::vector<child_write> writes;  // in the document's order
  int remaining = 0;                // children still listed
  bool release_finalizer = false;
  c5c3::requeue requeue;
};

// The deletes in order: the PushSecret, every Permission, every User, the
// Vhost (after a merge patch writing the order's current deletionPolicy onto
// it, unless it is already being deleted), the password Secrets, then the
// source Secret, and then the delivered Secret on the order's cluster.
sweep_result sweep_rabbitmq_vhost_children(const teardown_snapshot& s);

teardown_plan plan_teardown(const teardown_snapshot& s);

}  // namespace c5c3::c5c3::rabbitmqvhost
