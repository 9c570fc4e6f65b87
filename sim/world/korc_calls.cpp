// Creates, updates, deletes and status.resource of the K-ORC kinds (the
// Keystone side of korc_kinds.hpp).
#include "sim/world/korc_kinds.hpp"

#include <fmt/format.h>

namespace c5c3::sim::world {
namespace {

const k8s::json_value* res_value(const k8s::object& o, std::string_view field) {
  return o.get({"spec", "resource", field});
}
std::string res(const k8s::object& o, std::string_view field) {
  return std::string(o.get_string({"spec", "resource", field}));
}
std::string first(const korc_resolved& r, const std::string& key) {
  auto it = r.find(key);
  return it == r.end() || it->second.empty() ? std::string() : it->second.front();
}

// {"<singular>": {...}} being built.
struct body {
  k8s::object_builder b;
  std::string singular;
  explicit body(std::string_view s) : singular(s) { b.set({singular}, k8s::json_value(rapidjson::kObjectType)); }
  void str(std::string_view k, std::string_view v) { b.set_string({singular, k}, v); }
  void opt(std::string_view k, const std::string& v) {
    if (!v.empty()) str(k, v);
  }
  void boolean(std::string_view k, bool v) { b.set_bool({singular, k}, v); }
  void json(std::string_view k, const k8s::json_value& v) { b.set({singular, k}, k8s::copy_json(v, b.alloc())); }
  std::string text() { return k8s::to_json(b.doc()); }
  bool empty() const {
    const auto* v = k8s::member(const_cast<k8s::object_builder&>(b).doc(), singular);
    return !v || v->MemberCount() == 0;
  }
};

bool enabled_of(const k8s::object& o) {
  const auto* v = res_value(o, "enabled");
  return !v || !v->IsBool() || v->GetBool();
}

void copy_if(k8s::json_value& out, std::string_view to, const k8s::object& rec, std::string_view from, k8s::json_allocator& a) {
  const auto* v = k8s::member(rec.json(), from);
  if (v && !v->IsNull()) k8s::set_member(out, to, k8s::copy_json(*v, a), a);
}

std::string assignment_path(const korc_resolved& r) {
  auto project = first(r, "projectRef");
  return fmt::format("/v3/{}/{}/users/{}/roles/{}", project.empty() ? "domains" : "projects",
                     percent_encode(project.empty() ? first(r, "domainRef") : project), percent_encode(first(r, "userRef")),
                     percent_encode(first(r, "roleRef")));
}

}  // namespace

identity_call korc_create_call(const k8s::object& o, const korc_resolved& r, std::string_view secret) {
  auto info = korc_kind_of(o.kind());
  if (!info) return {};
  body b(info->singular);
  const auto name = korc_resource_name(o);
  switch (info->kind) {
    case korc_kind::domain:
      b.str("name", name);
      b.opt("description", res(o, "description"));
      b.boolean("enabled", enabled_of(o));
      break;
    case korc_kind::project:
      b.str("name", name);
      b.opt("description", res(o, "description"));
      b.opt("domain_id", first(r, "domainRef"));
      b.boolean("enabled", enabled_of(o));
      if (const auto* tags = res_value(o, "tags")) b.json("tags", *tags);
      break;
    case korc_kind::role:
      b.str("name", name);
      b.opt("description", res(o, "description"));
      b.opt("domain_id", first(r, "domainRef"));
      break;
    case korc_kind::user:
      b.str("name", name);
      b.opt("description", res(o, "description"));
      b.opt("domain_id", first(r, "domainRef"));
      b.opt("default_project_id", first(r, "defaultProjectRef"));
      b.boolean("enabled", enabled_of(o));
      b.opt("password", std::string(secret));
      break;
    case korc_kind::service:
      b.str("name", name);
      b.str("type", res(o, "type"));
      b.opt("description", res(o, "description"));
      b.boolean("enabled", enabled_of(o));
      break;
    case korc_kind::endpoint:
      b.str("interface", res(o, "interface"));
      b.str("url", res(o, "url"));
      b.str("service_id", first(r, "serviceRef"));
      b.opt("region_id", first(r, "regionRef"));
      b.opt("description", res(o, "description"));
      b.boolean("enabled", enabled_of(o));
      break;
    case korc_kind::region:
      b.str("id", name);
      b.opt("description", res(o, "description"));
      b.opt("parent_region_id", first(r, "parentRegionRef"));
      break;
    case korc_kind::role_assignment: return {"PUT", assignment_path(r), ""};
    case korc_kind::application_credential: {
      b.str("name", name);
      b.opt("description", res(o, "description"));
      const auto* unrestricted = res_value(o, "unrestricted");
      b.boolean("unrestricted", unrestricted && unrestricted->IsBool() && unrestricted->GetBool());
      b.str("secret", secret);
      k8s::json_value roles(rapidjson::kArrayType);
      auto it = r.find("roleRefs");
      if (it != r.end()) {
        for (const auto& id : it->second) {
          k8s::json_value role(rapidjson::kObjectType);
          k8s::set_member(role, "id", k8s::make_string(id, b.b.alloc()), b.b.alloc());
          roles.PushBack(std::move(role), b.b.alloc());
        }
      }
      if (!roles.Empty()) b.b.set({b.singular, "roles"}, std::move(roles));
      if (const auto* rules = res_value(o, "accessRules"); rules && rules->IsArray() && !rules->Empty()) {
        k8s::json_value out(rapidjson::kArrayType);
        auto types = r.find("accessRules");
        std::size_t i = 0;
        for (const auto& rule : rules->GetArray()) {
          k8s::json_value x(rapidjson::kObjectType);
          for (auto [from, to] : {std::pair{"path", "path"}, {"method", "method"}}) {
            auto v = k8s::get_string(rule, {from});
            if (!v.empty()) k8s::set_member(x, to, k8s::make_string(v, b.b.alloc()), b.b.alloc());
          }
          if (!k8s::get_string(rule, {"serviceRef"}).empty() && types != r.end() && i < types->second.size())
            k8s::set_member(x, "service", k8s::make_string(types->second[i++], b.b.alloc()), b.b.alloc());
          out.PushBack(std::move(x), b.b.alloc());
        }
        b.b.set({b.singular, "access_rules"}, std::move(out));
      }
      b.opt("expires_at", res(o, "expiresAt"));
      return {"POST", fmt::format("/v3/users/{}/application_credentials", percent_encode(first(r, "userRef"))), b.text()};
    }
  }
  return {"POST", "/v3/" + std::string(info->collection), b.text()};
}

k8s::object korc_created_record(const k8s::object& o, const korc_resolved& r, const k8s::object& answer) {
  auto info = korc_kind_of(o.kind());
  if (!info) return {};
  if (info->kind != korc_kind::role_assignment) {
    auto rec = korc_record(info->kind, answer);
    if (info->kind != korc_kind::application_credential || !rec) return rec;
    auto b = rec.edit();
    b.remove({"secret"});  // shown once; K-ORC keeps it in secretRef only
    return std::move(b).freeze();
  }
  k8s::object_builder b;
  b.set_string({"role", "id"}, first(r, "roleRef"));
  b.set_string({"user", "id"}, first(r, "userRef"));
  if (!first(r, "projectRef").empty()) b.set_string({"scope", "project", "id"}, first(r, "projectRef"));
  if (!first(r, "domainRef").empty()) b.set_string({"scope", "domain", "id"}, first(r, "domainRef"));
  return std::move(b).freeze();
}

std::optional<identity_call> korc_update_call(const k8s::object& o, const k8s::object& record) {
  auto info = korc_kind_of(o.kind());
  if (!info || info->kind == korc_kind::role_assignment || info->kind == korc_kind::application_credential) return {};
  body b(info->singular);
  auto differs = [&](std::string_view key, const std::string& want) {
    if (std::string(record.get_string({key})) != want) b.str(key, want);
  };
  auto enabled = [&] {
    auto have = k8s::get_bool(record.json(), {"enabled"});
    if (have.value_or(true) != enabled_of(o)) b.boolean("enabled", enabled_of(o));
  };
  const auto name = korc_resource_name(o);
  switch (info->kind) {
    case korc_kind::domain:
    case korc_kind::project:
    case korc_kind::user:
    case korc_kind::service:
      differs("name", name);
      differs("description", res(o, "description"));
      enabled();
      if (info->kind == korc_kind::service) differs("type", res(o, "type"));
      if (info->kind == korc_kind::project) {
        const auto* want = res_value(o, "tags");
        const auto* have = record.get({"tags"});
        k8s::json_value none(rapidjson::kArrayType);
        if (!k8s::json_equal(want ? *want : none, have ? *have : none)) b.json("tags", want ? *want : none);
      }
      break;
    case korc_kind::role:
      differs("name", name);
      differs("description", res(o, "description"));
      break;
    case korc_kind::endpoint:
      differs("interface", res(o, "interface"));
      differs("url", res(o, "url"));
      enabled();
      break;
    case korc_kind::region: differs("description", res(o, "description")); break;
    default: break;
  }
  if (b.empty()) return std::nullopt;
  return identity_call{"PATCH", fmt::format("/v3/{}/{}", info->collection, percent_encode(korc_record_id(info->kind, record))),
                       b.text()};
}

std::vector<identity_call> korc_delete_calls(korc_kind k, const k8s::object& record, const korc_resolved& r) {
  const auto& info = korc_info(k);
  const auto id = percent_encode(korc_record_id(k, record));
  switch (k) {
    case korc_kind::role_assignment: {
      auto role = std::string(record.get_string({"role", "id"})), user = std::string(record.get_string({"user", "id"}));
      auto project = std::string(record.get_string({"scope", "project", "id"}));
      auto domain = std::string(record.get_string({"scope", "domain", "id"}));
      return {{"DELETE",
               fmt::format("/v3/{}/{}/users/{}/roles/{}", project.empty() ? "domains" : "projects",
                           percent_encode(project.empty() ? domain : project), percent_encode(user), percent_encode(role)),
               ""}};
    }
    case korc_kind::application_credential: {
      auto user = std::string(record.get_string({"user_id"}));
      if (user.empty()) user = first(r, "userRef");
      return {{"DELETE", fmt::format("/v3/users/{}/application_credentials/{}", percent_encode(user), id), ""}};
    }
    case korc_kind::domain:
      if (k8s::get_bool(record.json(), {"enabled"}).value_or(true))
        return {{"PATCH", "/v3/domains/" + id, R"({"domain":{"enabled":false}})"}, {"DELETE", "/v3/domains/" + id, ""}};
      [[fallthrough]];
    default: return {{"DELETE", fmt::format("/v3/{}/{}", info.collection, id), ""}};
  }
}

k8s::json_value korc_resource_status(korc_kind k, const k8s::object& rec, k8s::json_allocator& a) {
  k8s::json_value out(rapidjson::kObjectType);
  auto copy = [&](std::string_view to, std::string_view from) { copy_if(out, to, rec, from, a); };
  auto text = [&](std::string_view to, std::string_view v) {
    if (!v.empty()) k8s::set_member(out, to, k8s::make_string(v, a), a);
  };
  switch (k) {
    case korc_kind::domain:
    case korc_kind::project:
    case korc_kind::role:
    case korc_kind::user:
    case korc_kind::service:
      copy("name", "name");
      if (!rec.get_string({"description"}).empty()) copy("description", "description");
      if (k != korc_kind::domain && k != korc_kind::service) copy("domainID", "domain_id");
      if (k != korc_kind::role) copy("enabled", "enabled");
      if (k == korc_kind::project) copy("tags", "tags");
      if (k == korc_kind::service) copy("type", "type");
      if (k == korc_kind::user) {
        copy("defaultProjectID", "default_project_id");
        copy("passwordExpiresAt", "password_expires_at");
      }
      break;
    case korc_kind::endpoint:
      if (!rec.get_string({"description"}).empty()) copy("description", "description");
      copy("enabled", "enabled");
      copy("interface", "interface");
      copy("url", "url");
      copy("serviceID", "service_id");
      copy("region", "region_id");
      break;
    case korc_kind::region:
      copy("name", "id");
      if (!rec.get_string({"description"}).empty()) copy("description", "description");
      copy("parentRegionID", "parent_region_id");
      break;
    case korc_kind::role_assignment:
      text("roleID", rec.get_string({"role", "id"}));
      text("userID", rec.get_string({"user", "id"}));
      text("groupID", rec.get_string({"group", "id"}));
      text("projectID", rec.get_string({"scope", "project", "id"}));
      text("domainID", rec.get_string({"scope", "domain", "id"}));
      break;
    case korc_kind::application_credential: {
      copy("name", "name");
      if (!rec.get_string({"description"}).empty()) copy("description", "description");
      copy("unrestricted", "unrestricted");
      copy("projectID", "project_id");
      copy("expiresAt", "expires_at");
      k8s::json_value roles(rapidjson::kArrayType);
      if (const auto* rs = rec.get({"roles"}); rs && rs->IsArray()) {
        for (const auto& r : rs->GetArray()) {
          k8s::json_value x(rapidjson::kObjectType);
          for (auto [to, from] : {std::pair{"name", "name"}, {"id", "id"}, {"domainID", "domain_id"}}) {
            auto v = k8s::get_string(r, {from});
            if (!v.empty()) k8s::set_member(x, to, k8s::make_string(v, a), a);
          }
          roles.PushBack(std::move(x), a);
        }
      }
      k8s::set_member(out, "roles", std::move(roles), a);
      copy("accessRules", "access_rules");
      break;
    }
  }
  return out;
}

}  // namespace c5c3::sim::world
