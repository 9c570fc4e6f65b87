// The chart presets (apis-monitoring.md 4.3): ClusterChartPreset
// monitoring-presets, or the project's ChartPreset
// cattle-project-<id>/monitoring-presets for a project Prometheus of a
// federated (Rancher) cluster; its labels replaced by exactly
// charts.x-helm.dev/is-default-preset=true and spec.values the presets.
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/create_or_patch.hpp"
#include "actors/monitoring/labels.hpp"
#include "actors/monitoring/prometheus_steps.hpp"
#include "actors/monitoring/cluster_meta.hpp"

#include <optional>

namespace c5c3::monitoring::prom {

namespace {

std::string labels_json(const label_map& m) {
  std::string out = "{";
  for (const auto& [k, v] : m) out += (out.size() > 1 ? "," : "") + go_json_string(k) + ":" + go_json_string(v);
  return out + "}";
}

// The selector's labels, or the chart's default when it has none.
label_map preset_labels(const view& v, std::string_view field) {
  auto labels = labels_for_selector(v.prom().get({"spec", field}));
  if (labels.empty()) labels = {{"release", v.is_default && v.f.rancher ? "rancher-monitoring" : "kube-prometheus-stack"}};
  return labels;
}

const k8s::object& kube_system(const view& v) {
  static const k8s::object none;
  const auto* ks = v.s.one(kube_system_slot);
  return ks ? *ks : none;
}

// Where the preset lives: a project's ChartPreset (a federated, non-default
// Prometheus) in the project's namespace, else the ClusterChartPreset ("").
// nullopt with p.error set when the project cannot be told.
std::optional<std::string> preset_namespace(const view& v, bool project, runtime::order_plan& p) {
  if (!project) return std::string();
  auto ps = namespace_for_project_settings(v.prom(), kube_system(v));
  if (!ps.error.empty()) {
    p.error = ps.error;
    return std::nullopt;
  }
  return ps.ns;
}

}  // namespace

std::string presets_json(const view& v) {
  return R"({"spec":{"monitoring":{"agent":"prometheus.io/operator","serviceMonitor":{"labels":)" +
         labels_json(preset_labels(v, "serviceMonitorSelector")) + R"(}}},"form":{"alert":{"enabled":"critical","labels":)" +
         labels_json(preset_labels(v, "ruleSelector")) + "}}}";
}

void add_preset(const view& v, runtime::order_plan& p) {
  const bool project = v.f.federated() && !v.is_default;
  const auto where = preset_namespace(v, project, p);
  if (!where) return;
  const std::string& ns = *where;
  const auto* live = v.s.one(project ? projectpreset_slot : clusterpreset_slot);
  if (live && live->namespace_() != ns) live = nullptr;
  auto values = k8s::parse_json(presets_json(v));
  auto w = create_or_patch(v.s, live, new_object(project ? chartpreset_gvk : clusterchartpreset_gvk, ns, presets_name),
                           [&](k8s::object_builder& b) {
                             b.remove({"metadata", "labels"});
                             b.set_label(default_preset_label, "true");
                             b.remove({"spec"});
                             b.set({"spec", "values"}, k8s::copy_json(*values, b.alloc()));
                           });
  if (w) p.writes.push_back(std::move(*w));
}

void cleanup_preset(const view& v, runtime::order_plan& p) {
  const bool project = v.f.federated() && !v.is_default;
  const auto where = preset_namespace(v, project, p);
  if (!where) return;
  const std::string& ns = *where;
  // Upstream does not ignore NotFound here (a missing preset blocks the
  // finalizer for good; with several Prometheus objects sharing the
  // ClusterChartPreset the second deletion would never finish): an absent
  // preset counts as deleted (runner: a delete answered NotFound is success).
  const auto* live = v.s.one(project ? projectpreset_slot : clusterpreset_slot);
  if (live && live->namespace_() == ns && !live->terminating()) p.writes.push_back(runtime::make_delete(*live));
}

}  // namespace c5c3::monitoring::prom
