// The PrometheusReconciler's steps (internal to actors/monitoring): what one
// pass knows, and the parts of SetupClusterForPrometheus, each a pure
// function that adds writes or calls to the plan (and says whether the plan
// returns now).
#pragma once

#include "actors/monitoring/cluster_meta.hpp"
#include "actors/monitoring/flavour.hpp"
#include "actors/monitoring/prometheus.hpp"
#include "actors/monitoring/rancher_token.hpp"

#include <optional>
#include <string>

namespace c5c3::monitoring::prom {

// Slot ids.
inline const std::string kube_system_slot = "kube-system";
inline const std::string ace_info_slot = "ace-info";
inline const std::string service_ca_slot = "openshift-service-ca";
inline const std::string service_slot = "service";
inline const std::string thanos_slot = "thanos-querier";
inline const std::string rancher_secret_slot = "rancher-secret";
inline const std::string klusterlets_slot = "klusterlets";
inline const std::string claims_slot = "clusterclaims";
inline const std::string sa_slot = "trickster-sa";
inline const std::string tokens_slot = "sa-tokens";
inline const std::string clusterrole_slot = "clusterrole";
inline const std::string rolebinding_slot = "rolebinding";
inline const std::string rolebinding_openshift_slot = "rolebinding-openshift";
inline const std::string clusterpreset_slot = "clusterchartpreset";
inline const std::string projectpreset_slot = "chartpreset";
inline const std::string ab_prometheus_slot = "appbinding-prometheus";
inline const std::string ab_grafana_slot = "appbinding-grafana";
inline const std::string grafana_auth_slot = "grafana-auth";
inline const std::string ingress_slot = "ingresscontroller";

struct view {
  const prometheus_settings& cfg;
  const runtime::sense_snapshot& s;
  flavour f;
  bool is_default = false;
  std::string ns, name;
  const k8s::object& prom() const { return s.order; }
};

// The credentials the backend reaches the Prometheus with.
struct access {
  std::optional<rancher_token_found> rancher;
  std::string sa_token;
  std::string ca;
};

// NamespaceForProjectSettings: the project id and "cattle-project-<id>", or an error.
struct project_settings {
  std::string ns, project_id, error;
};
project_settings namespace_for_project_settings(const k8s::object& prom, const k8s::object& kube_system);

// Whether an ACE-managed spoke (a Klusterlet and both ClusterClaims).
bool ace_managed_spoke(const runtime::sense_snapshot& s);

// The Service ServiceKey names (null: missing), and its slot.
const k8s::object* service_of_prometheus(const view& v);

// Steps: true when the plan returns now (writes, calls or an error in `p`).
bool access_setup(const view& v, const std::string& state, access& out, runtime::order_plan& p);
// ClusterRole, RoleBinding and the chart preset: their writes go out together.
void rbac_and_preset(const view& v, const k8s::object& svc, const access& a, runtime::order_plan& p);
// CreatePreset (the ClusterChartPreset, or the project's ChartPreset) and
// CleanupPreset.
void add_preset(const view& v, runtime::order_plan& p);
void cleanup_preset(const view& v, runtime::order_plan& p);
// The marker logic and the registration (4.2 step 7).
void register_with_backend(const view& v, const k8s::object& svc, const access& a, const std::string& state,
                           runtime::order_plan& p);
// OpenShift: the route URL of `svc` (https://<name>-<ns>.<apps domain>), the
// domain from the default IngressController (null: absent); nullopt with
// `error` when it has none.
std::optional<std::string> openshift_route_url(const k8s::object& svc, const k8s::object* ingress, std::string& error);

// The ServiceAccount trickster's token Secret among `secrets` (type
// service-account-token, its annotation, token and ca.crt filled), or null;
// `pending` set when one exists that the token controller has not filled.
const k8s::object* trickster_token_secret(const std::vector<k8s::object>& secrets, bool& pending);
// A Secret's data[key], decoded ("" when absent).
std::string secret_data(const k8s::object& secret, std::string_view key);

// The preset's spec.values (mona.MonitoringPresets) as JSON text.
std::string presets_json(const view& v);

}  // namespace c5c3::monitoring::prom
