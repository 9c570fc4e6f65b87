// The ClientOrgReconciler's sense declaration (apis-monitoring.md 9.1 step
// 13): For(Namespace) with the client-org predicate; the objects a pass
// reads (the Namespace again from the API server, the RoleBindings and the
// Secrets uncached too); the trickster ServiceAccount with the registration
// label waking every client-org Namespace not being deleted, and (beyond
// upstream, so copies follow their source) every source GrafanaDashboard
// event waking them too.
#include "actors/monitoring/clientorg.hpp"
#include "actors/monitoring/cluster_meta.hpp"
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/labels.hpp"

namespace c5c3::monitoring {

namespace {

using namespace co;
using runtime::locator;
using runtime::sense_snapshot;

runtime::read_slot uncached(runtime::read_slot r) {
  r.uncached = true;
  return r;
}

runtime::read_slot after(runtime::read_slot r, std::vector<std::string> slots) {
  r.after = std::move(slots);
  return r;
}

bool active(const sense_snapshot& s) { return !s.order.terminating(); }

// What only an active pass reads, at a fixed place.
runtime::locate_fn active_at(std::string ns, std::string name) {
  return [ns, name](const sense_snapshot& s) -> std::optional<locator> {
    if (!active(s)) return std::nullopt;
    return locator{ns, name};
  };
}

// Inside <ns>-monitoring, for an active pass (also before it exists: a slot
// not read could not take the answers of this pass's writes).
runtime::locate_fn in_monitoring(std::string name) {
  return [name](const sense_snapshot& s) -> std::optional<locator> {
    if (!active(s)) return std::nullopt;
    return locator{monitoring_namespace(s.key.name), name};
  };
}

// The first Prometheus by (namespace, name): the default one off OpenShift.
const k8s::object* first_prometheus(const sense_snapshot& s) {
  const auto& l = s.list(prometheuses_slot);
  const k8s::object* first = nullptr;
  for (const auto& p : l)
    if (!first || std::pair(p.namespace_(), p.name()) < std::pair(first->namespace_(), first->name())) first = &p;
  return first;
}

// grafana-auth is read only while a registration is due (the monitoring
// namespace's marker is not the cluster's state, or the AppBinding is gone).
std::optional<locator> auth_while_registering(const prometheus_settings& cfg, const sense_snapshot& s) {
  const auto* mon = s.one(monitoring_slot);
  if (!active(s) || !cfg.backend.enabled()) return std::nullopt;
  const auto* ks = s.one(kube_system_slot);
  const auto* info = s.one(ace_info_slot);
  auto md = cluster_metadata_of(ks ? *ks : k8s::object{}, info ? *info : k8s::object{}, cfg.cluster_name);
  if (md && mon && mon->annotation(registered_key) == md->state() && s.one(appbinding_slot)) return std::nullopt;
  return locator{monitoring_namespace(s.key.name), client_grafana_auth_secret};
}

}  // namespace

std::shared_ptr<const runtime::kind_declaration> client_org_declaration(prometheus_settings cfg) {
  auto k = std::make_shared<runtime::kind_declaration>();
  k->controller = namespace_controller;
  k->gvk = namespace_gvk;
  k->order_selector = client_org_selector();
  k->finalizer = prometheus_finalizer;
  k->admission = false;
  k->max_rounds = 50;
  const auto all = runtime::namespace_role::all;
  auto& r = k->reads;
  r.push_back(runtime::named(kube_system_slot, namespace_gvk, [](const sense_snapshot&) -> std::optional<locator> {
    return locator{"", kube_system};
  }));
  auto info = runtime::named(ace_info_slot, configmap_gvk, [](const sense_snapshot&) -> std::optional<locator> {
    return locator{kube_public, ace_info};
  });
  info.watch_namespace = kube_public;
  r.push_back(info);
  r.push_back(uncached(runtime::named(live_slot, namespace_gvk, [](const sense_snapshot& s) -> std::optional<locator> {
    if (!active(s)) return std::nullopt;
    return locator{"", s.key.name};
  })));
  r.push_back(runtime::named(monitoring_slot, namespace_gvk, [](const sense_snapshot& s) -> std::optional<locator> {
    return locator{"", monitoring_namespace(s.key.name)};
  }));
  r.push_back(after(uncached(runtime::named(rolebinding_slot, rolebinding_gvk, in_monitoring(client_org_monitoring_role))),
                    {monitoring_slot}));
  r.push_back(runtime::listed(prometheuses_slot, prometheus_gvk, "", all));
  r.push_back(after(runtime::named(service_slot, service_gvk,
                                   [](const sense_snapshot& s) -> std::optional<locator> {
                                     const auto* p = active(s) ? first_prometheus(s) : nullptr;
                                     if (!p) return std::nullopt;
                                     return locator{std::string(p->namespace_()), std::string(p->name())};
                                   }),
                    {prometheuses_slot}));
  r.push_back(runtime::named(thanos_slot, service_gvk, active_at(openshift_monitoring_namespace, thanos_querier)));
  r.push_back(after(uncached(runtime::named(trickster_slot, rolebinding_gvk,
                                            [](const sense_snapshot& s) -> std::optional<locator> {
                                              const auto* p = active(s) ? first_prometheus(s) : nullptr;
                                              if (!p) return std::nullopt;
                                              return locator{std::string(p->namespace_()), trickster_proxy};
                                            })),
                    {prometheuses_slot}));
  // OpenShift's: beside thanos-querier, and the trickster token of the
  // user-workload Prometheus; read only where that Service is.
  auto on_openshift = [](std::string ns, std::string name) {
    return [ns, name](const sense_snapshot& s) -> std::optional<locator> {
      if (!active(s) || !s.one(thanos_slot)) return std::nullopt;
      return locator{ns, name};
    };
  };
  r.push_back(after(uncached(runtime::named(trickster_openshift_slot, rolebinding_gvk,
                                            on_openshift(openshift_monitoring_namespace, trickster_proxy))),
                    {thanos_slot}));
  auto tokens = after(uncached(runtime::listed(tokens_slot, secret_gvk, "", all)), {thanos_slot});
  tokens.locate = on_openshift(openshift_uwm_namespace, "");
  r.push_back(tokens);
  r.push_back(runtime::named(ingress_slot, ingresscontroller_gvk, active_at(openshift_ingress_namespace, "default"), "",
                             true));
  r.push_back(after(runtime::named(appbinding_slot, appbinding_gvk, in_monitoring(client_grafana_appbinding), "", true),
                    {monitoring_slot}));
  r.push_back(after(uncached(runtime::named(auth_slot, secret_gvk,
                                            [cfg](const sense_snapshot& s) { return auth_while_registering(cfg, s); })),
                    {kube_system_slot, ace_info_slot, monitoring_slot, appbinding_slot}));
  r.push_back(runtime::listed(dashboards_slot, grafanadashboard_gvk, "", all, true));

  runtime::watch_decl sa;
  sa.gvk = serviceaccount_gvk;
  sa.selector = registered_key;
  sa.optional = false;
  sa.wakes = [](const k8s::object& o, const k8s::object& ns) {
    return o.name() == trickster_sa && !o.label(registered_key).value_or("").empty() && !ns.terminating();
  };
  k->watches.push_back(sa);
  runtime::watch_decl dashboards;
  dashboards.gvk = grafanadashboard_gvk;
  dashboards.wakes = [](const k8s::object& o, const k8s::object& ns) { return is_copy_source(o) && !ns.terminating(); };
  k->watches.push_back(dashboards);
  k->plan = [cfg](const sense_snapshot& s) { return plan_client_org(cfg, s); };
  return k;
}

}  // namespace c5c3::monitoring
