// deliverCredentials (rabbitmqvhost-reconciler.txt, "Credential delivery"):
// the broker address for the order's cluster, the transport URL, the source
// Secret and the PushSecret backing it up to OpenBao, and the Secret
// delivered beside the order. It writes DeliveryReady.
#pragma once

#include "actors/c5c3/rabbitmqvhost/provision.hpp"
#include "actors/c5c3/rabbitmqvhost/spec.hpp"
#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/messaging.hpp"
#include "k8s/object.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::c5c3::rabbitmqvhost {

// Go's url.UserPassword escaping of one userinfo part: everything but
// ALPHA / DIGIT / "-._~" and "$&+,;=" is percent-encoded (uppercase hex).
std::string escape_userinfo(std::string_view s);

// messaging.BuildTransportURLForVhost: rabbit://<user>:<password>@<host>:<port>/<vhost>
// (an IPv6 host in brackets), and the lowercase hex SHA-256 of the URL.
struct transport_url {
  std::string url;
  std::string hash;
};
transport_url build_transport_url_for_vhost(std::string_view username, std::string_view password,
                                            std::string_view host, std::int32_t port, std::string_view vhost);

// net.JoinHostPort.
std::string join_host_port(std::string_view host, std::int32_t port);
// splitBrokerEndpoint: split_broker_endpoint in actors/c5c3/scaffold/messaging.hpp.

struct delivery_snapshot {
  const vhost_order* order = nullptr;
  const vhost_status* status = nullptr;  // after the provision step
  std::string order_api_version = std::string(api_version);
  const k8s::object* control_plane = nullptr;
  std::string in_cluster_host;  // from the messaging gate
  std::int32_t in_cluster_port = 0;
  secret_store_state store;
  // On the management cluster, in the ControlPlane's namespace.
  const k8s::object* password_secret = nullptr;  // <prefix>password-v<N>
  const k8s::object* source_secret = nullptr;    // <prefix>source
  const k8s::object* push_secret = nullptr;      // <prefix>backup
  // On the order's cluster, read live: <name>-credentials.
  const k8s::object* delivered_secret = nullptr;
  std::vector<k8s::object> read_by_name;
};

struct delivery_plan {
  std::vector<child_write> writes;
  vhost_status status;
  k8s::condition delivery_ready;
  c5c3::requeue requeue;
};

delivery_plan deliver_credentials(const delivery_snapshot& s);

}  // namespace c5c3::c5c3::rabbitmqvhost
