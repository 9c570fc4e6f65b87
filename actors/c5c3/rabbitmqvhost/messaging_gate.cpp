#include "actors/c5c3/rabbitmqvhost/messaging_gate.hpp"

#include "actors/c5c3/rabbitmqvhost/constants.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"

#include <charconv>

#include <fmt/format.h>

namespace c5c3::c5c3::rabbitmqvhost {

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

messaging_gate_result messaging_gate(const messaging_snapshot& s) {
  const k8s::object& cp = *s.control_plane;
  messaging_gate_result out;
  auto wait = [&](std::string_view reason, std::string message) {
    out.gate = gate_result::refuse(reason, std::move(message), requeue_after);
    return out;
  };
  const auto* messaging = cp.get({"spec", "infrastructure", "messaging"});
  if (!messaging || !messaging->IsObject()) {
    out.gate = gate_result::refuse(
        reason_messaging_not_declared,
        fmt::format("ControlPlane {}/{} declares no spec.infrastructure.messaging; a RabbitMQVhost order needs "
                    "the managed message bus",
                    cp.namespace_(), cp.name()),
        std::nullopt);
    return out;
  }
  auto cluster_key = messaging_cluster_key(cp);
  if (!cluster_key) {
    out.gate = gate_result::refuse(
        reason_messaging_not_managed,
        fmt::format("ControlPlane {}/{} attaches to a brownfield broker through "
                    "spec.infrastructure.messaging.secretRef, whose management API and admin account the operator "
                    "does not hold; RabbitMQVhost orders need a managed clusterRef bus",
                    cp.namespace_(), cp.name()),
        std::nullopt);
    return out;
  }
  out.cluster_name = cluster_key->name;

  // messaging.ResolveTransportURL: the four waits.
  if (!s.rabbitmq_cluster || !*s.rabbitmq_cluster)
    return wait(reason_waiting_for_messaging_credentials,
                fmt::format("RabbitmqCluster {} not found", cluster_key->to_string()));
  auto secret_key = default_user_secret_key(*s.rabbitmq_cluster);
  if (!secret_key)
    return wait(reason_waiting_for_messaging_credentials,
                fmt::format("RabbitmqCluster {} has no status.defaultUser.secretReference.name yet",
                            cluster_key->to_string()));
  if (!s.default_user_secret || !*s.default_user_secret)
    return wait(reason_waiting_for_messaging_credentials,
                fmt::format("default-user Secret {} not found", secret_key->to_string()));
  std::string host, port_text;
  for (std::string_view key : {"username", "password", "host", "port"}) {
    auto value = secret_value(*s.default_user_secret, key);
    if (!value || value->empty())
      return wait(reason_waiting_for_messaging_credentials,
                  fmt::format("default-user Secret {} missing key \"{}\"", secret_key->to_string(), key));
    if (key == "host") host = *value;
    if (key == "port") port_text = *value;
  }
  std::int32_t port = 0;
  auto [ptr, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc{} || ptr != port_text.data() + port_text.size() || port <= 0) {
    // Says which Secret, never what it holds.
    out.gate = gate_result::refuse(
        reason_vhost_error,
        fmt::format("parsing the broker port of ControlPlane {}/{}: default-user Secret {} has no valid port",
                    cp.namespace_(), cp.name(), secret_key->to_string()),
        requeue_after);
    return out;
  }

  auto ready = s.rabbitmq_cluster->find_condition("AllReplicasReady");
  if (!ready || !ready->is_true())
    return wait(reason_waiting_for_messaging,
                fmt::format("RabbitmqCluster {} is not AllReplicasReady", cluster_key->to_string()));
  out.gate = gate_result::pass();
  out.host = host;
  out.port = port;
  return out;
}

}  // namespace c5c3::c5c3::rabbitmqvhost
