// The cluster actor: one per API server connection. It owns a k8s::client
// and an io_context thread, answers every protocol cluster-I/O request
// (protocol/cluster_io.hpp) and runs informers keyed by (kind, namespace,
// label selector), shared between the subscribers of protocol/subscription.hpp.
//
//   auto cluster = cluster::spawn_cluster(sys, {"", conn.client});
//   self->request(cluster, 10s, protocol::get_request{ref}).then(...);
//   self->request(cluster, 10s, protocol::subscribe_request{gvk, ns, sel, me, optional});
//
// Reads with read_from::cache are answered from a synced informer of the
// kind whose namespace covers the request (and, for lists, of the same
// selector); otherwise from the server. Optional kinds are watched through
// their CustomResourceDefinition. health_atom answers a
// protocol::cluster_health (synced, whether its API server answers, the last
// error). Stop it with an exit message (or drop every handle); its
// informers, client and thread end with it.
#pragma once

#include "k8s/client/client.hpp"
#include "k8s/log.hpp"

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>

#include <optional>
#include <string>

namespace c5c3::cluster {

struct cluster_options {
  std::string name;  // "" for the management cluster; object_event::cluster carries it
  k8s::client_config client;
  // Informer errors and failed kind lookups, once per change, with "cluster".
  k8s::log::logger log = k8s::log::root().named("cluster");
};

caf::actor spawn_cluster(caf::actor_system& sys, cluster_options opts);

// Why no client can be made from `c` (a bad server URL, CA or client
// certificate data that is not usable), if it cannot; the text names no secret.
std::optional<std::string> client_problem(const k8s::client_config& c);

}  // namespace c5c3::cluster
