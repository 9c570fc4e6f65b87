// The cluster directory (protocol/clusters.hpp): one per operator process.
// It answers which cluster actor serves a cluster name, keeps each kind's
// watches subscribed on the clusters they cover while target clusters are
// engaged and disengaged, and answers whether every subscription it made has
// synced (what /readyz reports).
//
//   auto dir = cluster::spawn_cluster_directory(sys, management);
//   // make it a listener of the target registry:
//   cluster::spawn_target_registry(sys, {management, ns, {dir}});
//   self->request(dir, 10s, protocol::watch_request{{gvk, "", sel, host, true},
//                                                   protocol::watch_scope::every_cluster});
#pragma once

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>

namespace c5c3::cluster {

caf::actor spawn_cluster_directory(caf::actor_system& sys, caf::actor management);

}  // namespace c5c3::cluster
