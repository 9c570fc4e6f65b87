#include "actors/c5c3/controlplane/endpoints.hpp"

#include "actors/c5c3/scaffold/messaging.hpp"
#include "actors/c5c3/scaffold/namespace_assignment.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3::controlplane {

std::string region_of(const k8s::object& cp) {
  auto r = cp.get_string({"spec", "region"});
  return std::string(r.empty() ? default_region : r);
}

keystone_endpoint keystone_endpoint_for(const k8s::object& cp, std::string_view cluster) {
  auto external = cp.get_string({"spec", "services", "keystone", "external", "authURL"});
  if (!external.empty()) {
    auto type = cp.get_string({"spec", "services", "keystone", "external", "endpointType"});
    return {std::string(external), std::string(type.empty() ? "public" : type)};
  }
  keystone_endpoint out;
  out.endpoint_type = "internal";
  if (cluster.empty()) {
    out.auth_url = fmt::format("http://{}-keystone.{}.svc:5000/v3", cp.name(), cp.namespace_());
    return out;
  }
  auto published = cp.get_string({"spec", "services", "keystone", "publicEndpoint"});
  if (!published.empty()) {
    out.auth_url = std::string(published);
    return out;
  }
  auto gateway = cp.get_string({"spec", "services", "keystone", "gateway", "hostname"});
  if (!gateway.empty()) out.auth_url = fmt::format("https://{}/v3", gateway);
  return out;
}

void published_messaging_endpoint(const k8s::object& cp, std::string_view cluster,
                                  protocol::control_plane_endpoints& out) {
  auto service = messaging_cluster_key(cp);
  auto broker =
      published_broker_endpoint(cp, cluster, service ? service->to_string() : std::string("(none declared)"));
  if (broker.problem != published_problem::none) {
    out.messaging_problem = std::move(broker.message);
    return;
  }
  out.messaging_host = std::move(broker.address.host);
  out.messaging_port = static_cast<std::uint16_t>(broker.address.port);
}

void in_cluster_messaging_endpoint(const k8s::object& cp, const k8s::object* rabbitmq_cluster,
                                   const k8s::object* default_user_secret,
                                   protocol::control_plane_endpoints& out) {
  auto cluster_key = messaging_cluster_key(cp);
  if (!cluster_key) {
    out.messaging_problem = fmt::format(
        "ControlPlane {}/{} declares no managed message bus (spec.infrastructure.messaging.clusterRef)",
        cp.namespace_(), cp.name());
    return;
  }
  auto broker = resolve_in_cluster_broker(cp, *cluster_key, rabbitmq_cluster, default_user_secret);
  if (broker.wait != broker_wait::none) {
    out.messaging_problem = std::move(broker.message);  // names objects, never values
    return;
  }
  if (broker.address.port > 65535) {
    out.messaging_problem =
        fmt::format("the broker of ControlPlane {}/{} has no valid port", cp.namespace_(), cp.name());
    return;
  }
  out.messaging_host = std::move(broker.address.host);
  out.messaging_port = static_cast<std::uint16_t>(broker.address.port);
}

protocol::control_plane_endpoints keystone_endpoints(const k8s::object& cp, std::string_view cluster) {
  protocol::control_plane_endpoints out;
  auto ks = keystone_endpoint_for(cp, cluster);
  out.keystone_auth_url = std::move(ks.auth_url);
  out.endpoint_type = std::move(ks.endpoint_type);
  out.region = region_of(cp);
  return out;
}

}  // namespace c5c3::c5c3::controlplane
