// The monitoring controllers' names (apis-monitoring.md sections 4-8, 11;
// apis.md 5.4): kinds, labels, annotations, object names, controller names.
#pragma once

#include "k8s/object.hpp"

#include <string>

namespace c5c3::monitoring {

// Kinds.
inline const k8s::gvk prometheus_gvk{"monitoring.coreos.com", "v1", "Prometheus"};
inline const k8s::gvk alertmanager_gvk{"monitoring.coreos.com", "v1", "Alertmanager"};
inline const k8s::gvk servicemonitor_gvk{"monitoring.coreos.com", "v1", "ServiceMonitor"};
inline const k8s::gvk alertmanagerconfig_gvk{"monitoring.coreos.com", "v1alpha1", "AlertmanagerConfig"};
inline const k8s::gvk apiservice_gvk{"apiregistration.k8s.io", "v1", "APIService"};
inline const k8s::gvk appbinding_gvk{"appcatalog.appscode.com", "v1alpha1", "AppBinding"};
inline const k8s::gvk grafanadashboard_gvk{"openviz.dev", "v1alpha1", "GrafanaDashboard"};
inline const k8s::gvk grafanadatasource_gvk{"openviz.dev", "v1alpha1", "GrafanaDatasource"};
inline const k8s::gvk clusterchartpreset_gvk{"charts.x-helm.dev", "v1alpha1", "ClusterChartPreset"};
inline const k8s::gvk chartpreset_gvk{"charts.x-helm.dev", "v1alpha1", "ChartPreset"};
inline const k8s::gvk namespace_gvk{"", "v1", "Namespace"};
inline const k8s::gvk service_gvk{"", "v1", "Service"};
inline const k8s::gvk endpoints_gvk{"", "v1", "Endpoints"};
inline const k8s::gvk secret_gvk{"", "v1", "Secret"};
inline const k8s::gvk configmap_gvk{"", "v1", "ConfigMap"};
inline const k8s::gvk serviceaccount_gvk{"", "v1", "ServiceAccount"};
inline const k8s::gvk clusterrole_gvk{"rbac.authorization.k8s.io", "v1", "ClusterRole"};
inline const k8s::gvk rolebinding_gvk{"rbac.authorization.k8s.io", "v1", "RoleBinding"};
inline const k8s::gvk crd_gvk{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"};
// The kinds whose presence makes a cluster Rancher or OpenShift (the RESTMapper checks).
inline const k8s::gvk rancher_cluster_gvk{"management.cattle.io", "v3", "Cluster"};
inline const k8s::gvk openshift_project_gvk{"project.openshift.io", "v1", "Project"};
inline const k8s::gvk ingresscontroller_gvk{"operator.openshift.io", "v1", "IngressController"};
// IsACEManagedSpoke.
inline const k8s::gvk klusterlet_gvk{"operator.open-cluster-management.io", "v1", "Klusterlet"};
inline const k8s::gvk clusterclaim_gvk{"cluster.open-cluster-management.io", "v1alpha1", "ClusterClaim"};

// The ServiceMonitor selector label (mona.PrometheusKey), which is also the
// Prometheus finalizer.
inline const std::string prometheus_key = "monitoring.appscode.com/prometheus";
inline const std::string prometheus_finalizer = prometheus_key;
inline const std::string value_auto = "auto";
inline const std::string value_federated = "federated";

// PrometheusReconciler (section 4).
inline const std::string trickster_sa = "trickster";
inline const std::string trickster_proxy = "appscode:trickster:proxy";  // ClusterRole and RoleBinding
inline const std::string registered_key = "monitoring.appscode.com/registered";
inline const std::string token_id_key = "monitoring.appscode.com/token-id";
inline const std::string presets_name = "monitoring-presets";
inline const std::string default_preset_label = "charts.x-helm.dev/is-default-preset";
inline const std::string appbinding_prometheus = "default-prometheus";
inline const std::string appbinding_grafana = "default-grafana";
inline const std::string grafana_auth_secret = "default-grafana-auth";
inline const std::string is_default_prometheus_key = "monitoring.appscode.com/is-default-prometheus";
inline const std::string is_default_grafana_key = "monitoring.appscode.com/is-default-grafana";
inline const std::string cluster_label_key = "cluster";
inline const std::string cluster_uid_label_key = "cluster_uid";
inline const std::string sa_name_annotation = "kubernetes.io/service-account.name";
inline const std::string sa_token_type = "kubernetes.io/service-account-token";
inline const std::string cluster_monitoring_view = "cluster-monitoring-view";  // OpenShift's roleRef
inline const std::string ace_spoke_sa_namespace = "monitoring";                // ocm spokes' trickster SA

// ClientOrgReconciler (section 9; apis.md 5.4): kmapi's client-org keys, the
// copies' names and annotations.
inline const std::string client_org_key = "ace.appscode.com/client-org";                        // "true"
inline const std::string client_org_monitoring_key = "ace.appscode.com/client-org-monitoring";  // "false" opts out
inline const std::string org_id_key = "ace.appscode.com/org-id";
inline const std::string client_org_terminating = "terminating";
inline const std::string monitoring_namespace_suffix = "-monitoring";
inline const std::string client_org_monitoring_role = "appscode:client-org:monitoring";  // ClusterRole and RoleBinding
inline const std::string client_org_group_prefix = "ace.org.";
inline const std::string client_grafana_appbinding = "grafana";
inline const std::string client_grafana_auth_secret = "grafana-auth";
inline const std::string dashboard_source_key = "meta.appcode.com/source";
inline const std::string dashboard_hash_key = "meta.appcode.com/hash";

// Cluster metadata (section 3).
inline const std::string kube_system = "kube-system";
inline const std::string kube_public = "kube-public";
inline const std::string ace_info = "ace-info";
inline const std::string cluster_name_annotation = "cluster.appscode.com/name";
inline const std::string cluster_display_name_annotation = "cluster.appscode.com/display-name";
inline const std::string cluster_provider_annotation = "cluster.appscode.com/provider";
inline const std::string cluster_mode_annotation = "cluster.appscode.com/mode";
inline const std::string claim_id = "id.k8s.io";
inline const std::string claim_info = "cluster.ace.info";

// Rancher and OpenShift.
inline const std::string rancher_monitoring_namespace = "cattle-monitoring-system";
inline const std::string rancher_monitoring_prometheus = "rancher-monitoring-prometheus";
inline const std::string rancher_monitoring_alertmanager = "rancher-monitoring-alertmanager";
inline const std::string field_project_label = "field.cattle.io/projectId";
inline const std::string helm_project_label = "helm.cattle.io/projectId";
inline const std::string openshift_uwm_namespace = "openshift-user-workload-monitoring";
inline const std::string openshift_uwm_prometheus = "user-workload";
inline const std::string openshift_uwm_alertmanager = "user-workload";
inline const std::string openshift_monitoring_namespace = "openshift-monitoring";
inline const std::string thanos_querier = "thanos-querier";
inline const std::string openshift_ingress_namespace = "openshift-ingress-operator";
inline const std::string openshift_service_ca = "openshift-service-ca.crt";

// AlertmanagerReconciler (section 6, the names of monitoring-controllers.txt:
// before upstream 4441613e, see apis.md 5.4).
inline const std::string inbox_group = "inbox.monitoring.appscode.com";
inline const std::string amcfg_inbox_agent = "inbox-agent";
inline const std::string amcfg_label_key = "app.kubernetes.io/name";

// The openviz reconcilers (apis.md 5.1-5.3).
inline const std::string grafanadashboard_finalizer = "grafanadashboard.openviz.dev/finalizer";
inline const std::string grafanadatasource_finalizer = "grafanadatasource.openviz.dev/finalizer";
inline const std::string phase_processing = "Processing";
inline const std::string phase_terminating = "Terminating";
inline const std::string phase_current = "Current";
inline const std::string phase_failed = "Failed";
inline const std::string condition_ready = "Ready";    // kmodules conditions.ConditionReady
inline const std::string condition_failed = "Failed";  // kmodules conditions.ConditionFailed

// Controller names (metrics labels, logs).
inline const std::string prometheus_controller = "prometheus";
inline const std::string alertmanager_controller = "alertmanager";
inline const std::string auto_controller = "servicemonitor-auto";
inline const std::string federation_controller = "servicemonitor-federation";
inline const std::string grafanadashboard_controller = "grafanadashboard";
inline const std::string grafanadatasource_controller = "grafanadatasource";
inline const std::string namespace_controller = "namespace";  // the ClientOrgReconciler

// The detectors' service names (runner_deps::services) and the backend's.
inline const std::string prometheus_detector_service = "prometheus-detector";
inline const std::string alertmanager_detector_service = "alertmanager-detector";
inline const std::string backend_service = "backend";
inline const std::string rancher_service = "rancher";

}  // namespace c5c3::monitoring
