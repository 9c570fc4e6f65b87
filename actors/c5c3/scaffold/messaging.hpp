// The managed message bus a ControlPlane declares (apis.md 1.2
// spec.infrastructure.messaging, 1.3 "splitBrokerEndpoint"; the Go
// operator's messaging package): which RabbitmqCluster it names, where that
// cluster's default-user Secret is, the broker's in-cluster address read from
// it (the waits of messaging.ResolveTransportURL), and splitBrokerEndpoint
// for a published address. Shared by the ControlPlane actor (endpoints) and
// the RabbitMQVhost steps (messaging gate, delivery). Pure; no message ever
// quotes a value of the Secret.
#pragma once

#include "k8s/object.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace c5c3::c5c3 {

// The RabbitmqCluster the ControlPlane names (spec.infrastructure.messaging.
// clusterRef, in the ControlPlane's namespace), when it names one.
std::optional<k8s::object_key> messaging_cluster_key(const k8s::object& control_plane);

// The default-user Secret the RabbitmqCluster reports
// (status.defaultUser.secretReference; its namespace defaults to the
// cluster's), when it reports one.
std::optional<k8s::object_key> default_user_secret_key(const k8s::object& rabbitmq_cluster);

struct broker_address {
  std::string host;
  std::int32_t port = 0;
};

// splitBrokerEndpoint: Go's net.SplitHostPort (an IPv6 host in brackets; a
// '[' or ']' anywhere else, a missing port or too many colons is refused; the
// host may be empty, as Go allows), then strconv.ParseUint(port, 10, 16),
// which must not be 0 (digits only: no sign, no spaces).
std::optional<broker_address> split_broker_endpoint(std::string_view endpoint);

// The published half of rabbitMQVhostEndpoint, for an order on target
// cluster `cluster`: spec.infrastructure.publishedMessagingEndpoint split by
// split_broker_endpoint. `in_cluster_service` names what the order cannot
// reach in the message.
enum class published_problem : std::uint8_t {
  none,
  not_published,  // MessagingNotPublished
  invalid,        // not a host and a port between 1 and 65535
};
struct published_broker {
  published_problem problem = published_problem::none;
  std::string message;
  broker_address address;  // when problem == none
};
published_broker published_broker_endpoint(const k8s::object& cp, std::string_view cluster,
                                           std::string_view in_cluster_service);

// What messaging.ResolveTransportURL waits for, in order, once the
// ControlPlane names its RabbitmqCluster.
enum class broker_wait : std::uint8_t {
  none,         // the address is known
  credentials,  // the RabbitmqCluster, its secretReference, the Secret or one of its keys is missing
  bad_port,     // the Secret's port is not a positive number
  not_ready,    // the RabbitmqCluster is not AllReplicasReady
};

struct in_cluster_broker {
  broker_wait wait = broker_wait::none;
  std::string message;     // what is missing; names objects, never values
  broker_address address;  // when wait == none
};

// The broker of the RabbitmqCluster `cluster_key` of ControlPlane `cp`, read
// from the snapshots (null: NotFound): username, password, host and port must
// all be in the default-user Secret.
in_cluster_broker resolve_in_cluster_broker(const k8s::object& cp, const k8s::object_key& cluster_key,
                                            const k8s::object* rabbitmq_cluster,
                                            const k8s::object* default_user_secret);

}  // namespace c5c3::c5c3
