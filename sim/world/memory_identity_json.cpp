// memory_identity's records as Keystone's v3 API shows them (never a password
// or a secret).
#include "sim/world/memory_identity_state.hpp"

namespace c5c3::sim::world {
namespace km = keystone_memory;
using state = memory_identity::state;

namespace {

k8s::object_builder record(std::string_view id) {
  k8s::object_builder b;
  b.set_string({"id"}, id);
  return b;
}

void set_or_null(k8s::object_builder& b, std::string_view k, const std::string& v) {
  if (v.empty()) {
    b.set({k}, k8s::json_value(rapidjson::kNullType));
  } else {
    b.set_string({k}, v);
  }
}

}  // namespace

k8s::object state::domain_json(const km::domain_rec& d) const {
  auto b = record(d.id);
  b.set_string({"name"}, d.name);
  b.set_string({"description"}, d.description);
  b.set_bool({"enabled"}, d.enabled);
  return std::move(b).freeze();
}
k8s::object state::project_json(const km::project_rec& p) const {
  auto b = record(p.id);
  b.set_string({"name"}, p.name);
  b.set_string({"description"}, p.description);
  b.set_string({"domain_id"}, p.domain_id);
  b.set_bool({"enabled"}, p.enabled);
  b.set_bool({"is_domain"}, false);
  k8s::json_value tags(rapidjson::kArrayType);
  for (const auto& t : p.tags) tags.PushBack(k8s::make_string(t, b.alloc()), b.alloc());
  b.set({"tags"}, std::move(tags));
  return std::move(b).freeze();
}
k8s::object state::role_json(const km::role_rec& r) const {
  auto b = record(r.id);
  b.set_string({"name"}, r.name);
  b.set_string({"description"}, r.description);
  set_or_null(b, "domain_id", r.domain_id);
  return std::move(b).freeze();
}
k8s::object state::user_json(const km::user_rec& u) const {
  auto b = record(u.id);
  b.set_string({"name"}, u.name);
  b.set_string({"description"}, u.description);
  b.set_string({"domain_id"}, u.domain_id);
  b.set_bool({"enabled"}, u.enabled);
  if (!u.default_project_id.empty()) b.set_string({"default_project_id"}, u.default_project_id);
  b.set({"password_expires_at"}, k8s::json_value(rapidjson::kNullType));
  return std::move(b).freeze();
}
k8s::object state::assignment_json(const km::assignment_rec& a) const {
  k8s::object_builder b;
  b.set_string({"role", "id"}, a.role_id);
  b.set_string({"user", "id"}, a.user_id);
  if (!a.project_id.empty()) b.set_string({"scope", "project", "id"}, a.project_id);
  if (!a.domain_id.empty()) b.set_string({"scope", "domain", "id"}, a.domain_id);
  return std::move(b).freeze();
}
k8s::object state::app_cred_json(const km::app_cred_rec& c) const {
  auto b = record(c.id);
  b.set_string({"name"}, c.name);
  b.set_string({"description"}, c.description);
  b.set_string({"user_id"}, c.user_id);
  b.set_string({"project_id"}, c.project_id);
  b.set_bool({"unrestricted"}, c.unrestricted);
  if (c.expires_at) {
    b.set_string({"expires_at"}, k8s::format_rfc3339(*c.expires_at));
  } else {
    b.set({"expires_at"}, k8s::json_value(rapidjson::kNullType));
  }
  k8s::json_value roles(rapidjson::kArrayType);
  for (const auto& id : c.role_ids) {
    k8s::json_value r(rapidjson::kObjectType);
    k8s::set_member(r, "id", k8s::make_string(id, b.alloc()), b.alloc());
    auto it = this->roles.find(id);
    k8s::set_member(r, "name", k8s::make_string(it == this->roles.end() ? "" : it->second.name, b.alloc()), b.alloc());
    k8s::set_member(r, "domain_id", k8s::json_value(rapidjson::kNullType), b.alloc());
    roles.PushBack(std::move(r), b.alloc());
  }
  b.set({"roles"}, std::move(roles));
  if (auto rules = k8s::parse_json(c.access_rules)) b.set({"access_rules"}, k8s::copy_json(*rules, b.alloc()));
  return std::move(b).freeze();
}
k8s::object state::service_json(const km::service_rec& v) const {
  auto b = record(v.id);
  b.set_string({"name"}, v.name);
  b.set_string({"type"}, v.type);
  b.set_string({"description"}, v.description);
  b.set_bool({"enabled"}, v.enabled);
  return std::move(b).freeze();
}
k8s::object state::endpoint_json(const km::endpoint_rec& e) const {
  auto b = record(e.id);
  b.set_string({"interface"}, e.interface);
  b.set_string({"url"}, e.url);
  b.set_string({"service_id"}, e.service_id);
  set_or_null(b, "region_id", e.region_id);
  set_or_null(b, "region", e.region_id);
  b.set_string({"description"}, e.description);
  b.set_bool({"enabled"}, e.enabled);
  return std::move(b).freeze();
}
k8s::object state::region_json(const km::region_rec& g) const {
  auto b = record(g.id);
  b.set_string({"description"}, g.description);
  set_or_null(b, "parent_region_id", g.parent_region_id);
  return std::move(b).freeze();
}

std::vector<k8s::object> state::collection_json(std::string_view c) const {
  std::vector<k8s::object> out;
  auto all = [&](const auto& table, auto fn) {
    for (const auto& [_, r] : table) out.push_back((this->*fn)(r));
  };
  if (c == "domains") all(domains, &state::domain_json);
  if (c == "projects") all(projects, &state::project_json);
  if (c == "roles") all(roles, &state::role_json);
  if (c == "users") all(users, &state::user_json);
  if (c == "services") all(services, &state::service_json);
  if (c == "endpoints") all(endpoints, &state::endpoint_json);
  if (c == "regions") all(regions, &state::region_json);
  if (c == "application_credentials") all(app_creds, &state::app_cred_json);
  if (c == "role_assignments")
    for (const auto& a : assignments) out.push_back(assignment_json(a));
  return out;
}

}  // namespace c5c3::sim::world
