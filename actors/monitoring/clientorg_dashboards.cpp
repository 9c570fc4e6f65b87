// The ClientOrgReconciler's dashboard copies (apis-monitoring.md 9.1 step 12)
// and the names of section 9.2.
#include "actors/monitoring/clientorg.hpp"
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/create_or_patch.hpp"
#include "actors/runtime/shard/lease_state.hpp"

#include <openssl/sha.h>

#include <cstdint>

namespace c5c3::monitoring {

std::string monitoring_namespace(std::string_view ns) { return std::string(ns) + monitoring_namespace_suffix; }

std::string client_dashboard_title(std::string_view title) {
  constexpr std::string_view prefix = "KubeDB /";
  if (title.starts_with(prefix)) title.remove_prefix(prefix.size());
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
  while (!title.empty() && space(title.front())) title.remove_prefix(1);
  while (!title.empty() && space(title.back())) title.remove_suffix(1);
  return std::string(title);
}

std::string client_org_selector() { return client_org_key + "=true," + client_org_monitoring_key + "!=false"; }

bool is_client_org(const k8s::object& ns) {
  return ns.label(client_org_key).value_or("") == "true" && ns.label(client_org_monitoring_key).value_or("") != "false";
}

namespace co {

namespace {

const std::string last_applied = "kubectl.kubernetes.io/last-applied-configuration";

void copy_member(k8s::object_builder& b, const k8s::object& src, std::string_view field) {
  if (const auto* v = src.get({"metadata", field})) b.set({"metadata", field}, k8s::copy_json(*v, b.alloc()));
}

// The model as the copy carries it.
k8s::json_value transformed_model(const k8s::json_value& model, std::string_view client_ns, k8s::json_allocator& a) {
  auto m = k8s::copy_json(model, a);
  k8s::set_member(m, "title", k8s::make_string(client_dashboard_title(k8s::get_string(model, {"title"})), a), a);
  if (auto* list = k8s::member(m, "templating") ? k8s::member(*k8s::member(m, "templating"), "list") : nullptr;
      list && list->IsArray())
    for (auto& v : list->GetArray()) {
      if (!v.IsObject() || k8s::get_string(v, {"name"}) != "namespace") continue;
      k8s::set_member(v, "type", k8s::make_string("constant", a), a);
      k8s::set_member(v, "query", k8s::make_string(client_ns, a), a);
    }
  return m;
}

}  // namespace

bool is_copy_source(const k8s::object& d) {
  return !d.annotation(dashboard_source_key) && !d.namespace_().ends_with(monitoring_namespace_suffix);
}

std::string dashboard_hash(const k8s::object& d) {
  std::string text = std::to_string(d.generation()) + "\n";
  for (const auto& [k, v] : d.labels())
    if (k != runtime::shard::claim_label) text += "l " + k + "=" + v + "\n";
  for (const auto& [k, v] : d.annotations())
    if (k != last_applied) text += "a " + k + "=" + v + "\n";
  if (const auto* spec = d.get({"spec"})) text += k8s::to_json(*spec);
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), md);
  std::uint64_t h = 0;
  for (int i = 0; i < 8; ++i) h = (h << 8) | md[i];
  return std::to_string(h);
}

std::optional<runtime::child_write> copy_dashboard(const k8s::object& src, std::string_view client_ns,
                                                   const k8s::object* live, std::string& error) {
  const auto who = std::string(src.namespace_()) + "/" + std::string(src.name());
  const auto* model = src.get({"spec", "model"});
  if (!model || model->IsNull()) {
    error = "GrafanaDashboard " + who + " is missing a model";
    return std::nullopt;
  }
  if (!model->IsObject()) {
    error = "GrafanaDashboard " + who + ": the model is not a JSON object";
    return std::nullopt;
  }
  const auto mon_ns = monitoring_namespace(client_ns);
  k8s::object_builder fresh(grafanadashboard_gvk.api_version(), grafanadashboard_gvk.kind, mon_ns, src.name());
  copy_member(fresh, src, "labels");
  fresh.remove_label(runtime::shard::claim_label);  // the source's holder is not the copy's
  copy_member(fresh, src, "annotations");
  copy_member(fresh, src, "finalizers");
  return create_or_patch(live, std::move(fresh).freeze(), [&](k8s::object_builder& b) {
    auto& a = b.alloc();
    b.set({"spec"}, k8s::copy_json(*src.get({"spec"}), a));
    b.set_annotation(dashboard_source_key, who);
    b.set_annotation(dashboard_hash_key, dashboard_hash(src));
    b.remove({"spec", "grafanaRef"});
    b.set_string({"spec", "grafanaRef", "namespace"}, mon_ns);
    b.set_string({"spec", "grafanaRef", "name"}, client_grafana_appbinding);
    b.set({"spec", "model"}, transformed_model(*model, client_ns, a));
  });
}

}  // namespace co

}  // namespace c5c3::monitoring
