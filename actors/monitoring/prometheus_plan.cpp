// The PrometheusReconciler's pass (apis-monitoring.md 4.1): gate, deletion,
// external labels, finalizer, then SetupClusterForPrometheus (4.2).
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/create_or_patch.hpp"
#include "actors/monitoring/gate.hpp"
#include "actors/monitoring/prometheus_steps.hpp"

namespace c5c3::monitoring {

namespace prom {

project_settings namespace_for_project_settings(const k8s::object& p, const k8s::object& kube_system) {
  project_settings out;
  const auto who = std::string(p.namespace_()) + "/" + std::string(p.name());
  if (p.namespace_() == rancher_monitoring_namespace && p.name() == rancher_monitoring_prometheus) {
    auto id = kube_system ? kube_system.label(field_project_label) : std::nullopt;
    if (!id) {
      out.error = "failed to detect system projectId for Prometheus " + who;
      return out;
    }
    out.project_id = std::string(*id);
  } else {
    // A nil selector dereferences nil upstream; here it has no projectId.
    out.project_id = std::string(p.get_string({"spec", "serviceMonitorNamespaceSelector", "matchLabels", helm_project_label}));
    if (out.project_id.empty()) {
      out.error = "expected " + helm_project_label + " label in Prometheus " + who +
                  "  spec.serviceMonitorNamespaceSelector";
      return out;
    }
  }
  out.ns = "cattle-project-" + out.project_id;
  return out;
}

bool ace_managed_spoke(const runtime::sense_snapshot& s) {
  if (s.list(klusterlets_slot).empty()) return false;
  int n = 0;
  for (const auto& c : s.list(claims_slot))
    if (c.name() == claim_id || c.name() == claim_info) ++n;
  return n >= 2;
}

const k8s::object* service_of_prometheus(const view& v) {
  return v.s.one(v.f.kind == flavour_kind::openshift ? thanos_slot : service_slot);
}

}  // namespace prom

namespace {

using namespace prom;

void teardown(const view& v, runtime::order_plan& p) {
  p.stage = "teardown";
  cleanup_preset(v, p);
  if (!p.writes.empty() || !p.error.empty()) return;
  std::string project_id;
  if (!v.is_default) {
    auto ps = namespace_for_project_settings(v.prom(), v.s.one(kube_system_slot) ? *v.s.one(kube_system_slot) : k8s::object{});
    if (!ps.error.empty()) {
      p.error = ps.error;
      return;
    }
    project_id = ps.project_id;
  }
  if (v.cfg.backend.enabled()) {
    const auto* a = v.s.answer("unregister");
    if (!a) {
      prometheus_context c;
      c.cluster_uid = std::string(v.s.one(kube_system_slot) ? v.s.one(kube_system_slot)->uid() : "");
      c.project_id = project_id;
      c.is_default = v.is_default;
      p.calls.push_back(backend_call("unregister", unregister_request(v.cfg.backend, c)));
      return;
    }
    if (auto e = backend_error(*a, "unregister")) {
      p.error = *e;
      return;
    }
  }
  p.finalizer = runtime::finalizer_op::release;
}

// ensureExternalLabels: true when the plan returns now with the patch.
bool external_labels(const view& v, const std::optional<cluster_metadata>& md, runtime::order_plan& p) {
  if (!md) return false;  // logged upstream and skipped
  const auto& o = v.prom();
  const auto* labels = o.get({"spec", "externalLabels"});
  auto have = [&](const std::string& k) -> std::optional<std::string> {
    const auto* m = labels ? k8s::member(*labels, k) : nullptr;
    if (!m || !m->IsString()) return std::nullopt;
    return std::string(k8s::as_string_view(*m));
  };
  if (have(cluster_label_key) == md->name && have(cluster_uid_label_key) == md->uid) return false;
  k8s::object_builder patch{prometheus_gvk.api_version(), "Prometheus", v.ns, v.name};
  patch.set_string({"spec", "externalLabels", cluster_label_key}, md->name);
  patch.set_string({"spec", "externalLabels", cluster_uid_label_key}, md->uid);
  p.writes.push_back(runtime::make_merge_patch(std::move(patch).freeze()));
  p.stage = "external labels";
  return true;
}

void setup_cluster(const view& v, const std::optional<cluster_metadata>& md, const std::string& md_error,
                   runtime::order_plan& p) {
  p.stage = "setup";
  const auto* svc = service_of_prometheus(v);
  if (!svc) {
    auto key = service_key(v.f, v.ns, v.name);
    p.error = "services \"" + key.name + "\" not found";
    return;
  }
  if (!md) {
    p.error = md_error;
    return;
  }
  const auto state = md->state();
  access a;
  if (access_setup(v, state, a, p)) return;
  rbac_and_preset(v, *svc, a, p);
  if (!p.writes.empty() || !p.error.empty()) return;
  register_with_backend(v, *svc, a, state, p);
}

}  // namespace

runtime::order_plan plan_prometheus(const prometheus_settings& cfg, const runtime::sense_snapshot& s) {
  runtime::order_plan p;
  auto f = detector_gate(s, prometheus_detector_service, p);
  if (!f) return p;
  p.stage = "prometheus";
  view v{cfg, s, *f, false, std::string(s.order.namespace_()), std::string(s.order.name())};
  v.is_default = f->is_default(v.ns, v.name);
  // Nothing is done for the cluster Prometheus in OpenShift.
  if (f->openshift && !v.is_default) return p;
  if (s.order.terminating()) {
    teardown(v, p);
    return p;
  }
  std::string md_error;
  const auto* ks = s.one(kube_system_slot);
  const auto* info = s.one(ace_info_slot);
  auto md = cluster_metadata_of(ks ? *ks : k8s::object{}, info ? *info : k8s::object{}, cfg.cluster_name, &md_error);
  if (external_labels(v, md, p)) return p;
  if (!s.order.has_finalizer(prometheus_finalizer)) {
    p.finalizer = runtime::finalizer_op::add;
    return p;
  }
  setup_cluster(v, md, md_error, p);
  return p;
}

}  // namespace c5c3::monitoring
