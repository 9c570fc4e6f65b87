// The RabbitMQ cluster operator, simulated (apis.md 2.5): a RabbitmqCluster
// gets its default-user Secret and a status that says every replica is ready.
#pragma once

#include "sim/world/world_object.hpp"

#include <optional>
#include <string>
#include <vector>

namespace c5c3::sim::world {

// A real broker the cluster stands for: its AMQP address on loopback and the
// administrator credentials (reported as the default user).
struct real_broker_endpoint {
  std::string host = "127.0.0.1";
  int amqp_port = 5672;
  std::string username;
  std::string password;
};

struct cluster_snapshot {
  k8s::object cluster;         // the RabbitmqCluster
  k8s::object default_user;    // Secret <cluster>-default-user, or empty when absent
  std::optional<real_broker_endpoint> real_broker;
  k8s::time_point now;
  random_source random;
};

struct cluster_plan {
  std::vector<object_write> writes;  // the Secret (upsert) first, then the status
};

// "<cluster>-default-user".
std::string default_user_secret_name(std::string_view cluster);

cluster_plan reconcile_rabbitmq_cluster(const cluster_snapshot& s);

}  // namespace c5c3::sim::world
