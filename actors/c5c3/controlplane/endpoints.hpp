// Where the services an order delivers to live, resolved from the ControlPlane
// (apis.md 1.2, 1.3 "Delivery message formats", 1.9b korcAuthURL, 2.5): the
// Keystone auth URL, region and endpoint type, and the broker address a
// RabbitMQVhost order hands out. Pure: the RabbitmqCluster and its default-user
// Secret are passed in as snapshots. No result ever quotes a broker URL or a
// credential.
#pragma once

#include "k8s/object.hpp"
#include "protocol/control_plane.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace c5c3::c5c3::controlplane {

inline constexpr std::string_view default_region = "RegionOne";

// spec.region, RegionOne when empty.
std::string region_of(const k8s::object& cp);

// korcAuthURL and the clouds.yaml endpoint_type for an order on `cluster`
// ("" = management). External Keystone (spec.services.keystone.external.authURL
// set): that URL and external.endpointType (default public). Managed: on the
// management cluster http://<cp>-keystone.<ns>.svc:5000/v3; on a target
// cluster spec.services.keystone.publicEndpoint, else
// https://<spec.services.keystone.gateway.hostname>/v3; endpoint type internal.
struct keystone_endpoint {
  std::string auth_url;  // empty when a target cluster has no way to reach it
  std::string endpoint_type;
};
keystone_endpoint keystone_endpoint_for(const k8s::object& cp, std::string_view cluster);

// The broker for an order on a target cluster: spec.infrastructure.
// publishedMessagingEndpoint split by the scaffold's split_broker_endpoint
// (actors/c5c3/scaffold/messaging.hpp), or the MessagingNotPublished /
// invalid-value message as the problem.
void published_messaging_endpoint(const k8s::object& cp, std::string_view cluster,
                                  protocol::control_plane_endpoints& out);

// The broker for an order on the management cluster: host and port of the
// RabbitmqCluster's default-user Secret (the scaffold's
// resolve_in_cluster_broker), or what is missing as the problem. Null: NotFound.
void in_cluster_messaging_endpoint(const k8s::object& cp, const k8s::object* rabbitmq_cluster,
                                   const k8s::object* default_user_secret,
                                   protocol::control_plane_endpoints& out);

// Everything but the broker part (which in_cluster_ / published_ fill in).
protocol::control_plane_endpoints keystone_endpoints(const k8s::object& cp, std::string_view cluster);

}  // namespace c5c3::c5c3::controlplane
