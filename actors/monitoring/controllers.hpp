// The monitoring controllers plugged in (monitoring-controllers.txt "Runtime
// Wiring"; apis-monitoring.md 1.3): the two detectors, the backend's and
// Rancher's service actor, and the activation that starts, at the first sight
// of each CRD, the Prometheus group (PrometheusReconciler, and the
// ClientOrgReconciler, clientorg.hpp: issue 16), the
// Alertmanager group (AlertmanagerReconciler) and the ServiceMonitor group
// (AutoReconciler, then FederationReconciler). Every controller is an order
// host on the runner: one actor per object.
#pragma once

#include "actors/runtime/metrics.hpp"
#include "actors/runtime/order_actor.hpp"
#include "actors/runtime/runner/declaration.hpp"
#include "actors/runtime/shard/gate.hpp"
#include "config/options.hpp"
#include "k8s/log.hpp"

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace c5c3::monitoring {

struct controllers_options {
  config::monitoring_options flags;
  std::string pod_namespace;  // the operator's namespace (the Rancher auth Secret's)
  caf::actor clusters;        // the cluster directory
  // One limiter per controller, as upstream (controller-runtime's
  // MaxConcurrentReconciles is per controller): max_concurrent_reconciles
  // tokens per cluster each, owned by the activation. false: no limit.
  bool limit = false;
  std::uint32_t max_concurrent_reconciles = 1;
  runtime::metrics::registry* registry = nullptr;  // null: the default registry
  runtime::order_actor_options actor_options;
  std::string field_manager = "c5c3-operator";
  // How long a backend (or Rancher) request may take.
  std::chrono::milliseconds service_timeout{30'000};
  k8s::log::logger log = k8s::log::root().named("monitoring");
  runtime::shard::shard_options shard;  // sharded among replicas (me set): every controller's host
};

// One controller's order host as spawn_monitoring (and spawn_grafana) start
// them: its limiter (invalid: none), its metrics, the services its plans
// call and the event recorder (invalid: none) their events go to.
std::pair<std::string, caf::actor> spawn_controller_host(caf::actor_system& sys, const controllers_options& opts,
                                                         const std::map<std::string, caf::actor>& services,
                                                         caf::actor limiter, caf::actor events,
                                                         std::shared_ptr<const runtime::kind_declaration> kind);

// The activation actor (activation.hpp), owning the detectors and services;
// nullptr-like (invalid) with `error` naming the flag when the platform CA
// file cannot be read.
caf::actor spawn_monitoring(caf::actor_system& sys, controllers_options opts, std::string& error);

}  // namespace c5c3::monitoring
