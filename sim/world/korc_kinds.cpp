// The kind table, references and lookups; creates, updates and status are in
// korc_calls.cpp.
#include "sim/world/korc_kinds.hpp"

#include <fmt/format.h>

namespace c5c3::sim::world {
namespace {

std::string_view res(const k8s::object& o, std::string_view field) { return o.get_string({"spec", "resource", field}); }
std::string_view flt(const k8s::object& o, std::string_view field) {
  return o.get_string({"spec", "import", "filter", field});
}

void add(std::vector<korc_ref>& out, std::string_view kind, std::string_view name, std::string_view field, bool guard) {
  if (!name.empty()) out.push_back({std::string(kind), std::string(name), std::string(field), guard});
}

// The ref fields of a kind: field, referenced kind.
const std::vector<std::pair<std::string_view, std::string_view>>& ref_fields(korc_kind k) {
  static const std::vector<std::pair<std::string_view, std::string_view>> none, domain{{"domainRef", "Domain"}},
      user{{"domainRef", "Domain"}, {"defaultProjectRef", "Project"}},
      assignment{{"roleRef", "Role"}, {"userRef", "User"}, {"groupRef", "Group"}, {"projectRef", "Project"},
                 {"domainRef", "Domain"}},
      app_cred{{"userRef", "User"}}, endpoint{{"serviceRef", "Service"}, {"regionRef", "Region"}},
      region{{"parentRegionRef", "Region"}};
  switch (k) {
    case korc_kind::project:
    case korc_kind::role: return domain;
    case korc_kind::user: return user;
    case korc_kind::role_assignment: return assignment;
    case korc_kind::application_credential: return app_cred;
    case korc_kind::endpoint: return endpoint;
    case korc_kind::region: return region;
    default: return none;
  }
}

std::string path_of(std::string_view base, const std::vector<std::pair<std::string, std::string>>& query) {
  std::string p(base);
  char sep = '?';
  for (const auto& [k, v] : query) {
    if (v.empty()) continue;
    p += sep + percent_encode(k) + "=" + percent_encode(v);
    sep = '&';
  }
  return p;
}

std::string first(const korc_resolved& r, const std::string& key) {
  auto it = r.find(key);
  return it == r.end() || it->second.empty() ? std::string() : it->second.front();
}

std::string text_at(const k8s::json_value& v, const std::string& dotted) {
  const k8s::json_value* cur = &v;
  std::string_view rest = dotted;
  while (cur && !rest.empty()) {
    auto dot = rest.find('.');
    cur = k8s::member(*cur, rest.substr(0, dot));
    rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
  }
  if (!cur || cur->IsNull()) return {};
  if (cur->IsString()) return std::string(k8s::as_string_view(*cur));
  if (cur->IsBool()) return cur->GetBool() ? "true" : "false";
  return k8s::to_json(*cur);
}

using pairs = std::vector<std::pair<std::string, std::string>>;

// A list call filtered on `server` (sent as the query) and on `client` too
// (checked on the answer only: Keystone has no such filter).
korc_lookup listing(std::string base, pairs server, pairs client = {}) {
  std::erase_if(server, [](const auto& e) { return e.second.empty(); });
  std::erase_if(client, [](const auto& e) { return e.second.empty(); });
  korc_lookup l{{"GET", path_of(base, server), ""}, server};
  for (auto& c : client) l.equal.push_back(std::move(c));
  return l;
}

}  // namespace

const std::vector<korc_kind_info>& korc_kinds() {
  static const std::vector<korc_kind_info> kinds{
      {korc_kind::domain, "Domain", "domain", "domains", "domain", true},
      {korc_kind::project, "Project", "project", "projects", "project", true},
      {korc_kind::role, "Role", "role", "roles", "role", true},
      {korc_kind::user, "User", "user", "users", "user", true},
      {korc_kind::role_assignment, "RoleAssignment", "roleassignment", "role_assignments", "role_assignment", false},
      {korc_kind::application_credential, "ApplicationCredential", "applicationcredential", "application_credentials",
       "application_credential", true},
      {korc_kind::service, "Service", "service", "services", "service", true},
      {korc_kind::endpoint, "Endpoint", "endpoint", "endpoints", "endpoint", true},
      {korc_kind::region, "Region", "region", "regions", "region", true},
  };
  return kinds;
}

std::optional<korc_kind_info> korc_kind_of(std::string_view k8s_kind) {
  for (const auto& k : korc_kinds())
    if (k.k8s_kind == k8s_kind) return k;
  return std::nullopt;
}

const korc_kind_info& korc_info(korc_kind k) { return korc_kinds()[static_cast<std::size_t>(k)]; }

k8s::gvk korc_gvk(korc_kind k) {
  return {std::string(korc_group), std::string(korc_version), std::string(korc_info(k).k8s_kind)};
}

std::string korc_finalizer(korc_kind k) { return fmt::format("{}/{}", korc_group, korc_info(k).controller); }

std::vector<korc_ref> resource_refs(const k8s::object& o) {
  std::vector<korc_ref> out;
  auto info = korc_kind_of(o.kind());
  if (!info) return out;
  for (const auto& [field, kind] : ref_fields(info->kind)) add(out, kind, res(o, field), field, true);
  if (info->kind == korc_kind::user) add(out, "Secret", res(o, "passwordRef"), "passwordRef", false);
  if (info->kind == korc_kind::application_credential) {
    if (const auto* roles = o.get({"spec", "resource", "roleRefs"}); roles && roles->IsArray())
      for (const auto& r : roles->GetArray())
        if (r.IsString()) add(out, "Role", k8s::as_string_view(r), "roleRefs", true);
    if (const auto* rules = o.get({"spec", "resource", "accessRules"}); rules && rules->IsArray())
      for (const auto& r : rules->GetArray()) add(out, "Service", k8s::get_string(r, {"serviceRef"}), "accessRules", true);
    add(out, "Secret", res(o, "secretRef"), "secretRef", false);
  }
  add(out, "Secret", o.get_string({"spec", "cloudCredentialsRef", "secretName"}), "cloudCredentialsRef", true);
  return out;
}

std::vector<korc_ref> filter_refs(const k8s::object& o) {
  std::vector<korc_ref> out;
  auto info = korc_kind_of(o.kind());
  if (!info) return out;
  for (const auto& [field, kind] : ref_fields(info->kind)) add(out, kind, flt(o, field), "filter." + std::string(field), false);
  return out;
}

std::vector<korc_ref> all_refs(const k8s::object& o) {
  auto out = resource_refs(o);
  for (auto& r : filter_refs(o)) out.push_back(std::move(r));
  return out;
}

bool guards(const k8s::object& o, std::string_view kind, std::string_view name) {
  for (const auto& r : resource_refs(o))
    if (r.guard && r.kind == kind && r.name == name) return true;
  return false;
}

std::string korc_resource_name(const k8s::object& o) {
  auto n = res(o, "name");
  return std::string(n.empty() ? o.name() : n);
}

identity_call korc_get_call(korc_kind k, std::string_view id, const korc_resolved& r) {
  const auto& info = korc_info(k);
  if (k == korc_kind::application_credential) {
    auto user = first(r, "userRef");
    if (user.empty()) user = first(r, "filter.userRef");
    return {"GET", fmt::format("/v3/users/{}/application_credentials/{}", percent_encode(user), percent_encode(id)), ""};
  }
  return {"GET", fmt::format("/v3/{}/{}", info.collection, percent_encode(id)), ""};
}

korc_lookup korc_import_lookup(const k8s::object& o, const korc_resolved& r) {
  auto info = korc_kind_of(o.kind());
  auto f = [&](std::string_view field) { return std::string(flt(o, field)); };
  auto enabled = o.get({"spec", "import", "filter", "enabled"});
  switch (info ? info->kind : korc_kind::domain) {
    case korc_kind::domain:
      return listing("/v3/domains",
                     {{"name", f("name")}, {"enabled", enabled && enabled->IsBool() ? (enabled->GetBool() ? "true" : "false") : ""}});
    case korc_kind::project:
    case korc_kind::role:
    case korc_kind::user:
      return listing("/v3/" + std::string(info->collection), {{"name", f("name")}, {"domain_id", first(r, "filter.domainRef")}});
    case korc_kind::service: return listing("/v3/services", {{"type", f("type")}, {"name", f("name")}});
    case korc_kind::endpoint:
      return listing("/v3/endpoints",
                     {{"interface", f("interface")}, {"service_id", first(r, "filter.serviceRef")},
                      {"region_id", first(r, "filter.regionRef")}},
                     {{"url", f("url")}});
    case korc_kind::region: return listing("/v3/regions", {}, {{"id", f("name")}, {"description", f("description")}});
    case korc_kind::application_credential:
      return listing(fmt::format("/v3/users/{}/application_credentials", percent_encode(first(r, "filter.userRef"))),
                     {{"name", f("name")}}, {{"description", f("description")}});
    case korc_kind::role_assignment:
      return listing("/v3/role_assignments",
                     {{"role.id", first(r, "filter.roleRef")}, {"user.id", first(r, "filter.userRef")},
                      {"group.id", first(r, "filter.groupRef")}, {"scope.project.id", first(r, "filter.projectRef")},
                      {"scope.domain.id", first(r, "filter.domainRef")}});
  }
  return {};
}

std::optional<korc_lookup> korc_adoption_lookup(const k8s::object& o, const korc_resolved& r) {
  auto info = korc_kind_of(o.kind());
  if (!info) return std::nullopt;
  const auto name = korc_resource_name(o);
  auto need = [&](std::string_view field) { return !res(o, field).empty() && first(r, std::string(field)).empty(); };
  switch (info->kind) {
    case korc_kind::domain: return listing("/v3/domains", {{"name", name}});
    case korc_kind::project:
    case korc_kind::role:
    case korc_kind::user:
      if (need("domainRef")) return std::nullopt;
      return listing("/v3/" + std::string(info->collection), {{"name", name}, {"domain_id", first(r, "domainRef")}});
    case korc_kind::service: return listing("/v3/services", {{"type", std::string(res(o, "type"))}, {"name", name}});
    case korc_kind::endpoint:
      if (need("serviceRef") || need("regionRef")) return std::nullopt;
      return listing("/v3/endpoints",
                     {{"interface", std::string(res(o, "interface"))}, {"service_id", first(r, "serviceRef")},
                      {"region_id", first(r, "regionRef")}},
                     {{"url", std::string(res(o, "url"))}});
    case korc_kind::region: return listing("/v3/regions", {}, {{"id", name}});
    case korc_kind::application_credential:
      if (need("userRef")) return std::nullopt;
      return listing(fmt::format("/v3/users/{}/application_credentials", percent_encode(first(r, "userRef"))),
                     {{"name", name}}, {{"description", std::string(res(o, "description"))}});
    case korc_kind::role_assignment:
      for (auto field : {"roleRef", "userRef", "groupRef", "projectRef", "domainRef"})
        if (need(field)) return std::nullopt;
      return listing("/v3/role_assignments",
                     {{"role.id", first(r, "roleRef")}, {"user.id", first(r, "userRef")}, {"group.id", first(r, "groupRef")},
                      {"scope.project.id", first(r, "projectRef")}, {"scope.domain.id", first(r, "domainRef")}});
  }
  return std::nullopt;
}

std::vector<k8s::object> korc_matches(korc_kind k, const k8s::object& answer, const korc_lookup& l) {
  std::vector<k8s::object> out;
  const auto* items = answer ? answer.get({korc_info(k).collection}) : nullptr;
  if (!items || !items->IsArray()) return out;
  for (const auto& item : items->GetArray()) {
    bool ok = true;
    for (const auto& [path, want] : l.equal) ok = ok && text_at(item, path) == want;
    if (ok) out.emplace_back(k8s::copy_document(item));
  }
  return out;
}

k8s::object korc_record(korc_kind k, const k8s::object& answer) {
  if (!answer) return {};
  const auto* v = answer.get({korc_info(k).singular});
  return v && v->IsObject() ? k8s::object(k8s::copy_document(*v)) : k8s::object();
}

std::string korc_record_id(korc_kind k, const k8s::object& record) {
  return korc_info(k).has_id ? std::string(record.get_string({"id"})) : std::string();
}

}  // namespace c5c3::sim::world
