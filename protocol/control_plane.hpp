// Conversation: an order asks the ControlPlane actor whether it is admitted
// (apis.md "orderAdmission": the cluster-name check, the ControlPlane read, the
// consent lookup in spec.namespaceAssignments, AdminCredentialReady) and where
// the services it delivers to live (Keystone auth URL, the messaging endpoint).
//
//   order actor -> ControlPlane actor : admission_request -> admission_answer
//                                       endpoints_request -> control_plane_endpoints
//   ControlPlane actor -> order host  : control_plane_changed (the fan-out that
//                                       orderControlPlanePredicate passes)
//   order host -> ControlPlane directory : (cp_host_atom, caf::actor host)
//                                       registers a host for the fan-out; ok_atom
//                                       (cp_forget_atom, order_key): the order
//                                       left the host (deleted, drained, stopped)
#pragma once

#include "protocol/order.hpp"
#include "protocol/payloads.hpp"

#include <caf/actor_addr.hpp>
#include <caf/allowed_unsafe_message_type.hpp>
#include <caf/atom.hpp>
#include <caf/meta/type_name.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace c5c3::protocol {

using cp_host_atom = caf::atom_constant<caf::atom("cp_host")>;
using cp_forget_atom = caf::atom_constant<caf::atom("cp_forget")>;

// The ControlPlane an order references: spec.controlPlaneRef resolved to a
// namespace and a name.
struct control_plane_ref {
  std::string namespace_;
  std::string name;
  friend bool operator==(const control_plane_ref&, const control_plane_ref&) = default;
  friend auto operator<=>(const control_plane_ref&, const control_plane_ref&) = default;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, control_plane_ref& x) {
  return f(caf::meta::type_name("c5c3::protocol::control_plane_ref"), x.namespace_, x.name);
}

struct admission_request {
  order_key order;  // its cluster and namespace are what consent is looked up for
  control_plane_ref control_plane;
  // The order's host: the directory keeps the order for the fan-out until the
  // host forgets it or goes, so it outlives a parked order's actor. Invalid:
  // until the sender goes.
  caf::actor_addr host;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, admission_request& x) {
  return f(caf::meta::type_name("c5c3::protocol::admission_request"), x.order, x.control_plane, x.host);
}

// The verdicts of orderAdmission, named after their condition reasons.
enum class admission_verdict : std::uint8_t {
  admitted,
  cluster_name_too_long,    // ClusterNameTooLong, no requeue
  control_plane_not_found,  // ControlPlaneNotFound (management cluster), requeue 10s
  namespace_not_assigned,   // NamespaceNotAssigned (frozen), requeue 1m
};
std::string to_string(admission_verdict x);

// spec.namespaceAssignments[] entry that admitted the order.
struct namespace_assignment {
  std::string namespace_;
  std::string target_cluster;  // "" = the management cluster
  std::vector<std::string> allowed_roles;
  bool allow_catalog_entries = false;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, namespace_assignment& x) {
  return f(caf::meta::type_name("c5c3::protocol::namespace_assignment"), x.namespace_,
           x.target_cluster, x.allowed_roles, x.allow_catalog_entries);
}

struct admission_answer {
  admission_verdict verdict = admission_verdict::control_plane_not_found;
  std::string message;               // the condition message for a refusal
  namespace_assignment assignment;   // meaningful when admitted
  bool admin_credential_ready = false;
  k8s::object control_plane;         // the cached ControlPlane, when it exists
};

struct endpoints_request {
  control_plane_ref control_plane;
  std::string order_cluster;  // where the order lives decides in-cluster vs published
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, endpoints_request& x) {
  return f(caf::meta::type_name("c5c3::protocol::endpoints_request"), x.control_plane,
           x.order_cluster);
}

struct control_plane_endpoints {
  std::string keystone_auth_url;  // korcAuthURL for the order's cluster
  std::string region;             // RegionOne when unset
  std::string endpoint_type;      // internal | public
  // The broker for RabbitMQVhost orders: in-cluster on the management
  // cluster, spec.infrastructure.publishedMessagingEndpoint elsewhere.
  std::string messaging_host;
  std::uint16_t messaging_port = 0;
  std::string messaging_problem;  // a reason when there is no usable broker address
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, control_plane_endpoints& x) {
  return f(caf::meta::type_name("c5c3::protocol::control_plane_endpoints"), x.keystone_auth_url,
           x.region, x.endpoint_type, x.messaging_host, x.messaging_port, x.messaging_problem);
}

// A ControlPlane update an order reads: spec change, deletion, or a flip of
// AdminCredentialReady. The host wakes the orders that reference it.
struct control_plane_changed {
  control_plane_ref control_plane;
  std::vector<order_key> orders;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, control_plane_changed& x) {
  return f(caf::meta::type_name("c5c3::protocol::control_plane_changed"), x.control_plane,
           x.orders);
}

}  // namespace c5c3::protocol

// Local only: carries the ControlPlane object.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::protocol::admission_answer)
