// The datasource templating of setDashboard (apis.md 5.2): with
// spec.templatize.datasource, every panel's datasource becomes the
// AppBinding's datasource (the panels of collapsed rows too), the templating
// variables of type "datasource" are dropped and the others point at it.
#include "actors/monitoring/grafana.hpp"

namespace c5c3::monitoring {

namespace {

void set_datasource(k8s::json_value& obj, const std::string& ds, k8s::json_allocator& a) {
  k8s::set_member(obj, "datasource", k8s::make_string(ds, a), a);
}

void panels(k8s::json_value& list, const std::string& ds, k8s::json_allocator& a) {
  if (!list.IsArray()) return;
  for (auto& panel : list.GetArray()) {
    if (!panel.IsObject()) continue;
    set_datasource(panel, ds, a);
    if (auto* inner = k8s::member(panel, "panels")) panels(*inner, ds, a);  // a collapsed row
  }
}

}  // namespace

k8s::json_document templatize_datasource(const k8s::json_value& model, const std::string& ds) {
  auto out = k8s::copy_document(model);
  if (!out.IsObject()) return out;
  auto& a = out.GetAllocator();
  if (auto* p = k8s::member(out, "panels")) panels(*p, ds, a);
  if (auto* rows = k8s::member(out, "rows"); rows && rows->IsArray())  // the schema before Grafana 5
    for (auto& row : rows->GetArray())
      if (auto* p = row.IsObject() ? k8s::member(row, "panels") : nullptr) panels(*p, ds, a);
  auto* templating = k8s::member(out, "templating");
  auto* list = templating && templating->IsObject() ? k8s::member(*templating, "list") : nullptr;
  if (list && list->IsArray()) {
    k8s::json_value kept(rapidjson::kArrayType);
    for (auto& var : list->GetArray()) {
      if (var.IsObject() && k8s::get_string(var, {"type"}) == "datasource") continue;
      k8s::json_value v(var, a);
      if (v.IsObject()) set_datasource(v, ds, a);
      kept.PushBack(v, a);
    }
    *list = std::move(kept);
  }
  return out;
}

}  // namespace c5c3::monitoring
