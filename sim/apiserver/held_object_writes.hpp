// Double writers of the monitoring controllers' orders (issue 17, pure).
//
// The c5c3.io orders' check (double_writers.cpp) counts writes for an order's
// status and for its children, which carry the order's three labels. The
// monitoring controllers' orders (sharded the same way: one ring per
// controller group, the claim the object's c5c3.io/shard label) are objects
// of other projects' kinds, and their controllers write mostly on the order
// itself. So for them a double write is a write on the order, by a replica
// (User-Agent "c5c3-operator/<replica>") that does not hold it as it was
// stored when the write came, of what the order's own controller writes:
//   - its status subresource (any write, a no-op too);
//   - on the main resource: its labels other than the claim label, its
//     finalizers, and its status when the kind has no status subresource.
// Not counted: creates and deletes (a user's or another order's write: the
// client-org Namespace's controller creates and deletes GrafanaDashboard
// copies, which are the grafana ring's orders), a write that changes the claim
// label alone (a claim or a release), and a main-resource write that changes
// only the spec or annotations (the copies' updates by the client org's
// holder). The monitoring controllers' children carry no mark of the order
// they were written for (ownerReferences do not say it: the Federation
// controller writes copies owned by a project Prometheus for a ServiceMonitor),
// so they are not counted.
//
// The orders (as the operator selects them, actors/monitoring): Prometheus,
// Alertmanager, GrafanaDashboard, GrafanaDatasource, ServiceMonitors labelled
// monitoring.appscode.com/prometheus auto or federated, client-org Namespaces
// (ace.appscode.com/client-org=true, ...-monitoring not "false"). The
// TokenRefresher's one Secret is not among them.
#pragma once

#include "sim/apiserver/apiserver.hpp"

#include "k8s/object.hpp"

#include <optional>
#include <string_view>

namespace c5c3::sim {

// One stored write, as the emulator saw it.
struct stored_write {
  std::string_view verb;         // create, update, patch, apply, delete, deletecollection
  std::string_view plural;       // the resource written
  std::string_view subresource;  // "" or "status"
  bool status_subresource = false;  // the kind serves one
  const k8s::object& before;        // the stored object the write replaced (empty: created)
  const k8s::object& after;         // the stored object after it
};

// Whether `o` is an order of a monitoring controller (the list above).
bool is_monitoring_order(const k8s::object& o);

// The double write `w` is when `replica` made it; nullopt when it is none.
std::optional<double_write> held_object_double_write(std::string_view replica, const stored_write& w);

}  // namespace c5c3::sim
