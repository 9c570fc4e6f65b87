// The RabbitMQ messaging topology operator, simulated (apis.md 2.1 to 2.4):
// Vhost, User and Permission. A step reads a snapshot and returns the writes
// to make before the broker calls (the finalizer, the User's credentials
// Secret), the broker calls, and, through settle(), the writes after them:
// Ready True SuccessfulCreateOrUpdate with status.observedGeneration on
// success, Ready False FailedCreateOrUpdate with the error text otherwise, the
// whole conditions list replaced by that one condition; on deletion the broker
// delete and then the finalizer's removal.
#pragma once

#include "sim/world/broker.hpp"
#include "sim/world/world_object.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::sim::world {

enum class topology_kind { vhost, user, permission };

// "deletion.finalizers.vhosts.rabbitmq.com" and so on.
std::string topology_finalizer(topology_kind k);
// The kind of a rabbitmq.com object ("Vhost", "User", "Permission"); nullopt otherwise.
std::optional<topology_kind> topology_kind_of(std::string_view kind);

inline constexpr std::string_view topology_operator_label = "rabbitmq.com/topology-operator";
inline constexpr std::chrono::seconds missing_cluster_requeue{10};

struct topology_snapshot {
  k8s::object subject;   // the Vhost, User or Permission
  // The RabbitmqCluster of spec.rabbitmqClusterReference (its namespace
  // defaults to the subject's); empty when it does not exist.
  k8s::object cluster;
  // User: the Secret of spec.importCredentialsSecret.name (empty: not found)
  // and the <user>-user-credentials Secret (empty: absent).
  k8s::object import_secret;
  k8s::object credentials;
  // Permission with spec.userReference: that User (empty: not found).
  k8s::object referenced_user;
  k8s::time_point now;
  random_source random;
};

struct topology_plan {
  std::vector<object_write> before_calls;
  std::vector<broker_call> calls;
  // Writes once every call succeeded.
  std::vector<object_write> on_success;
  // The subject a failure is reported on (empty: a failure writes nothing,
  // e.g. during deletion, and the step is retried).
  k8s::object failure_subject;
  // Come back after this long (a missing RabbitmqCluster on a live object).
  std::optional<std::chrono::seconds> requeue_after;
};

topology_plan reconcile_topology(const topology_snapshot& s);

struct topology_settled {
  std::vector<object_write> writes;
  std::optional<std::chrono::seconds> requeue_after;
};

// The writes after the calls ran: plan.on_success when `outcome` is no error,
// otherwise Ready False FailedCreateOrUpdate with the error text.
topology_settled settle(const topology_plan& plan, const broker_error& outcome, k8s::time_point now);

// before_calls are the caller's to write first; this runs the calls on `b` and
// settles. For tests and simple drivers.
topology_settled run_topology(const topology_plan& plan, broker& b, k8s::time_point now);

// The subject with Ready False FailedCreateOrUpdate `message` (conditions replaced).
k8s::object topology_failed(const k8s::object& subject, std::string_view message, k8s::time_point now);

// "<user>-user-credentials".
std::string user_credentials_secret_name(std::string_view user);

}  // namespace c5c3::sim::world
