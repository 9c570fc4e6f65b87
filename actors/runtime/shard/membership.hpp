// The membership actor, one per ring (controller group) in a sharded
// operator: it holds this replica's own coordination.k8s.io/v1 Lease in the
// operator's namespace (server-side applied at start and every duration/3,
// released on stop), watches the ring's Leases (label c5c3.io/shard-ring=<ring>)
// and tells its listeners (the group's order hosts) the ready members
// (protocol/shard.hpp) on every change, including a Lease running out (it
// looks again at the next expiry; no event marks that). On stop it releases
// its Lease (holderIdentity emptied), so the others take over at once.
// RBAC: leases list, watch, patch, and create (an apply that creates).
//
// Its own Lease counts as held only until its last successful renewal plus
// two thirds of the duration: a replica whose renewals fail (a partition)
// drops itself from its view, and so drains its orders, a third of the
// duration before any other replica may take them over. The same hold moves
// `fence` (lease_fence.hpp), which bounds every write's deadline: no write of
// the ring's orders starts after it, even one still retried in the client.
#pragma once

#include "actors/runtime/shard/lease_fence.hpp"
#include "k8s/log.hpp"
#include "k8s/time.hpp"

#include <caf/actor.hpp>
#include <caf/fwd.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace c5c3::runtime::shard {

struct membership_config {
  caf::actor cluster;      // the management cluster actor (protocol/cluster_io.hpp)
  std::string namespace_;  // the operator's namespace: where the Leases live
  std::string name;        // this replica (holderIdentity)
  std::string ring;        // the ring's name: the controller group
  std::chrono::seconds duration{15};
  std::string field_manager = "c5c3-operator";
  std::function<k8s::time_point()> now;  // empty: the system clock
  std::shared_ptr<lease_fence> fence{};   // null: none
  k8s::log::logger log = k8s::log::root().named("shard");
};

// The Lease's name: "<name>-<ring>" (one Lease per replica and ring).
std::string lease_name(const membership_config& c);

caf::actor spawn_membership(caf::actor_system& sys, membership_config cfg);

}  // namespace c5c3::runtime::shard
