// One pass of a RabbitMQVhost order as a pure plan (design.md "An order
// actor's pass: sense, plan, act"; rabbitmqvhost-reconciler.txt,
// "Reconciliation Flow"): admission and the freeze, the finalizer, the
// messaging gate, provisionVhost, deliverCredentials, the aggregate Ready and
// the pass result; or, for a deleting order, the teardown.
#pragma once

#include "actors/c5c3/rabbitmqvhost/delivery.hpp"
#include "actors/c5c3/rabbitmqvhost/provision.hpp"
#include "actors/c5c3/rabbitmqvhost/spec.hpp"
#include "actors/c5c3/scaffold/admission.hpp"

#include <vector>

namespace c5c3::c5c3::rabbitmqvhost {

// What the order sees: its own object, its ControlPlane actor's answer, and
// the caches of the ControlPlane's namespace listed by its labels.
struct pass_snapshot {
  const k8s::object* order = nullptr;
  std::string cluster;  // the cluster the order lives on ("" management)
  const k8s::object* control_plane = nullptr;  // null: absent
  const k8s::object* rabbitmq_cluster = nullptr;
  const k8s::object* default_user_secret = nullptr;
  secret_store_state store;
  topology_kinds_served served;
  std::vector<k8s::object> vhosts;
  std::vector<k8s::object> users;
  std::vector<k8s::object> permissions;
  std::vector<k8s::object> secrets;       // password Secrets and the source Secret
  std::vector<k8s::object> push_secrets;
  const k8s::object* delivered_secret = nullptr;  // on the order's cluster, read live
  std::vector<k8s::object> read_by_name;
  k8s::time_point now;
  random_source random;
};

enum class pass_stage {
  refused_admission,  // nothing in the ControlPlane's namespace was read or written
  add_finalizer,      // the finalizer is installed; plan again after it
  refused_gate,       // the messaging gate refused or waits
  legs,               // provision and delivery ran
  teardown,
};

struct pass_plan {
  pass_stage stage = pass_stage::legs;
  std::vector<child_write> writes;
  bool add_finalizer = false;
  bool release_finalizer = false;
  vhost_status status;
  std::vector<k8s::condition> conditions;  // the whole status.conditions after the pass
  bool status_changed = false;
  c5c3::requeue requeue;
};

pass_plan plan_pass(const pass_snapshot& s);

}  // namespace c5c3::c5c3::rabbitmqvhost
