// The world a RabbitMQVhost order sees, for the provision, delivery and pass
// tests: its children in the ControlPlane's namespace, built the way the
// steps build them and reported by the topology operator by hand.
#pragma once

#include "actors/c5c3/rabbitmqvhost/topology.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"
#include "tests/c5c3/snapshots.hpp"

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

}  // namespace c5c3::test
