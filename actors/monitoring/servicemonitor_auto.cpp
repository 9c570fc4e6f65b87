// servicemonitor.AutoReconciler (apis-monitoring.md section 7).
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/create_or_patch.hpp"
#include "actors/monitoring/gate.hpp"
#include "actors/monitoring/labels.hpp"
#include "actors/monitoring/servicemonitor.hpp"

namespace c5c3::monitoring {

namespace sm {

std::optional<runtime::child_write> label_patch(const k8s::object& prom, const k8s::object& target) {
  auto want = labels_for_selector(prom.get({"spec", "serviceMonitorSelector"}));
  if (labels_cover(target.labels(), want)) return std::nullopt;
  return patch_only(target, [&](k8s::object_builder& b) {
    for (const auto& [k, v] : want) b.set_label(k, v);
  });
}

void common_reads(runtime::kind_declaration& k) {
  k.admission = false;
  k.reads.push_back(runtime::listed(prometheuses_slot, prometheus_gvk, "", runtime::namespace_role::all));
  k.reads.push_back(runtime::named(namespace_slot, namespace_gvk,
                                   [](const runtime::sense_snapshot& s) -> std::optional<runtime::locator> {
                                     return runtime::locator{"", s.key.namespace_};
                                   }));
  k.reads.push_back(runtime::named(kube_system_slot, namespace_gvk,
                                   [](const runtime::sense_snapshot&) -> std::optional<runtime::locator> {
                                     return runtime::locator{"", kube_system};
                                   }));
  runtime::watch_decl every;
  every.gvk = prometheus_gvk;
  every.optional = false;
  every.wakes = [](const k8s::object&, const k8s::object&) { return true; };
  k.watches.push_back(every);
}

}  // namespace sm

namespace {

std::string label_of(const k8s::object& o, const std::string& key) { return std::string(o.label(key).value_or("")); }

// HasProm: a Prometheus already selects the ServiceMonitor. An invalid
// selector is an error.
bool selected(const std::vector<k8s::object>& proms, const k8s::object& ns, const k8s::object& smon, std::string& error) {
  for (const auto& p : proms) {
    if (!selector_selects(p.get({"spec", "serviceMonitorNamespaceSelector"}), ns.labels(), &error)) {
      if (!error.empty()) return false;
      continue;
    }
    if (selector_selects(p.get({"spec", "serviceMonitorSelector"}), smon.labels(), &error)) return true;
    if (!error.empty()) return false;
  }
  return false;
}

void patch_for(const k8s::object& prom, const runtime::sense_snapshot& s, runtime::order_plan& p) {
  if (auto w = sm::label_patch(prom, s.order)) p.writes.push_back(std::move(*w));
  p.stage = "labels for " + std::string(prom.namespace_()) + "/" + std::string(prom.name());
}

}  // namespace

runtime::order_plan plan_auto(const runtime::sense_snapshot& s) {
  runtime::order_plan p;
  auto f = detector_gate(s, prometheus_detector_service, p);
  if (!f) return p;
  p.stage = "auto";
  if (label_of(s.order, prometheus_key) != value_auto) return p;
  const auto& proms = s.list(sm::prometheuses_slot);
  if (proms.empty()) return p;
  const auto* ns = s.one(sm::namespace_slot);
  if (!ns) {
    p.error = "namespaces \"" + s.key.namespace_ + "\" not found";
    return p;
  }
  std::string error;
  if (selected(proms, *ns, s.order, error) || !error.empty()) {
    p.error = error;
    p.stage = "selected";
    return p;
  }
  auto sorted = sorted_by_key(proms);
  if (!f->rancher) {
    if (const auto* prom = default_prometheus(*f, sorted)) patch_for(*prom, s, p);
    return p;
  }
  const auto* ks = s.one(sm::kube_system_slot);
  const auto system_project = ks ? label_of(*ks, field_project_label) : std::string();
  const auto project = ns->label(field_project_label);
  if (!project || *project == system_project) {
    for (const auto& prom : sorted)
      if (prom.namespace_() == rancher_monitoring_namespace) {
        patch_for(prom, s, p);
        return p;
      }
  }
  const auto helm_project = label_of(*ns, helm_project_label);
  if (helm_project.empty()) {
    p.stage = "project prometheus is not deployed";
    return p;
  }
  for (const auto& prom : sorted) {
    if (prom.namespace_() == rancher_monitoring_namespace) continue;
    if (selector_selects(prom.get({"spec", "serviceMonitorNamespaceSelector"}), {{helm_project_label, helm_project}},
                         &error)) {
      patch_for(prom, s, p);
      return p;
    }
    if (!error.empty()) {
      p.error = error;
      return p;
    }
  }
  return p;
}

std::shared_ptr<const runtime::kind_declaration> auto_declaration() {
  auto k = std::make_shared<runtime::kind_declaration>();
  k->controller = auto_controller;
  k->gvk = servicemonitor_gvk;
  k->order_selector = prometheus_key + "=" + value_auto;
  sm::common_reads(*k);
  k->plan = plan_auto;
  return k;
}

}  // namespace c5c3::monitoring
