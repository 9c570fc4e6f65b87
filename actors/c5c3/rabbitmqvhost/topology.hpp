// The children of a RabbitMQVhost as k8s objects: the topology operator's
// Vhost, User and Permission (apis.md 2, in its own spelling: deletionPolicy
// lowercase, Permission with `user:`), the password Secret, and readers of the
// topology operator's status.
#pragma once

#include "k8s/object.hpp"

#include <string>
#include <string_view>

namespace c5c3::c5c3::rabbitmqvhost {

inline constexpr std::string_view topology_api_version = "rabbitmq.com/v1beta1";

// Vhost `name` in `namespace_` creating `vhost` on RabbitmqCluster `cluster`,
// deletionPolicy "retain" or "delete".
k8s::object build_vhost(std::string_view name, std::string_view namespace_, std::string_view vhost,
                        std::string_view cluster, std::string_view deletion_policy);
// User importing username and password from `credentials_secret`; no tags.
k8s::object build_user(std::string_view name, std::string_view namespace_, std::string_view cluster,
                       std::string_view credentials_secret);
// Permission granting `username` ".*" to configure, write and read on `vhost`.
k8s::object build_permission(std::string_view name, std::string_view namespace_, std::string_view cluster,
                             std::string_view vhost, std::string_view username);

// TopologyReady: status.observedGeneration == metadata.generation and the
// Ready condition is True.
bool topology_ready(const k8s::object& obj);
// TopologyFailure: the message of Ready=False with reason FailedCreateOrUpdate
// (the reason when the message is empty), or "" when there is no such failure.
std::string topology_failure(const k8s::object& obj);

}  // namespace c5c3::c5c3::rabbitmqvhost
