#include "actors/c5c3/scaffold/status_fields.hpp"

namespace c5c3::c5c3 {

std::int64_t status_int(const k8s::object& order, std::string_view field) {
  const auto* v = order.get({"status", field});
  return v && v->IsInt64() ? v->GetInt64() : 0;
}

std::string status_string(const k8s::object& order, std::string_view field) {
  return std::string(order.get_string({"status", field}));
}

std::optional<k8s::time_point> status_time(const k8s::object& order, std::string_view field) {
  auto s = order.get_string({"status", field});
  if (s.empty()) return std::nullopt;
  return k8s::parse_rfc3339(s);
}

std::vector<std::string> status_strings(const k8s::object& order, std::string_view field) {
  std::vector<std::string> out;
  if (const auto* v = order.get({"status", field}); v && v->IsArray())
    for (auto& e : v->GetArray())
      if (e.IsString()) out.emplace_back(k8s::as_string_view(e));
  return out;
}

void put_status_int(k8s::object_builder& b, std::string_view field, std::int64_t v) {
  if (v == 0)
    b.remove({"status", field});
  else
    b.set_int({"status", field}, v);
}

void put_status_string(k8s::object_builder& b, std::string_view field, std::string_view v) {
  if (v.empty())
    b.remove({"status", field});
  else
    b.set_string({"status", field}, v);
}

void put_status_time(k8s::object_builder& b, std::string_view field, const std::optional<k8s::time_point>& t) {
  if (!t)
    b.remove({"status", field});
  else
    b.set_string({"status", field}, k8s::format_rfc3339(*t));
}

void put_status_strings(k8s::object_builder& b, std::string_view field, const std::vector<std::string>& v) {
  if (v.empty()) {
    b.remove({"status", field});
    return;
  }
  k8s::json_value arr(rapidjson::kArrayType);
  for (const auto& s : v) arr.PushBack(k8s::make_string(s, b.alloc()), b.alloc());
  b.set({"status", field}, std::move(arr));
}

}  // namespace c5c3::c5c3
