#include "actors/c5c3/rabbitmqvhost/messaging_gate.hpp"

#include "actors/c5c3/rabbitmqvhost/constants.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3::rabbitmqvhost {

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

  // messaging.ResolveTransportURL: the four waits, then the port.
  auto broker = resolve_in_cluster_broker(cp, *cluster_key, s.rabbitmq_cluster, s.default_user_secret);
  switch (broker.wait) {
    case broker_wait::none:
      break;
    case broker_wait::credentials:
      return wait(reason_waiting_for_messaging_credentials, std::move(broker.message));
    case broker_wait::bad_port:
      out.gate = gate_result::refuse(reason_vhost_error, std::move(broker.message), requeue_after);
      return out;
    case broker_wait::not_ready:
      return wait(reason_waiting_for_messaging, std::move(broker.message));
  }
  out.gate = gate_result::pass();
  out.host = std::move(broker.address.host);
  out.port = broker.address.port;
  return out;
}

}  // namespace c5c3::c5c3::rabbitmqvhost
