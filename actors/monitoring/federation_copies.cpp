#include "actors/monitoring/federation_copies.hpp"

#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/labels.hpp"

#include <algorithm>
#include <set>

namespace c5c3::monitoring::fed {

namespace {

k8s::json_value str(std::string_view s, k8s::json_allocator& a) { return k8s::make_string(s, a); }

void merge_map(k8s::object_builder& b, std::string_view field, const label_map& add) {
  for (const auto& [k, v] : add) {
    if (field == "labels") b.set_label(k, v);
    else b.set_annotation(k, v);
  }
}

// ports[name == x.name] gets `fill`; else a new entry {name} filled.
void upsert_named(k8s::json_value& ports, std::string_view name, k8s::json_allocator& a,
                  const std::function<void(k8s::json_value&)>& fill) {
  if (!ports.IsArray()) ports.SetArray();
  for (auto& p : ports.GetArray())
    if (k8s::get_string(p, {"name"}) == name) return fill(p);
  k8s::json_value e(rapidjson::kObjectType);
  e.AddMember("name", str(name, a), a);
  fill(e);
  ports.PushBack(std::move(e), a);
}

void set_int(k8s::json_value& o, const char* key, std::int64_t v, k8s::json_allocator& a) {
  k8s::set_member(o, key, k8s::json_value(v), a);
}

}  // namespace

std::vector<std::string> keep_namespaces(const k8s::object& prom, const std::vector<k8s::object>& namespaces) {
  std::vector<std::string> out{""};
  const auto* sel = prom.get({"spec", "serviceMonitorNamespaceSelector"});
  for (const auto& ns : namespaces) {
    if (!selector_selects(sel, ns.labels())) continue;
    if (ns.name() == "cattle-project-" + std::string(ns.label(field_project_label).value_or(""))) continue;
    out.emplace_back(ns.name());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<runtime::child_write> copy_servicemonitor(const k8s::object& prom, const k8s::object& src,
                                                        const std::vector<std::string>& namespaces,
                                                        const k8s::object* live) {
  std::string regex = "(";
  for (std::size_t i = 0; i < namespaces.size(); ++i) regex += (i ? "|" : "") + namespaces[i];
  regex += ")";
  return create_or_patch(live, new_object(servicemonitor_gvk, prom.namespace_(), src.name()), [&](k8s::object_builder& b) {
    auto& a = b.alloc();
    set_owner_references(b, {controller_ref(prom, prometheus_gvk)});
    merge_map(b, "labels", labels_for_selector(prom.get({"spec", "serviceMonitorSelector"})));
    b.remove_label(prometheus_key);
    k8s::json_value spec = src.get({"spec"}) ? k8s::copy_json(*src.get({"spec"}), a) : k8s::json_value(rapidjson::kObjectType);
    k8s::json_value keep(rapidjson::kObjectType);
    keep.AddMember("action", "keep", a);
    k8s::json_value labels(rapidjson::kArrayType);
    labels.PushBack("namespace", a);
    keep.AddMember("sourceLabels", std::move(labels), a);
    keep.AddMember("regex", str(regex, a), a);
    if (auto* eps = k8s::member(spec, "endpoints"); eps && eps->IsArray()) {
      for (auto& e : eps->GetArray()) {
        if (!e.IsObject()) continue;
        k8s::set_member(e, "honorLabels", k8s::json_value(true), a);
        auto* mr = k8s::member(e, "metricRelabelings");
        const bool has_rule = mr && mr->IsArray() && !mr->Empty() && k8s::json_equal((*mr)[0], keep);
        if (has_rule) continue;
        k8s::json_value list(rapidjson::kArrayType);
        list.PushBack(k8s::copy_json(keep, a), a);
        if (mr && mr->IsArray())
          for (auto& r : mr->GetArray()) list.PushBack(k8s::copy_json(r, a), a);
        k8s::set_member(e, "metricRelabelings", std::move(list), a);
      }
    }
    b.set({"spec"}, std::move(spec));
  });
}

std::optional<runtime::child_write> copy_service(const k8s::object& src, const k8s::object& target,
                                                 const k8s::object* live) {
  return create_or_patch(live, new_object(service_gvk, target.namespace_(), src.name()), [&](k8s::object_builder& b) {
    auto& a = b.alloc();
    set_owner_references(b, {controller_ref(target, servicemonitor_gvk)});
    merge_map(b, "labels", src.labels());
    merge_map(b, "annotations", src.annotations());
    b.set_string({"spec", "type"}, "ClusterIP");
    auto& spec = k8s::ensure_object(b.doc(), {"spec"}, a);
    if (!k8s::member(spec, "ports")) k8s::set_member(spec, "ports", k8s::json_value(rapidjson::kArrayType), a);
    auto& ports = *k8s::member(spec, "ports");
    if (const auto* sp = src.get({"spec", "ports"}); sp && sp->IsArray())
      for (const auto& port : sp->GetArray()) {
        auto n = k8s::get_int(port, {"port"}).value_or(0);
        upsert_named(ports, k8s::get_string(port, {"name"}), a, [&](k8s::json_value& e) {
          set_int(e, "port", n, a);
          set_int(e, "targetPort", n, a);
        });
      }
  });
}

std::optional<runtime::child_write> copy_endpoints(const k8s::object& src_svc, const k8s::object& src_ep,
                                                   const k8s::object& target, const k8s::object* live,
                                                   std::string& error) {
  auto port_of = [&](std::string_view name) -> std::optional<std::int64_t> {
    if (const auto* sp = src_svc.get({"spec", "ports"}); sp && sp->IsArray())
      for (const auto& p : sp->GetArray())
        if (k8s::get_string(p, {"name"}) == name) return k8s::get_int(p, {"port"});
    return std::nullopt;
  };
  const auto* src_subsets = src_ep.get({"subsets"});
  if (src_subsets && src_subsets->IsArray())
    for (const auto& sub : src_subsets->GetArray())
      if (const auto* ps = k8s::member(sub, "ports"); ps && ps->IsArray())
        for (const auto& p : ps->GetArray())
          if (!port_of(k8s::get_string(p, {"name"}))) {
            error = "service " + std::string(src_svc.namespace_()) + "/" + std::string(src_svc.name()) +
                    " has no port with name " + std::string(k8s::get_string(p, {"name"}));
            return std::nullopt;
          }
  return create_or_patch(live, new_object(endpoints_gvk, target.namespace_(), src_ep.name()), [&](k8s::object_builder& b) {
    auto& a = b.alloc();
    set_owner_references(b, {controller_ref(target, servicemonitor_gvk)});
    merge_map(b, "labels", src_ep.labels());
    merge_map(b, "annotations", src_ep.annotations());
    if (!src_subsets || !src_subsets->IsArray()) return;
    auto* subsets = k8s::member(b.doc(), "subsets");
    if (!subsets || !subsets->IsArray()) {
      k8s::set_member(b.doc(), "subsets", k8s::json_value(rapidjson::kArrayType), a);
      subsets = k8s::member(b.doc(), "subsets");
    }
    for (rapidjson::SizeType i = 0; i < src_subsets->Size(); ++i) {
      while (subsets->Size() <= i) subsets->PushBack(k8s::json_value(rapidjson::kObjectType), a);
      auto& sub = (*subsets)[i];
      k8s::json_value addr(rapidjson::kObjectType);
      addr.AddMember("ip", str(src_svc.get_string({"spec", "clusterIP"}), a), a);
      k8s::json_value addrs(rapidjson::kArrayType);
      addrs.PushBack(std::move(addr), a);
      k8s::set_member(sub, "addresses", std::move(addrs), a);
      if (!k8s::member(sub, "ports")) k8s::set_member(sub, "ports", k8s::json_value(rapidjson::kArrayType), a);
      auto& ports = *k8s::member(sub, "ports");
      if (const auto* ps = k8s::member((*src_subsets)[i], "ports"); ps && ps->IsArray())
        for (const auto& p : ps->GetArray()) {
          auto name = k8s::get_string(p, {"name"});
          auto n = port_of(name).value_or(0);
          upsert_named(ports, name, a, [&](k8s::json_value& e) { set_int(e, "port", n, a); });
        }
    }
  });
}

runtime::child_write copy_secret(const k8s::object& src, const k8s::object& target) {
  k8s::object_builder b{"v1", "Secret", target.namespace_(), src.name()};
  b.add_owner_reference(controller_ref(target, servicemonitor_gvk));
  if (const auto* im = src.get({"immutable"})) b.set({"immutable"}, k8s::copy_json(*im, b.alloc()));
  if (const auto* d = src.get({"data"})) b.set({"data"}, k8s::copy_json(*d, b.alloc()));
  if (auto t = src.get_string({"type"}); !t.empty()) b.set_string({"type"}, t);
  return runtime::make_apply(std::move(b).freeze(), runtime::write_cluster::management, true);
}

std::vector<std::string> ca_secret_names(const k8s::object& smon) {
  std::vector<std::string> out;
  if (const auto* eps = smon.get({"spec", "endpoints"}); eps && eps->IsArray())
    for (const auto& e : eps->GetArray()) {
      auto name = std::string(k8s::get_string(e, {"tlsConfig", "ca", "secret", "name"}));
      if (!name.empty() && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    }
  return out;
}

std::string aggregate(const std::vector<std::string>& errors) {
  std::vector<std::string> seen;
  for (const auto& e : errors)
    if (std::find(seen.begin(), seen.end(), e) == seen.end()) seen.push_back(e);
  if (seen.empty()) return {};
  if (seen.size() == 1) return seen.front();
  std::string out = "[";
  for (std::size_t i = 0; i < seen.size(); ++i) out += (i ? ", " : "") + seen[i];
  return out + "]";
}

}  // namespace c5c3::monitoring::fed
