// The RabbitMQVhost kind as the order runner runs it (actors/runtime/runner):
// what its pass senses (rabbitmqvhost-reconciler.txt "Reconciliation Flow",
// "Watches"), the adapter from the runner's snapshot to plan_pass and back,
// and its constants. Pure: no actor, no request.
//
// Reads, all from the informer caches: past admission (or for a deleting
// order) the children in the ControlPlane's namespace listed by the order's
// labels (Vhost, User, Permission, PushSecret: an unserved topology kind is
// TopologyOperatorNotInstalled; Secret), the delivered Secret beside the order
// on its cluster (read live before a write to it: a foreign Secret is
// refused), and for a live order the RabbitmqCluster the ControlPlane names,
// its default-user Secret (the cluster operator's part-of label; the API
// server when not labelled) and the secret store.
#pragma once

#include "actors/c5c3/rabbitmqvhost/pass.hpp"
#include "actors/runtime/runner/declaration.hpp"

#include <memory>
#include <string>

namespace c5c3::c5c3::rabbitmqvhost {

// The kinds the pass reads and writes.
k8s::gvk order_gvk();
k8s::gvk vhost_gvk();
k8s::gvk user_gvk();
k8s::gvk permission_gvk();
k8s::gvk push_secret_gvk();
k8s::gvk rabbitmq_cluster_gvk();
k8s::gvk secret_gvk();
// The selector of the cluster operator's Secrets (the default-user Secret).
std::string rabbitmq_secret_selector();

// The read slots, and plan_pass's snapshot from what they answered.
std::vector<runtime::read_slot> reads();
pass_snapshot snapshot_of(const runtime::sense_snapshot& s, const random_source& random);
// plan_pass's plan as the runner's: the writes, the finalizer, the status
// (the order with it, when it changed), the requeue, and the named timers
// "rotation" (status.nextRotation) and "grace" (status.previousPasswordDeleteAt)
// of the status the pass leaves.
runtime::order_plan order_plan_of(const pass_plan& p, const pass_snapshot& s);

// The whole declaration (`random`: the passwords' randomness).
std::shared_ptr<const runtime::kind_declaration> declaration(random_source random);

}  // namespace c5c3::c5c3::rabbitmqvhost
