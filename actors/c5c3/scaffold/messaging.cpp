#include "actors/c5c3/scaffold/messaging.hpp"

#include "actors/c5c3/scaffold/namespace_assignment.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"

#include <charconv>

#include <fmt/format.h>

namespace c5c3::c5c3 {

std::optional<k8s::object_key> messaging_cluster_key(const k8s::object& cp) {
  const auto* ref = cp.get({"spec", "infrastructure", "messaging", "clusterRef"});
  if (!ref || !ref->IsObject()) return std::nullopt;
  return k8s::object_key{std::string(cp.namespace_()), std::string(k8s::get_string(*ref, {"name"}))};
}

std::optional<k8s::object_key> default_user_secret_key(const k8s::object& rmq) {
  auto name = rmq.get_string({"status", "defaultUser", "secretReference", "name"});
  if (name.empty()) return std::nullopt;
  auto ns = rmq.get_string({"status", "defaultUser", "secretReference", "namespace"});
  return k8s::object_key{std::string(ns.empty() ? rmq.namespace_() : ns), std::string(name)};
}

std::optional<broker_address> split_broker_endpoint(std::string_view hostport) {
  // net.SplitHostPort, step by step.
  auto colon = hostport.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;  // missing port
  std::string_view host;
  std::size_t no_open_before = 0, no_close_before = 0;
  if (!hostport.empty() && hostport.front() == '[') {
    auto close = hostport.find(']');
    if (close == std::string_view::npos) return std::nullopt;  // missing ']'
    if (close + 1 != colon) return std::nullopt;  // no port after ']', or too many colons
    host = hostport.substr(1, close - 1);
    no_open_before = 1;
    no_close_before = close + 1;
  } else {
    host = hostport.substr(0, colon);
    if (host.find(':') != std::string_view::npos) return std::nullopt;  // too many colons
  }
  if (hostport.find('[', no_open_before) != std::string_view::npos) return std::nullopt;
  if (hostport.find(']', no_close_before) != std::string_view::npos) return std::nullopt;
  // strconv.ParseUint(port, 10, 16), not 0.
  auto port = hostport.substr(colon + 1);
  if (port.empty()) return std::nullopt;
  for (char c : port)
    if (c < '0' || c > '9') return std::nullopt;
  std::uint32_t value = 0;
  auto [ptr, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (ec != std::errc{} || ptr != port.data() + port.size() || value == 0 || value > 65535) return std::nullopt;
  return broker_address{std::string(host), static_cast<std::int32_t>(value)};
}

published_broker published_broker_endpoint(const k8s::object& cp, std::string_view cluster,
                                           std::string_view in_cluster_service) {
  published_broker out;
  auto published = cp.get_string({"spec", "infrastructure", "publishedMessagingEndpoint"});
  if (published.empty()) {
    out.problem = published_problem::not_published;
    out.message = fmt::format(
        "the order lives on {}, which cannot reach the in-cluster RabbitMQ Service {}; set "
        "spec.infrastructure.publishedMessagingEndpoint on ControlPlane {}/{}",
        cluster_location(cluster), in_cluster_service, cp.namespace_(), cp.name());
    return out;
  }
  auto address = split_broker_endpoint(published);
  if (!address) {
    out.problem = published_problem::invalid;
    out.message = fmt::format(
        "spec.infrastructure.publishedMessagingEndpoint \"{}\" of ControlPlane {}/{} is not a host and a "
        "port between 1 and 65535",
        published, cp.namespace_(), cp.name());
    return out;
  }
  out.address = std::move(*address);
  return out;
}

in_cluster_broker resolve_in_cluster_broker(const k8s::object& cp, const k8s::object_key& cluster_key,
                                            const k8s::object* rmq, const k8s::object* secret) {
  in_cluster_broker out;
  auto wait = [&](broker_wait w, std::string message) {
    out.wait = w;
    out.message = std::move(message);
    return out;
  };
  if (!rmq || !*rmq)
    return wait(broker_wait::credentials, fmt::format("RabbitmqCluster {} not found", cluster_key.to_string()));
  auto secret_key = default_user_secret_key(*rmq);
  if (!secret_key)
    return wait(broker_wait::credentials,
                fmt::format("RabbitmqCluster {} has no status.defaultUser.secretReference.name yet",
                            cluster_key.to_string()));
  if (!secret || !*secret)
    return wait(broker_wait::credentials,
                fmt::format("default-user Secret {} not found", secret_key->to_string()));
  std::string host, port_text;
  for (std::string_view key : {"username", "password", "host", "port"}) {
    auto value = secret_value(*secret, key);
    if (!value || value->empty())
      return wait(broker_wait::credentials,
                  fmt::format("default-user Secret {} missing key \"{}\"", secret_key->to_string(), key));
    if (key == "host") host = *value;
    if (key == "port") port_text = *value;
  }
  std::int32_t port = 0;
  auto [ptr, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc{} || ptr != port_text.data() + port_text.size() || port <= 0) {
    // Says which Secret, never what it holds.
    return wait(broker_wait::bad_port,
                fmt::format("parsing the broker port of ControlPlane {}/{}: default-user Secret {} has no valid port",
                            cp.namespace_(), cp.name(), secret_key->to_string()));
  }
  auto ready = rmq->find_condition("AllReplicasReady");
  if (!ready || !ready->is_true())
    return wait(broker_wait::not_ready,
                fmt::format("RabbitmqCluster {} is not AllReplicasReady", cluster_key.to_string()));
  out.address = {host, port};
  return out;
}

}  // namespace c5c3::c5c3
