// The PrometheusReconciler's sense declaration (apis-monitoring.md 4.5): the
// objects a pass reads, and the watches: For(Prometheus), ConfigMap
// kube-public/ace-info and the Rancher auth Secret (when configured) each
// waking every Prometheus. Secrets, the ServiceAccount and the RBAC objects
// are read from the API server (no informer caches every Secret or
// RoleBinding of the cluster for three Prometheus objects); the Rancher auth
// Secret is watched by name (a field-selector watch of that one Secret).
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/prometheus_steps.hpp"

namespace c5c3::monitoring {

namespace {

using namespace prom;
using runtime::locator;
using runtime::sense_snapshot;

runtime::locate_fn at(std::string ns, std::string name) {
  return [ns, name](const sense_snapshot&) -> std::optional<locator> { return locator{ns, name}; };
}

runtime::locate_fn beside_order(std::string name) {
  return [name](const sense_snapshot& s) -> std::optional<locator> { return locator{s.key.namespace_, name}; };
}

runtime::read_slot uncached(runtime::read_slot r) {
  r.uncached = true;
  return r;
}

runtime::read_slot watching(runtime::read_slot r, std::string ns) {
  r.watch_namespace = std::move(ns);
  return r;
}

runtime::read_slot after(runtime::read_slot r, std::vector<std::string> slots) {
  r.after = std::move(slots);
  return r;
}

// The ChartPreset of a project Prometheus: in cattle-project-<id>.
std::optional<locator> project_preset(const sense_snapshot& s) {
  const auto* ks = s.one(kube_system_slot);
  auto ps = namespace_for_project_settings(s.order, ks ? *ks : k8s::object{});
  if (!ps.error.empty()) return std::nullopt;
  return locator{ps.ns, presets_name};
}

// default-grafana-auth is read only while a registration is due (the
// RoleBinding's marker is not the cluster's state), or with a Rancher token
// (whose id the marker also compares).
std::optional<locator> grafana_auth_while_registering(const prometheus_settings& cfg, const sense_snapshot& s) {
  const auto* ks = s.one(kube_system_slot);
  const auto* info = s.one(ace_info_slot);
  auto md = cluster_metadata_of(ks ? *ks : k8s::object{}, info ? *info : k8s::object{}, cfg.cluster_name);
  const auto* rb = s.one(rolebinding_slot);
  if (!rb) rb = s.one(rolebinding_openshift_slot);
  if (md && rb && rb->annotation(registered_key) == md->state() && cfg.rancher_auth_secret.empty())
    return std::nullopt;
  return locator{s.key.namespace_, grafana_auth_secret};
}

}  // namespace

std::shared_ptr<const runtime::kind_declaration> prometheus_declaration(prometheus_settings cfg) {
  auto k = std::make_shared<runtime::kind_declaration>();
  k->controller = prometheus_controller;
  k->gvk = prometheus_gvk;
  k->finalizer = prometheus_finalizer;
  k->admission = false;
  k->max_rounds = 30;
  auto& r = k->reads;
  r.push_back(runtime::named(kube_system_slot, namespace_gvk, at("", kube_system)));
  r.push_back(watching(runtime::named(ace_info_slot, configmap_gvk, at(kube_public, ace_info)), kube_public));
  r.push_back(watching(runtime::named(service_ca_slot, configmap_gvk, at(kube_public, openshift_service_ca)), kube_public));
  r.push_back(runtime::named(service_slot, service_gvk, [](const sense_snapshot& s) -> std::optional<locator> {
    return locator{s.key.namespace_, s.key.name};
  }));
  r.push_back(runtime::named(thanos_slot, service_gvk, at(openshift_monitoring_namespace, thanos_querier)));
  if (!cfg.rancher_auth_secret.empty())
    r.push_back(uncached(runtime::named(rancher_secret_slot, secret_gvk, at(cfg.pod_namespace, cfg.rancher_auth_secret))));
  r.push_back(runtime::listed(klusterlets_slot, klusterlet_gvk, "", runtime::namespace_role::all, true));
  r.push_back(runtime::listed(claims_slot, clusterclaim_gvk, "", runtime::namespace_role::all, true));
  r.push_back(uncached(runtime::named(sa_slot, serviceaccount_gvk, beside_order(trickster_sa))));
  r.push_back(uncached(runtime::listed(tokens_slot, secret_gvk, "", runtime::namespace_role::order)));
  r.push_back(uncached(runtime::named(clusterrole_slot, clusterrole_gvk, at("", trickster_proxy))));
  r.push_back(uncached(runtime::named(rolebinding_slot, rolebinding_gvk, beside_order(trickster_proxy))));
  // OpenShift's RoleBinding is beside thanos-querier: read only where that Service is.
  r.push_back(after(uncached(runtime::named(rolebinding_openshift_slot, rolebinding_gvk,
                                            [](const sense_snapshot& s) -> std::optional<locator> {
                                              if (!s.one(thanos_slot)) return std::nullopt;
                                              return locator{openshift_monitoring_namespace, trickster_proxy};
                                            })),
                    {thanos_slot}));
  r.push_back(runtime::named(clusterpreset_slot, clusterchartpreset_gvk, at("", presets_name), "", true));
  r.push_back(after(runtime::named(projectpreset_slot, chartpreset_gvk, project_preset, "", true), {kube_system_slot}));
  r.push_back(runtime::named(ab_prometheus_slot, appbinding_gvk, beside_order(appbinding_prometheus), "", true));
  r.push_back(runtime::named(ab_grafana_slot, appbinding_gvk, beside_order(appbinding_grafana), "", true));
  r.push_back(after(uncached(runtime::named(grafana_auth_slot, secret_gvk,
                                            [cfg](const sense_snapshot& s) { return grafana_auth_while_registering(cfg, s); })),
                    {kube_system_slot, ace_info_slot, rolebinding_slot, rolebinding_openshift_slot}));
  r.push_back(runtime::named(ingress_slot, ingresscontroller_gvk, at(openshift_ingress_namespace, "default"), "", true));

  runtime::watch_decl info;
  info.gvk = configmap_gvk;
  info.namespace_ = kube_public;
  info.wakes = [](const k8s::object& o, const k8s::object&) {
    return o.namespace_() == kube_public && o.name() == ace_info;
  };
  k->watches.push_back(info);
  if (!cfg.rancher_auth_secret.empty()) {
    runtime::watch_decl secret;
    secret.gvk = secret_gvk;
    secret.namespace_ = cfg.pod_namespace;
    secret.field_selector = "metadata.name=" + cfg.rancher_auth_secret;
    secret.wakes = [ns = cfg.pod_namespace, name = cfg.rancher_auth_secret](const k8s::object& o, const k8s::object&) {
      return o.namespace_() == ns && o.name() == name;
    };
    k->watches.push_back(secret);
  }
  k->plan = [cfg](const sense_snapshot& s) { return plan_prometheus(cfg, s); };
  return k;
}

}  // namespace c5c3::monitoring
