// The world a RabbitMQVhost order sees, for the provision, delivery and pass
// tests: its children in the ControlPlane's namespace, built the way the
// steps build them and reported by the topology operator by hand.
#pragma once

#include "actors/c5c3/rabbitmqvhost/topology.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"
#include "tests/c5c3/snapshots.hpp"

#include "actors/c5c3/rabbitmqvhost/delivery.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"

#include <fmt/format.h>

namespace c5c3::test {

enum class topo { ready, pending, failed };

inline orders::order_ref order_ref_mgmt() { return vhost::make_order_ref("orders", "tenant-a", ""); }
inline vhost::vhost_names names() { return vhost::vhost_names(order_ref_mgmt()); }

inline object topo_state(const object& obj, topo state) {
  switch (state) {
    case topo::ready: return topology_ready(obj, 1);
    case topo::pending: return topology_not_ready(obj, 1);
    case topo::failed: return topology_failed(obj, "nope");
  }
  return obj;
}

inline object live_vhost(std::string_view policy = "retain", topo state = topo::ready) {
  auto n = names();
  return topo_state(
      labelled(vhost::build_vhost(n.vhost_child(), "openstack", n.vhost(), "openstack-rabbitmq", policy),
               order_ref_mgmt()),
      state);
}

inline object live_user(std::int64_t gen, topo state = topo::ready) {
  auto n = names();
  return topo_state(
      labelled(vhost::build_user(n.user(gen), "openstack", "openstack-rabbitmq", n.password_secret(gen)),
               order_ref_mgmt()),
      state);
}

inline object live_permission(std::int64_t gen, topo state = topo::ready) {
  auto n = names();
  return topo_state(labelled(vhost::build_permission(n.permission(gen), "openstack", "openstack-rabbitmq", n.vhost(),
                                                     n.broker_user(gen)),
                             order_ref_mgmt()),
                    state);
}

inline object live_password(std::int64_t gen, std::string password = "") {
  auto n = names();
  if (password.empty()) password = fmt::format("password-of-generation-{}", gen);
  return labelled(make_secret("openstack", n.password_secret(gen),
                              {{"username", n.broker_user(gen)}, {"password", password}},
                              {{"rabbitmq.com/topology-operator", "true"}}),
                  order_ref_mgmt());
}

// status JSON of a live generation.
inline std::string live_status(std::int64_t gen, std::string_view last_rotation = "2026-11-30T00:00:00Z",
                               std::int64_t prev = 0, std::string_view delete_at = "") {
  std::string s = fmt::format(R"({{"vhost":"orders-32606a5f","username":"orders-32606a5f-v{}","passwordGeneration":{},"lastRotation":"{}")",
                              gen, gen, last_rotation);
  if (prev) s += fmt::format(R"(,"previousPasswordGeneration":{},"previousPasswordDeleteAt":"{}")", prev, delete_at);
  return s + "}";
}

// The delivery side of a converged order on the management cluster.
inline const std::string in_cluster_host = "openstack-rabbitmq.openstack.svc";
inline const std::string password = "password-of-generation-1";
inline const std::string url = "rabbit://orders-32606a5f-v1:password-of-generation-1@openstack-rabbitmq.openstack.svc:5672/"
                        "orders-32606a5f";

inline std::map<std::string, std::string> six_keys(const std::string& u = url, const std::string& host = in_cluster_host,
                                            const std::string& port = "5672", const std::string& pw = password) {
  return {{"transport_url", u}, {"host", host},   {"port", port},
          {"username", "orders-32606a5f-v1"}, {"password", pw}, {"vhost", "orders-32606a5f"}};
}

inline object source_secret(const std::map<std::string, std::string>& data = six_keys()) {
  return labelled(make_secret("openstack", names().source_secret(), data), order_ref_mgmt());
}

inline object push_secret(std::string_view hash, std::string_view before, std::string_view synced) {
  auto b = orders::build_push_secret(names().push_secret(), "openstack", names().source_secret(),
                                    names().remote_key("openstack"), {"SecretStore", "openbao-tenant-store", true})
               .edit();
  b.set_annotation("c5c3.io/rabbitmqvhost-push-hash", hash);
  b.set_annotation("c5c3.io/rabbitmqvhost-push-synced-before", before);
  b.set_string({"status", "syncedResourceVersion"}, synced);
  auto o = with_condition(std::move(b).freeze(), "Ready", true);
  return labelled(o, order_ref_mgmt());
}

inline object fresh_push() { return push_secret(orders::sha256_hex(url), "1-a", "2-b"); }

inline object delivered_secret(const std::map<std::string, std::string>& data = six_keys(), std::string_view uid = "uid-order") {
  return controlled_by(make_secret("tenant-a", "orders-credentials", data,
                                   {{"c5c3.io/rabbitmqvhost-name", "orders"}, {"c5c3.io/rabbitmqvhost-namespace", "tenant-a"}}),
                       uid);
}

}  // namespace c5c3::test
