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
//
// Projections (issue 19, read_slot::drop): the children's informers leave out
// what no step of the kind reads. The children are written by server-side
// apply and merge patches of the plan's own fields (never an object read back
// whole), compared by their applied fields (spec, labels, annotations), and
// read for generation, status.observedGeneration, the Ready condition's
// status, reason and message, the push hash annotations and
// status.syncedResourceVersion, the controller reference, uid and
// resourceVersion (memo, deletes) and deletionTimestamp. So Vhost, User,
// Permission and PushSecret go without creationTimestamp, finalizers (the
// topology and ESO operators'), their conditions' lastTransitionTime; a User
// without status.credentials and status.username; a PushSecret without
// status.syncedPushSecrets and status.refreshTime. The Secrets are written back
// by update (PUT) from what the cache shows (scaffold/order_secret.cpp copies
// data, labels, annotations, type, ownerReferences, finalizers,
// resourceVersion): they lose only creationTimestamp. The order itself (its
// status is a PUT of the cached object) and the ControlPlane, RabbitmqCluster
// and stores stay whole.
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

// The projections of the children slots (above).
std::vector<std::string> topology_drop();     // Vhost, Permission
std::vector<std::string> user_drop();         // User
std::vector<std::string> push_secret_drop();  // PushSecret
std::vector<std::string> secret_drop();       // Secret (children and the delivered one)

// The read slots, and plan_pass's snapshot from what they answered.
std::vector<runtime::read_slot> reads();
pass_snapshot snapshot_of(const runtime::sense_snapshot& s, const random_source& random);
// plan_pass's plan as the runner's: the writes, the finalizer, the status
// (the order with it, when it changed), the requeue, and the named timers
// "rotation" (status.nextRotation) and "grace" (status.previousPasswordDeleteAt)
// of the status the pass leaves, each only while its time is ahead of the pass.
runtime::order_plan order_plan_of(const pass_plan& p, const pass_snapshot& s);

// The whole declaration (`random`: the passwords' randomness).
std::shared_ptr<const runtime::kind_declaration> declaration(random_source random);

}  // namespace c5c3::c5c3::rabbitmqvhost
