#include "actors/c5c3/keystonecatalogentry/spec.hpp"

namespace c5c3::c5c3::keystonecatalogentry {

order_label_keys label_keys() {
  return {std::string(label_name), std::string(label_namespace), std::string(label_cluster)};
}

catalog_status read_status(const k8s::object& order) {
  catalog_status s;
  if (const auto* v = order.get({"status", "observedGeneration"}); v && v->IsInt64()) s.observed_generation = v->GetInt64();
  s.service_id = order.get_string({"status", "serviceID"});
  s.service_name = order.get_string({"status", "serviceName"});
  if (const auto* arr = order.get({"status", "endpoints"}); arr && arr->IsArray())
    for (const auto& e : arr->GetArray()) {
      const auto* i = k8s::member(e, "interface");
      const auto* id = k8s::member(e, "id");
      s.endpoints.push_back({i && i->IsString() ? std::string(k8s::as_string_view(*i)) : "",
                             id && id->IsString() ? std::string(k8s::as_string_view(*id)) : ""});
    }
  return s;
}

void write_status(k8s::object_builder& b, const catalog_status& s) {
  if (s.observed_generation == 0)
    b.remove({"status", "observedGeneration"});
  else
    b.set_int({"status", "observedGeneration"}, s.observed_generation);
  for (auto [field, v] : {std::pair<std::string_view, const std::string&>{"serviceID", s.service_id},
                          {"serviceName", s.service_name}}) {
    if (v.empty())
      b.remove({"status", field});
    else
      b.set_string({"status", field}, v);
  }
  if (s.endpoints.empty()) {
    b.remove({"status", "endpoints"});
    return;
  }
  k8s::json_value arr(rapidjson::kArrayType);
  for (const auto& e : s.endpoints) {
    k8s::json_value item(rapidjson::kObjectType);
    item.AddMember("interface", k8s::make_string(e.interface, b.alloc()), b.alloc());
    item.AddMember("id", k8s::make_string(e.id, b.alloc()), b.alloc());
    arr.PushBack(item, b.alloc());
  }
  b.set({"status", "endpoints"}, std::move(arr));
}

catalog_order make_catalog_order(const k8s::object& order, std::string_view cluster) {
  catalog_order o;
  o.id = korc::identity_of(order, cluster, segment, label_keys());
  o.service_type = order.get_string({"spec", "serviceType"});
  auto name = order.get_string({"spec", "serviceName"});
  o.service_name = std::string(name.empty() ? order.name() : name);
  if (const auto* arr = order.get({"spec", "endpoints"}); arr && arr->IsArray())
    for (const auto& e : arr->GetArray()) {
      const auto* i = k8s::member(e, "interface");
      const auto* u = k8s::member(e, "url");
      if (!i || !i->IsString() || !u || !u->IsString()) continue;
      o.endpoints.push_back({std::string(k8s::as_string_view(*i)), std::string(k8s::as_string_view(*u))});
    }
  o.status = read_status(order);
  return o;
}

}  // namespace c5c3::c5c3::keystonecatalogentry
