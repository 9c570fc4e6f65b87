// /readyz without blocking the HTTP thread, and how the target clusters
// fare: a small actor asks the cluster directory every `period`
//   - synced_atom (the management cluster's watches, what /readyz follows),
//     cached in an atomic the readiness predicate reads; a failed or late
//     answer counts as not synced;
//   - health_atom (every engaged cluster), published as
//     c5c3_target_cluster_reachable{cluster} and c5c3_target_cluster_synced{cluster}
//     (1 or 0; the series of a target that is no longer engaged goes), and
//     logged once per change: "Target cluster unreachable" (warn, with the
//     last error) when its API server stops answering, "Target cluster
//     reachable" (info) when it answers again.
#pragma once

#include "actors/runtime/metrics.hpp"
#include "k8s/log.hpp"

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>

#include <atomic>
#include <chrono>
#include <memory>

namespace c5c3::operator_ {

struct poller_options {
  caf::timespan period = std::chrono::milliseconds(250);
  k8s::log::logger log = k8s::log::root().named("clusters");
  runtime::metrics::registry* registry = nullptr;  // null: no metrics
};

caf::actor spawn_sync_poller(caf::actor_system& sys, caf::actor directory, std::shared_ptr<std::atomic<bool>> synced,
                             poller_options opts);
caf::actor spawn_sync_poller(caf::actor_system& sys, caf::actor directory, std::shared_ptr<std::atomic<bool>> synced,
                             caf::timespan period = std::chrono::milliseconds(250));

}  // namespace c5c3::operator_
