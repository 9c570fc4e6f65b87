// namespace.ClientOrgReconciler (monitoring-controllers.txt; apis-monitoring.md
// section 9) on the order runner: each Namespace labelled
// ace.appscode.com/client-org=true (and not client-org-monitoring=false) is an
// order of the controller "namespace".
//
// A pass: the label and the required ace.appscode.com/org-id annotation, the
// detector gate, the refusal of a federated Prometheus on a Rancher cluster;
// on deletion the authoritative teardown (the client org's backend context
// unregistered, every GrafanaDashboard of <ns>-monitoring deleted, then that
// namespace, then the finalizer monitoring.appscode.com/prometheus released);
// otherwise an uncached re-read of the Namespace that bails when it is
// terminating or no longer labelled, the finalizer, the Namespace
// <ns>-monitoring with its RoleBinding appscode:client-org:monitoring (Group
// ace.org.<orgId>), the default Prometheus's trickster registration marker
// (an error until the PrometheusReconciler registered), the backend
// registration in issue-token mode with the AppBinding grafana and the Secret
// grafana-auth (the marker on <ns>-monitoring stamped last), and the copies of
// every source GrafanaDashboard into <ns>-monitoring, transformed.
#pragma once

#include "actors/monitoring/prometheus.hpp"
#include "actors/runtime/runner/declaration.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace c5c3::monitoring {

// clientorg.MonitoringNamespace: "<ns>-monitoring".
std::string monitoring_namespace(std::string_view ns);

// ClientDashboardTitle: the prefix "KubeDB /" trimmed, then spaces.
std::string client_dashboard_title(std::string_view title);

// The For(Namespace) predicate as the order kind's label selector, and as a
// test of one Namespace's labels.
std::string client_org_selector();
bool is_client_org(const k8s::object& ns);

// The ClientOrgReconciler's settings are the PrometheusReconciler's (the
// backend, --hubUID, --cluster-name); its pass and its declaration.
runtime::order_plan plan_client_org(const prometheus_settings& cfg, const runtime::sense_snapshot& s);
std::shared_ptr<const runtime::kind_declaration> client_org_declaration(prometheus_settings cfg);

namespace co {

// Slot ids.
inline const std::string kube_system_slot = "kube-system";
inline const std::string ace_info_slot = "ace-info";
inline const std::string live_slot = "namespace-live";       // the order, uncached
inline const std::string monitoring_slot = "monitoring-namespace";
inline const std::string rolebinding_slot = "client-org-rolebinding";
inline const std::string prometheuses_slot = "prometheuses";
inline const std::string service_slot = "service";           // the first Prometheus's own Service
inline const std::string thanos_slot = "thanos-querier";     // OpenShift's
inline const std::string trickster_slot = "trickster-rolebinding";
inline const std::string trickster_openshift_slot = "trickster-rolebinding-openshift";
inline const std::string tokens_slot = "trickster-tokens";   // OpenShift: the SA token
inline const std::string ingress_slot = "ingresscontroller";
inline const std::string appbinding_slot = "grafana-appbinding";
inline const std::string auth_slot = "grafana-auth";
inline const std::string dashboards_slot = "dashboards";

// A GrafanaDashboard the controller copies: not a copy itself (no
// meta.appcode.com/source) and not in a namespace ending in -monitoring.
bool is_copy_source(const k8s::object& dashboard);

// meta.appcode.com/hash: a fingerprint of the source's generation, labels
// (the shard claim c5c3.io/shard aside: which replica holds the source is no
// change of it), annotations (kubectl's last-applied aside) and spec, as a
// decimal string (upstream's meta.ObjectHash is Go-specific: only its role is
// kept).
std::string dashboard_hash(const k8s::object& dashboard);

// The copy of `src` in <client_ns>-monitoring (`live` as read, null: absent):
// created from the source (labels but the source's shard claim: the copy is
// an order of the grafana ring, claimed there by the replica the ring gives
// it; annotations, finalizers), else its spec
// replaced; the source and hash annotations, spec.grafanaRef the local
// AppBinding grafana, spec.model with its title ClientDashboardTitle and every
// templating variable named `namespace` a constant of `client_ns`. Nothing
// when the copy is as it should be; nullopt with `error` when the source has
// no model (or not an object).
std::optional<runtime::child_write> copy_dashboard(const k8s::object& src, std::string_view client_ns,
                                                   const k8s::object* live, std::string& error);

}  // namespace co

}  // namespace c5c3::monitoring
