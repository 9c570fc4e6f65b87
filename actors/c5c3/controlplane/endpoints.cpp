#include "actors/c5c3/controlplane/endpoints.hpp"

#include "actors/c5c3/rabbitmqvhost/messaging_gate.hpp"
#include "actors/c5c3/scaffold/namespace_assignment.hpp"

#include <charconv>

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

std::optional<broker_address> split_broker_endpoint(std::string_view endpoint) {
  auto colon = endpoint.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  std::string_view host = endpoint.substr(0, colon);
  std::string_view port_text = endpoint.substr(colon + 1);
  if (host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') return std::nullopt;
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    return std::nullopt;  // an unbracketed IPv6 address is ambiguous
  }
  if (port_text.empty()) return std::nullopt;
  std::uint32_t port = 0;
  auto [ptr, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc{} || ptr != port_text.data() + port_text.size() || port == 0 || port > 65535)
    return std::nullopt;
  return broker_address{std::string(host), static_cast<std::uint16_t>(port)};
}

void published_messaging_endpoint(const k8s::object& cp, std::string_view cluster,
                                  protocol::control_plane_endpoints& out) {
  auto published = cp.get_string({"spec", "infrastructure", "publishedMessagingEndpoint"});
  if (published.empty()) {
    auto service = rabbitmqvhost::messaging_cluster_key(cp);
    out.messaging_problem = fmt::format(
        "the order lives on {}, which cannot reach the in-cluster RabbitMQ Service {}; set "
        "spec.infrastructure.publishedMessagingEndpoint on ControlPlane {}/{}",
        cluster_location(cluster), service ? service->to_string() : std::string("(none declared)"),
        cp.namespace_(), cp.name());
    return;
  }
  auto address = split_broker_endpoint(published);
  if (!address) {
    out.messaging_problem = fmt::format(
        "spec.infrastructure.publishedMessagingEndpoint \"{}\" of ControlPlane {}/{} is not a host and a "
        "port between 1 and 65535",
        published, cp.namespace_(), cp.name());
    return;
  }
  out.messaging_host = address->host;
  out.messaging_port = address->port;
}

void in_cluster_messaging_endpoint(const k8s::object& cp, const k8s::object* rabbitmq_cluster,
                                   const k8s::object* default_user_secret,
                                   protocol::control_plane_endpoints& out) {
  auto gate = rabbitmqvhost::messaging_gate({&cp, rabbitmq_cluster, default_user_secret});
  if (!gate.gate.passed) {
    out.messaging_problem = gate.gate.message;  // the gate never quotes the URL
    return;
  }
  if (gate.port <= 0 || gate.port > 65535) {
    out.messaging_problem =
        fmt::format("the broker of ControlPlane {}/{} has no valid port", cp.namespace_(), cp.name());
    return;
  }
  out.messaging_host = gate.host;
  out.messaging_port = static_cast<std::uint16_t>(gate.port);
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
