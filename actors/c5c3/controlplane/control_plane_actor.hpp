// One actor per ControlPlane (issue 6, "ControlPlane actor"; apis.md 1.1-1.3,
// 1.9b, 2.5). It keeps the ControlPlane from its informer subscription on the
// management cluster (no API read per admission) and answers:
//
//   admission_request -> admission_answer   (the scaffold's order_admission:
//       ClusterNameTooLong, ControlPlaneNotFound / NamespaceNotAssigned when
//       absent, the freeze, the matching namespaceAssignments entry,
//       AdminCredentialReady). Requests that arrive before the informer synced
//       wait for it.
//   endpoints_request -> control_plane_endpoints (Keystone auth URL, region,
//       endpoint type; the broker: the default-user Secret's host and port on
//       the management cluster, publishedMessagingEndpoint elsewhere), or a
//       not_found api error while the ControlPlane is absent.
//
// Every order that asked for admission is tracked; an update that
// order_control_plane_predicate passes (generation, deletion timestamp,
// AdminCredentialReady flip), the ControlPlane's deletion and its (re)creation
// send control_plane_changed{ref, orders} to every registered host. After the
// deletion every admission is refused as absent ("gone") and every endpoints
// request is answered not_found.
#pragma once

#include "actors/c5c3/controlplane/messages.hpp"
#include "k8s/object.hpp"
#include "protocol/control_plane.hpp"

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>

#include <chrono>

namespace c5c3::c5c3::controlplane {

// c5c3.io/v1alpha1 ControlPlane, rabbitmq.com/v1beta1 RabbitmqCluster, v1 Secret.
k8s::gvk control_plane_gvk();
k8s::gvk rabbitmq_cluster_gvk();
k8s::gvk secret_gvk();

struct control_plane_config {
  protocol::control_plane_ref ref;
  caf::actor management_cluster;  // the cluster actor of the management cluster
  caf::timespan read_timeout = std::chrono::seconds(30);
  // Subscribe to its namespace's ControlPlanes itself. The directory's
  // actors do not: the directory's one subscription feeds them.
  bool subscribe = true;
};

// It also takes (cp_forget_atom, order) (an order left), (cp_failed_atom,
// error) (the directory's subscription was refused) and retire_atom (quit).
caf::actor spawn_control_plane(caf::actor_system& sys, control_plane_config cfg);

// The directory: finds or spawns the actor of a ControlPlane, forwards
// admission and endpoints requests to it, and registers hosts with every
// ControlPlane actor (present and future). Bounded memory:
// - One subscription to ControlPlanes in every namespace feeds every actor
//   (the events of its ControlPlane, the synced signal): an order naming a
//   ControlPlane that does not exist costs no watch of its own.
// - It monitors the senders of admission requests (the order actors) and
//   counts the orders per ControlPlane; once no order refers to one (its
//   order actors died, or moved to another ControlPlane) its actor retires.
// probe_atom answers a control_plane_directory_probe.
caf::actor spawn_control_plane_directory(caf::actor_system& sys, caf::actor management_cluster,
                                         caf::timespan read_timeout = std::chrono::seconds(30));

}  // namespace c5c3::c5c3::controlplane
