// The I/O runner of one RabbitMQVhost pass (design.md "An order actor's pass:
// sense, plan, act"; rabbitmqvhost-reconciler.txt "Reconciliation Flow").
//
// Sense: the order (ctx.order()); its cluster actor and the management one
// (the cluster directory); admission through the ControlPlane directory
// (which registers the order for the fan-out); past admission, or for a
// deleting order, the reads in the ControlPlane's namespace, every one from
// an informer cache (read_from::cache), so a converged order makes no API
// request: the RabbitmqCluster, its default-user Secret (listed by the
// cluster operator's part-of label), the secret store, the children listed by
// the order's labels (an unserved kind is TopologyOperatorNotInstalled), and
// the delivered Secret on the order's cluster.
// Plan: plan_pass. Act: the plan's writes in order; an AlreadyExists is read
// by name and planned again; the answers are folded into the snapshot and the
// plan is made again until it asks for nothing (bounded). The delivered
// Secret is read live from the order's API server before a write to it (a
// foreign Secret is refused). Then the finalizer (a JSON patch that tests the
// resourceVersion) and the status subresource when it changed.
// Result: the plan's requeue, and the named timers "rotation"
// (status.nextRotation) and "grace" (status.previousPasswordDeleteAt) derived
// from the status, so a restarted actor re-arms them from status alone.
#pragma once

#include "actors/c5c3/rabbitmqvhost/sub_reconciler_metrics.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"
#include "actors/c5c3/scaffold/order_ref.hpp"
#include "actors/runtime/pass.hpp"
#include "k8s/object.hpp"

#include <caf/actor.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace c5c3::c5c3::rabbitmqvhost {

// The kinds the pass reads and writes.
k8s::gvk order_gvk();
k8s::gvk vhost_gvk();
k8s::gvk user_gvk();
k8s::gvk permission_gvk();
k8s::gvk push_secret_gvk();
k8s::gvk secret_store_gvk(std::string_view kind);  // SecretStore or ClusterSecretStore
k8s::gvk rabbitmq_cluster_gvk();
k8s::gvk secret_gvk();
// The selector the children are watched and listed with: the name label exists.
std::string child_selector();
// The selector of one order's children (name and namespace labels): the
// cluster actor answers it from the child_selector() informer's label index.
std::string order_selector(const order_ref& ref);
// The selector of the cluster operator's Secrets (the default-user Secret).
std::string rabbitmq_secret_selector();

// The ControlPlane's store (spec.secretStoreRef; SecretStore
// openbao-tenant-store when absent).
struct store_ref {
  std::string kind = "SecretStore";
  std::string name = "openbao-tenant-store";
};
store_ref control_plane_store_ref(const k8s::object& control_plane);
// apis.md 4.3: Ready when conditions[type=Ready].status == "True".
bool secret_store_ready(const k8s::object& store);

// The named timers a pass arms from the status it leaves: "rotation" at
// nextRotation, "grace" at previousPasswordDeleteAt, each a second after the
// time (status times are whole seconds), at least `min_delay` from now.
struct rotation_timers {
  std::optional<caf::timespan> rotation;
  std::optional<caf::timespan> grace;
};
rotation_timers timers_from_status(const k8s::object& order, k8s::time_point now,
                                   caf::timespan min_delay = std::chrono::seconds(1));

struct pass_deps {
  caf::actor clusters;        // protocol/clusters.hpp directory
  caf::actor control_planes;  // ControlPlane directory
  std::string field_manager = "c5c3-operator";
  caf::timespan timeout = std::chrono::seconds(30);
  random_source random;  // empty: system_random()
  std::shared_ptr<sub_reconciler_metrics> instrumenter;  // null: none
  int max_rounds = 10;    // plans per pass before it requeues
};

// The pass of one order (the host's pass_factory calls it once per order
// actor). It remembers what its own writes of the order answered, so a pass
// that starts on a cache older than its last write does not meet a Conflict.
runtime::pass_fn make_order_pass(pass_deps deps);

}  // namespace c5c3::c5c3::rabbitmqvhost
