// The ClientOrgReconciler's pass (apis-monitoring.md 9.1; where the fact
// sheet and monitoring-controllers.txt differ, the latter: the teardown
// deletes the monitoring namespace before the finalizer goes).
#include "actors/monitoring/clientorg.hpp"
#include "actors/monitoring/cluster_meta.hpp"
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/create_or_patch.hpp"
#include "actors/monitoring/federation_copies.hpp"
#include "actors/monitoring/gate.hpp"
#include "actors/monitoring/grafana_binding.hpp"
#include "actors/monitoring/labels.hpp"
#include "actors/monitoring/prometheus_steps.hpp"

#include <chrono>

namespace c5c3::monitoring {

namespace {

using namespace co;

struct view {
  const prometheus_settings& cfg;
  const runtime::sense_snapshot& s;
  flavour f;
  std::string ns, mon_ns, org_id;
};

prometheus_context context_of(const view& v, bool with_hub) {
  prometheus_context c;
  if (with_hub) c.hub_uid = v.cfg.hub_uid;
  c.cluster_uid = std::string(v.s.one(kube_system_slot) ? v.s.one(kube_system_slot)->uid() : "");
  c.is_default = false;
  c.issue_token = true;
  c.client_org_id = v.org_id;
  return c;
}

// The GrafanaDashboards of <ns>-monitoring not yet being deleted, by name.
std::vector<k8s::object> live_copies(const view& v) {
  std::vector<k8s::object> out;
  for (const auto& d : v.s.list(dashboards_slot))
    if (d.namespace_() == v.mon_ns && !d.terminating()) out.push_back(d);
  return sorted_by_key(std::move(out));
}

// Unregister the context (its error blocks the teardown), delete every
// GrafanaDashboard of the monitoring namespace, then the namespace, then
// release the finalizer: each step once the one before it is done.
void teardown(const view& v, runtime::order_plan& p) {
  p.stage = "teardown";
  if (v.cfg.backend.enabled()) {
    const auto* a = v.s.answer("unregister");
    if (!a) {
      // At 9fd042bc the unregistration carries no hubUID.
      p.calls.push_back(backend_call("unregister", unregister_request(v.cfg.backend, context_of(v, false))));
      return;
    }
    if (auto e = backend_error(*a, "unregister")) {
      p.error = *e;
      return;
    }
  }
  for (const auto& d : live_copies(v)) p.writes.push_back(runtime::make_delete(d));
  if (!p.writes.empty()) return;
  if (const auto* mon = v.s.one(monitoring_slot); mon && !mon->terminating()) {
    p.writes.push_back(runtime::make_delete(*mon));
    return;
  }
  p.finalizer = runtime::finalizer_op::release;
}

void rolebinding(const view& v, runtime::order_plan& p) {
  auto w = create_or_patch(v.s, v.s.one(rolebinding_slot), new_object(rolebinding_gvk, v.mon_ns, client_org_monitoring_role),
                           [&](k8s::object_builder& b) {
                             auto& a = b.alloc();
                             b.set_string({"roleRef", "apiGroup"}, "rbac.authorization.k8s.io");
                             b.set_string({"roleRef", "kind"}, "ClusterRole");
                             b.set_string({"roleRef", "name"}, client_org_monitoring_role);
                             k8s::json_value subject(rapidjson::kObjectType);
                             subject.AddMember("apiGroup", "rbac.authorization.k8s.io", a);
                             subject.AddMember("kind", "Group", a);
                             subject.AddMember("name", k8s::make_string(client_org_group_prefix + v.org_id, a), a);
                             k8s::json_value subjects(rapidjson::kArrayType);
                             subjects.PushBack(std::move(subject), a);
                             b.set({"subjects"}, std::move(subjects));
                           });
  if (w) p.writes.push_back(std::move(*w));
}

// The PrometheusConfig of the default Prometheus (9.1 step 10), or nullopt
// with p.error.
std::optional<prometheus_config> config_of(const view& v, const k8s::object& prom, const k8s::object& svc,
                                           runtime::order_plan& p) {
  prometheus_config c;
  c.service = service_of(v.f, prom.namespace_(), prom.name(), svc);
  if (!v.f.openshift) return c;
  std::string error;
  auto url = prom::openshift_route_url(svc, v.s.one(ingress_slot), error);
  if (!url) {
    p.error = error;
    return std::nullopt;
  }
  bool pending = false;
  const auto* token = prom::trickster_token_secret(v.s.list(tokens_slot), pending);
  if (!token) {
    p.error = "the token Secret of serviceaccount " + std::string(prom.namespace_()) + "/" + trickster_sa + " is not ready";
    return std::nullopt;
  }
  c.url = *url;
  c.service = {};
  c.bearer_token = prom::secret_data(*token, "token");
  return c;
}

// 9.1 steps 8-11: the default Prometheus, its registration marker, and the
// client org's registration with its AppBinding and Secret. False when the
// plan returns now.
bool registration(const view& v, runtime::order_plan& p) {
  p.stage = "registration";
  auto sorted = sorted_by_key(v.s.list(prometheuses_slot));
  const auto* prom = default_prometheus(v.f, sorted);
  if (!prom) {
    p.error = "failed to detect default Prometheus";
    return false;
  }
  const auto key = service_key(v.f, prom->namespace_(), prom->name());
  const auto* svc = v.s.one(v.f.openshift ? thanos_slot : service_slot);
  if (!svc || svc->namespace_() != key.namespace_ || svc->name() != key.name) {
    p.error = "services \"" + key.name + "\" not found";
    return false;
  }
  const auto* trb = v.s.one(v.f.openshift ? trickster_openshift_slot : trickster_slot);
  if (!trb || trb->annotation(registered_key).value_or("").empty()) {
    p.error = "rolebinding " + key.namespace_ + "/" + trickster_proxy + " is not registered yet";
    return false;
  }
  std::string md_error;
  const auto* ks = v.s.one(kube_system_slot);
  const auto* info = v.s.one(ace_info_slot);
  auto md = cluster_metadata_of(ks ? *ks : k8s::object{}, info ? *info : k8s::object{}, v.cfg.cluster_name, &md_error);
  if (!md) {
    p.error = md_error;
    return false;
  }
  const auto state = md->state();
  const auto& mon = *v.s.one(monitoring_slot);
  const auto* ab = v.s.one(appbinding_slot);
  // HEAD also registers again when the AppBinding is gone.
  if (!v.cfg.backend.enabled() || (mon.annotation(registered_key) == state && ab)) return true;
  const auto* answer = v.s.answer("register");
  if (!answer) {
    auto cfg = config_of(v, *prom, *svc, p);
    if (!cfg) return false;
    p.calls.push_back(backend_call("register", register_request(v.cfg.backend, context_of(v, true), *cfg)));
    return false;
  }
  if (auto e = backend_error(*answer, "register")) {
    p.error = *e;
    return false;
  }
  std::string why;
  auto g = parse_register_answer(answer->body, &why);
  if (!g) {
    p.error = "backend register: " + why;
    return false;
  }
  const grafana_binding gb{v.mon_ns, client_grafana_appbinding, client_grafana_auth_secret, v.cfg.backend.ca_pem, nullptr};
  if (auto w = grafana_appbinding_write(gb, *g, ab)) {
    p.writes.push_back(std::move(*w));
    return false;
  }
  if (auto w = ab ? grafana_auth_write(gb, *g, *ab, v.s.one(auth_slot)) : std::nullopt; w && !v.s.failure_of(*w)) {
    p.writes.push_back(std::move(*w));
    return false;
  }
  if (auto w = patch_only(mon, [&](k8s::object_builder& b) { b.set_annotation(registered_key, state); })) {
    p.writes.push_back(std::move(*w));
    return false;
  }
  return true;
}

// 9.1 step 12: every source dashboard copied into the monitoring namespace;
// a source without a model aborts, failed copies are collected.
void dashboards(const view& v, runtime::order_plan& p) {
  p.stage = "dashboards";
  const auto& all = v.s.list(dashboards_slot);
  auto copy_of = [&](std::string_view name) -> const k8s::object* {
    for (const auto& d : all)
      if (d.namespace_() == v.mon_ns && d.name() == name) return &d;
    return nullptr;
  };
  std::vector<std::string> errors;
  for (const auto& src : sorted_by_key(all)) {
    if (!is_copy_source(src)) continue;
    std::string error;
    auto w = copy_dashboard(src, v.ns, copy_of(src.name()), error);
    if (!error.empty()) {
      p.writes.clear();
      p.error = error;
      return;
    }
    if (!w) continue;
    if (const auto* f = v.s.failure_of(*w)) {
      errors.push_back(f->message);
      continue;
    }
    w->report_failure = true;
    p.writes.push_back(std::move(*w));
  }
  if (p.writes.empty()) p.error = fed::aggregate(errors);
}

}  // namespace

runtime::order_plan plan_client_org(const prometheus_settings& cfg, const runtime::sense_snapshot& s) {
  runtime::order_plan p;
  p.stage = "namespace";
  const auto label = s.order.label(client_org_key).value_or("");
  if (label.empty() || label == client_org_terminating) return p;
  const auto org_id = std::string(s.order.annotation(org_id_key).value_or(""));
  if (org_id.empty()) {
    p.stage = "no " + org_id_key + " annotation";
    return p;
  }
  auto f = detector_gate(s, prometheus_detector_service, p);
  if (!f) return p;
  p.stage = "namespace";
  if (f->rancher && f->federated()) {
    p.error = "client organization mode is not supported when federated Prometheus is used in a Rancher managed cluster";
    return p;
  }
  const view v{cfg, s, *f, std::string(s.order.name()), monitoring_namespace(s.order.name()), org_id};
  if (s.order.terminating()) {
    teardown(v, p);
    return p;
  }
  // The uncached re-read: a stale cached Namespace never recreates copies
  // mid-teardown.
  const auto* live = s.one(live_slot);
  if (!live || live->terminating() || live->label(client_org_key).value_or("").empty() ||
      live->label(client_org_key) == client_org_terminating) {
    p.stage = "namespace gone, terminating or no longer a client org";
    return p;
  }
  if (!s.order.has_finalizer(prometheus_finalizer)) {
    p.finalizer = runtime::finalizer_op::add;
    return p;
  }
  p.stage = "monitoring namespace";
  const auto* mon = s.one(monitoring_slot);
  if (!mon) {
    p.writes.push_back(runtime::make_create(new_object(namespace_gvk, "", v.mon_ns)));
    return p;
  }
  if (mon->terminating()) {  // as HEAD: wait for it to go, then create it again
    p.requeue = std::chrono::seconds(10);
    return p;
  }
  p.stage = "rolebinding";
  rolebinding(v, p);
  if (!p.writes.empty()) return p;
  if (!registration(v, p)) return p;
  dashboards(v, p);
  return p;
}

}  // namespace c5c3::monitoring
