// prometheus.PrometheusReconciler (monitoring-controllers.txt; apis-monitoring.md
// section 4) on the order runner: its settings, its sense declaration and
// its pure plan.
//
// A pass: the detector gate; OpenShift's cluster Prometheus is left alone;
// on deletion the chart preset is deleted, the backend context unregistered
// and the finalizer monitoring.appscode.com/prometheus released; otherwise
// spec.externalLabels {cluster, cluster_uid} are patched, the finalizer added,
// and SetupClusterForPrometheus: the access setup (the Rancher token, or the
// ServiceAccount trickster and its token Secret), ClusterRole and RoleBinding
// appscode:trickster:proxy, the chart preset, and the backend registration
// when the RoleBinding's markers differ from the cluster's state (for the
// default Prometheus also the AppBindings default-prometheus, default-grafana
// and the Secret default-grafana-auth), the markers stamped last.
#pragma once

#include "actors/monitoring/backend.hpp"
#include "actors/runtime/runner/declaration.hpp"

#include <memory>
#include <string>

namespace c5c3::monitoring {

struct prometheus_settings {
  backend_config backend;           // disabled: every registration step is skipped
  std::string hub_uid;
  std::string rancher_auth_secret;  // "" none (the Secret is in pod_namespace)
  std::string pod_namespace;
  std::string cluster_name;         // --cluster-name
};

runtime::order_plan plan_prometheus(const prometheus_settings& cfg, const runtime::sense_snapshot& s);

std::shared_ptr<const runtime::kind_declaration> prometheus_declaration(prometheus_settings cfg);

}  // namespace c5c3::monitoring
