// The grafana controller group (upstream's `grafana` subcommand,
// apis-monitoring.md 1.1): GrafanaDashboardReconciler and
// GrafanaDatasourceReconciler, each started at the first sight of its CRD
// (the CRD bootstrap of 1.5 ensures them; the activation of activation.hpp
// starts the host once the CRD is seen), with the Grafana service (an
// runtime::http_service) and the event recorder their Warning Events go to.
// `c5c3-operator --controllers=grafana`.
#pragma once

#include "actors/monitoring/controllers.hpp"

namespace c5c3::monitoring {

// The activation of the two (stop_atom, probe_atom as activation.hpp); it
// owns the Grafana service, the event recorder and the limiters.
// opts.flags.requeue_after_duration is the dashboards' requeue;
// opts.service_timeout each Grafana request's.
caf::actor spawn_grafana(caf::actor_system& sys, controllers_options opts);

}  // namespace c5c3::monitoring
