// The order host, one per kind: maps (cluster, namespace, name) to an order
// actor, spawns it on first sight of the order, routes events of the order
// and of its children to it, and retires it once the order is gone.
//
// In (from the cluster actors' subscriptions, or anyone):
//   protocol::object_event  of the order kind: added/modified spawn or update
//                           the actor; an update wakes it only when
//                           cr_update_predicate passes (status writes do not);
//                           deleted retires it (it finishes a pass in flight).
//                           of any other kind: a child, mapped back by the
//                           ownership labels (or a controller reference to
//                           the order kind) and woken; old and new versions
//                           both count, so a relabelled child wakes both orders.
//                           of a referencing kind (cfg.referenced_by): the
//                           order the field names, in the object's namespace on
//                           the event's cluster (old and new versions both).
//                           of a referenced kind (cfg.references): every order
//                           of this kind whose field names the object (or
//                           shares its fields), through the host's index of
//                           its orders (reference_index.hpp; no scan of the
//                           orders), an update only when the reference's
//                           filter passes it. The order kind itself may be
//                           one (an assignment's peers of the same user,
//                           project and role): its own events wake the others.
//                           of a kind with a wake rule (cfg.wakes): also
//                           every order of the event's cluster whose latest
//                           object the rule relates to it (old and new; a scan).
//                           An object of the order kind that cfg.order_selector
//                           does not match is routed as another kind's.
//   protocol::wake_order, protocol::control_plane_changed: wake known orders.
//   protocol::cluster_disengaged, or kind_availability{served = false} of the
//                           order kind: retire every actor of that cluster.
//                           After cluster_disengaged, the events its cluster
//                           actor (`source`) sent before it stopped are
//                           ignored, until that actor's down message.
//   protocol::stop_atom     stop every actor (passes in flight finish), answer
//                           ok_atom once all are gone, then quit.
// Out: (protocol::cp_forget_atom, order_key) to cfg.control_planes for every
//                           order that leaves the host (deleted, drained,
//                           its cluster gone; a stopped host's go with it).
//   protocol::probe_atom    answers a protocol::host_probe.
//   (probe_atom, order_key) answers that order actor's protocol::order_probe.
//
// Sharded (cfg.shard.me set, actors/runtime/shard/): the host subscribes to
// the ring's membership and runs an order actor only for the orders it holds
// (label c5c3.io/shard: <me>) and the ring gives it. It claims an order the
// ring gives it that is unclaimed or held by a member that is not ready (a
// merge patch of the label with the order's resourceVersion as precondition:
// the API server decides between two claimants); when the ring gives one of
// its orders to another member it retires the actor (the pass in flight
// finishes, its timers go with it) and only once the actor is gone removes the
// label, after which the new owner claims it. Until the first view, and while
// its own Lease is not held, it runs nothing.
//   protocol::shard_view    from the membership: re-decide every known order.
#pragma once

#include "actors/runtime/controller_metrics.hpp"
#include "actors/runtime/order_actor.hpp"
#include "actors/runtime/ownership.hpp"
#include "actors/runtime/pass.hpp"
#include "actors/runtime/shard/gate.hpp"

#include <caf/actor.hpp>
#include <caf/fwd.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace c5c3::runtime {

struct order_host_config {
  std::string controller;  // the controller name in metrics, e.g. "keystoneuser"
  k8s::gvk order_kind;     // group and kind identify the order's own events
  ownership_keys keys;
  // Only objects of the order kind this label selector matches are orders
  // (For(kind) with a label predicate); "" every object of the kind.
  std::string order_selector;
  // Kinds whose events wake many orders (runner: watch_decl::wakes).
  std::vector<wake_rule> wakes;
  // Kinds whose objects name an order of this kind by a field (holds on
  // deletion: a KeystoneRoleAssignment's spec.userRef.name).
  std::vector<reference_field> referenced_by;
  // Kinds this kind's orders name by a field (a KeystoneRoleAssignment's
  // spec.userRef.name names a KeystoneUser in the order's namespace, on its
  // cluster): `gvk` is the named kind, `path` the field of the order (or
  // `shared` fields on both sides). An event of one wakes the orders that name
  // it; `passes` filters its updates.
  std::vector<reference_field> references;
  pass_factory make_pass;
  caf::actor limiter;  // shared by all hosts; invalid: no limit
  // The limiter's size, published as controller_runtime_max_concurrent_reconciles.
  std::uint32_t max_concurrent_reconciles = 1;
  std::shared_ptr<controller_metrics> metrics;
  order_actor_options actor_options;
  shard::shard_options shard;  // me empty: not sharded
  // The ControlPlane directory the kind's orders ask for admission (invalid:
  // the kind has none). It keeps each order for its fan-out on this host's
  // behalf; the host tells it (cp_forget_atom) when an order leaves.
  caf::actor control_planes;
};

caf::actor spawn_order_host(caf::actor_system& sys, order_host_config cfg);

}  // namespace c5c3::runtime
