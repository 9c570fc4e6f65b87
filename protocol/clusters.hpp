// Conversation: the cluster directory, one per operator process. It knows the
// management cluster actor and every engaged target cluster actor, and keeps
// each kind's watches subscribed on the clusters they cover as targets come
// and go.
//
//   anyone   -> directory : (lookup_cluster_atom, std::string cluster) -> caf::actor
//                           the cluster actor ("" = management); an
//                           api_errc::not_found error while it is not engaged
//   kind     -> directory : watch_request -> ok_atom
//                           subscribes `subscription.subscriber` now, and on
//                           every later engagement for every_cluster watches;
//                           the subscriber also hears cluster_disengaged
//   host     -> directory : rescope_request -> ok_atom
//                           passed to every engaged cluster; remembered for
//                           the subscriber's scoped watches registered later
//                           and for clusters engaged later
//   registry -> directory : cluster_engaged / cluster_disengaged
//   main     -> directory : synced_atom -> bool  (every subscription it made
//                           on the management cluster is answered and has
//                           delivered its initial list: /readyz. Target
//                           clusters do not count: a dead one must not make
//                           the operator unready). A cluster actor answers
//                           synced_atom too: false before its first
//                           subscription and while a kind's lookup is retried.
//   anyone   -> directory : health_atom -> std::vector<cluster_health>, the
//                           management cluster first, then every engaged
//                           target; (health_atom, cluster) -> cluster_health
//                           (an api_errc::not_found error while not engaged).
//                           A cluster actor answers health_atom with its own.
#pragma once

#include "protocol/subscription.hpp"

#include <caf/atom.hpp>
#include <caf/meta/type_name.hpp>

#include <cstdint>
#include <string>

namespace c5c3::protocol {

using lookup_cluster_atom = caf::atom_constant<caf::atom("lookup_cl")>;
using synced_atom = caf::atom_constant<caf::atom("synced")>;
using health_atom = caf::atom_constant<caf::atom("health")>;

enum class watch_scope : std::uint8_t {
  management,     // the management cluster only
  every_cluster,  // the management cluster and every engaged target cluster
};
std::string to_string(watch_scope x);

struct watch_request {
  subscribe_request subscription;
  watch_scope scope = watch_scope::management;
};
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, watch_request& x) {
  return f(caf::meta::type_name("c5c3::protocol::watch_request"), x.subscription, x.scope);
}

// How one cluster fares, for metrics, logs and the orders living on it.
struct cluster_health {
  std::string cluster;     // "" = management
  bool synced = false;     // as its synced_atom answers
  bool known = false;      // some request to its API server has ended
  bool reachable = false;  // the last one that ended got an HTTP answer
  std::string error;       // the last error it met (one line, no secrets), "" when none
};
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, cluster_health& x) {
  return f(caf::meta::type_name("c5c3::protocol::cluster_health"), x.cluster, x.synced, x.known, x.reachable,
           x.error);
}

}  // namespace c5c3::protocol
