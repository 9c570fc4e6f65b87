// memory_identity's collections: create, update, delete, the cascades and the
// Keystone rules named in memory_identity.hpp (the records' JSON is in
// memory_identity_json.cpp).
#include "sim/world/memory_identity_state.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace c5c3::sim::world {
namespace km = keystone_memory;
using state = memory_identity::state;

namespace {

// Fields of a request body's resource ("user": {...}).
struct fields {
  const k8s::json_value* v = nullptr;
  bool has(std::string_view k) const { return v && k8s::member(*v, k); }
  std::string str(std::string_view k, std::string_view fallback = {}) const {
    const auto* m = v ? k8s::member(*v, k) : nullptr;
    return m && m->IsString() ? std::string(k8s::as_string_view(*m)) : std::string(fallback);
  }
  bool boolean(std::string_view k, bool fallback) const {
    auto b = v ? k8s::get_bool(*v, {k}) : std::nullopt;
    return b.value_or(fallback);
  }
};

km::reply forbidden(std::string_view rule) {
  return km::error_reply(403, fmt::format("You are not authorized to perform the requested action: {}.", rule));
}
km::reply not_found(std::string_view what, std::string_view id) {
  return km::error_reply(404, fmt::format("Could not find {}: {}.", what, id));
}
km::reply conflict(std::string_view what, std::string_view name) {
  return km::error_reply(409, fmt::format("Conflict occurred attempting to store {} - Duplicate entry found with name {}.",
                                          what, name));
}

// {"<key>": record}
km::reply one(int code, std::string_view key, const k8s::object& o) {
  k8s::object_builder b;
  b.set({key}, k8s::copy_json(o.json(), b.alloc()));
  return km::json_reply(code, b.doc());
}

std::string as_text(const k8s::json_value& v) {
  if (v.IsString()) return std::string(k8s::as_string_view(v));
  if (v.IsBool()) return v.GetBool() ? "true" : "false";
  return v.IsNull() ? "" : k8s::to_json(v);
}

// Keystone's list filters: every query key that is a field of the record must equal it.
bool matches(const k8s::object& o, const km::request_view& r) {
  for (const auto& [k, v] : r.query) {
    const auto* m = k8s::member(o.json(), k);
    if (m && as_text(*m) != v) return false;
  }
  return true;
}

km::reply many(std::string_view key, const std::vector<k8s::object>& items, const km::request_view& r) {
  k8s::object_builder b;
  k8s::json_value arr(rapidjson::kArrayType);
  for (const auto& o : items) {
    if (matches(o, r)) arr.PushBack(k8s::copy_json(o.json(), b.alloc()), b.alloc());
  }
  b.set({key}, std::move(arr));
  return km::json_reply(200, b.doc());
}

bool name_taken(const state& s, std::string_view collection, const std::string& id, const std::string& name,
                const std::string& domain_id) {
  auto clash = [&](const auto& table) {
    return std::any_of(table.begin(), table.end(), [&](const auto& e) {
      return e.first != id && e.second.name == name && e.second.domain_id == domain_id;
    });
  };
  if (collection == "users") return clash(s.users);
  if (collection == "projects") return clash(s.projects);
  if (collection == "roles") return clash(s.roles);
  return std::any_of(s.domains.begin(), s.domains.end(),
                     [&](const auto& e) { return e.first != id && e.second.name == name; });
}

// ---- one route per collection: create (id empty) or update ----

std::optional<km::reply> write_domain(state& s, const std::string& id, const fields& f) {
  km::domain_rec d = id.empty() ? km::domain_rec{s.new_id(), "", "", true} : s.domains.at(id);
  if (f.has("name")) d.name = f.str("name");
  if (f.has("description")) d.description = f.str("description");
  d.enabled = f.boolean("enabled", d.enabled);
  if (d.name.empty()) return km::error_reply(400, "Invalid input for field 'name': None is not of type 'string'");
  if (name_taken(s, "domains", d.id, d.name, "")) return conflict("domain", d.name);
  s.domains[d.id] = d;
  return one(id.empty() ? 201 : 200, "domain", s.domain_json(d));
}

std::optional<km::reply> write_project(state& s, const std::string& id, const fields& f) {
  km::project_rec p = id.empty() ? km::project_rec{s.new_id(), "", "", f.str("domain_id", "default"), true, {}}
                                 : s.projects.at(id);
  if (f.has("name")) p.name = f.str("name");
  if (f.has("description")) p.description = f.str("description");
  p.enabled = f.boolean("enabled", p.enabled);
  if (const auto* tags = f.v ? k8s::member(*f.v, "tags") : nullptr; tags && tags->IsArray()) {
    p.tags.clear();
    for (const auto& t : tags->GetArray()) p.tags.push_back(as_text(t));
  }
  if (p.name.empty()) return km::error_reply(400, "Invalid input for field 'name': None is not of type 'string'");
  if (!s.domains.contains(p.domain_id)) return not_found("domain", p.domain_id);
  if (name_taken(s, "projects", p.id, p.name, p.domain_id)) return conflict("project", p.name);
  s.projects[p.id] = p;
  return one(id.empty() ? 201 : 200, "project", s.project_json(p));
}

std::optional<km::reply> write_role(state& s, const std::string& id, const fields& f) {
  km::role_rec r = id.empty() ? km::role_rec{s.new_id(), "", "", f.str("domain_id")} : s.roles.at(id);
  if (f.has("name")) r.name = f.str("name");
  if (f.has("description")) r.description = f.str("description");
  if (r.name.empty()) return km::error_reply(400, "Invalid input for field 'name': None is not of type 'string'");
  if (!r.domain_id.empty() && !s.domains.contains(r.domain_id)) return not_found("domain", r.domain_id);
  if (name_taken(s, "roles", r.id, r.name, r.domain_id)) return conflict("role", r.name);
  s.roles[r.id] = r;
  return one(id.empty() ? 201 : 200, "role", s.role_json(r));
}

std::optional<km::reply> write_user(state& s, const std::string& id, const fields& f) {
  km::user_rec u = id.empty() ? km::user_rec{s.new_id(), "", "", f.str("domain_id", "default"), "", "", true}
                              : s.users.at(id);
  if (f.has("name")) u.name = f.str("name");
  if (f.has("description")) u.description = f.str("description");
  if (f.has("default_project_id")) u.default_project_id = f.str("default_project_id");
  u.enabled = f.boolean("enabled", u.enabled);
  if (u.name.empty()) return km::error_reply(400, "Invalid input for field 'name': None is not of type 'string'");
  if (!s.domains.contains(u.domain_id)) return not_found("domain", u.domain_id);
  if (!u.default_project_id.empty() && !s.projects.contains(u.default_project_id))
    return not_found("project", u.default_project_id);
  if (name_taken(s, "users", u.id, u.name, u.domain_id)) return conflict("user", u.name);
  if (f.has("password")) {
    u.password = f.str("password");
    if (!id.empty()) s.revoked_before[u.id] = s.serial + 1;  // the user's tokens are revoked
  }
  s.users[u.id] = u;
  return one(id.empty() ? 201 : 200, "user", s.user_json(u));
}

std::optional<km::reply> write_service(state& s, const std::string& id, const fields& f) {
  km::service_rec v = id.empty() ? km::service_rec{s.new_id(), "", "", "", true} : s.services.at(id);
  if (f.has("name")) v.name = f.str("name");
  if (f.has("type")) v.type = f.str("type");
  if (f.has("description")) v.description = f.str("description");
  v.enabled = f.boolean("enabled", v.enabled);
  if (v.type.empty()) return km::error_reply(400, "Invalid input for field 'type': None is not of type 'string'");
  s.services[v.id] = v;
  return one(id.empty() ? 201 : 200, "service", s.service_json(v));
}

std::optional<km::reply> write_endpoint(state& s, const std::string& id, const fields& f) {
  km::endpoint_rec e = id.empty() ? km::endpoint_rec{s.new_id(), "", "", "", "", "", true} : s.endpoints.at(id);
  for (auto [k, field] : {std::pair{"interface", &e.interface}, {"url", &e.url}, {"service_id", &e.service_id},
                          {"region_id", &e.region_id}, {"description", &e.description}}) {
    if (f.has(k)) *field = f.str(k);
  }
  e.enabled = f.boolean("enabled", e.enabled);
  if (e.interface != "public" && e.interface != "internal" && e.interface != "admin")
    return km::error_reply(400, "Invalid input for field 'interface'");
  if (e.url.empty()) return km::error_reply(400, "Invalid input for field 'url': None is not of type 'string'");
  if (!s.services.contains(e.service_id)) return not_found("service", e.service_id);
  if (!e.region_id.empty() && !s.regions.contains(e.region_id)) return not_found("region", e.region_id);
  s.endpoints[e.id] = e;
  return one(id.empty() ? 201 : 200, "endpoint", s.endpoint_json(e));
}

std::optional<km::reply> write_region(state& s, const std::string& id, const fields& f, bool create) {
  km::region_rec g = create ? km::region_rec{id.empty() ? s.new_id() : id, "", ""} : s.regions.at(id);
  if (create && s.regions.contains(g.id)) return km::error_reply(409, fmt::format("Duplicate ID, {}.", g.id));
  if (f.has("description")) g.description = f.str("description");
  if (f.has("parent_region_id")) g.parent_region_id = f.str("parent_region_id");
  if (!g.parent_region_id.empty() && !s.regions.contains(g.parent_region_id))
    return not_found("region", g.parent_region_id);
  s.regions[g.id] = g;
  return one(create ? 201 : 200, "region", s.region_json(g));
}

std::optional<km::reply> remove(state& s, std::string_view collection, const std::string& id) {
  if (collection == "domains") {
    if (s.domains.at(id).enabled) return forbidden("Cannot delete a domain that is enabled, please disable it first");
    s.domains.erase(id);
  } else if (collection == "projects") {
    s.delete_project(id);
  } else if (collection == "roles") {
    s.delete_role(id);
  } else if (collection == "users") {
    s.delete_user(id);
  } else if (collection == "services") {
    std::erase_if(s.endpoints, [&](const auto& e) { return e.second.service_id == id; });
    s.services.erase(id);
  } else if (collection == "endpoints") {
    s.endpoints.erase(id);
  } else if (collection == "regions") {
    if (std::any_of(s.endpoints.begin(), s.endpoints.end(), [&](const auto& e) { return e.second.region_id == id; }))
      return forbidden("Cannot delete region that has endpoints");
    s.regions.erase(id);
  }
  return km::reply{204, "", ""};
}

bool exists(const state& s, std::string_view c, const std::string& id) {
  if (c == "domains") return s.domains.contains(id);
  if (c == "projects") return s.projects.contains(id);
  if (c == "roles") return s.roles.contains(id);
  if (c == "users") return s.users.contains(id);
  if (c == "services") return s.services.contains(id);
  if (c == "endpoints") return s.endpoints.contains(id);
  if (c == "regions") return s.regions.contains(id);
  return false;
}

std::string singular(std::string_view c) { return std::string(c.substr(0, c.size() - 1)); }

// PUT/HEAD/DELETE /v3/{projects|domains}/{t}/users/{u}/roles/{r}
km::reply grant(state& s, const km::request_view& r) {
  const auto& seg = r.segments;
  bool on_project = seg[1] == "projects";
  if (!(on_project ? s.projects.contains(seg[2]) : s.domains.contains(seg[2])))
    return not_found(on_project ? "project" : "domain", seg[2]);
  if (!s.users.contains(seg[4])) return not_found("user", seg[4]);
  if (!s.roles.contains(seg[6])) return not_found("role", seg[6]);
  km::assignment_rec a{seg[6], seg[4], on_project ? seg[2] : "", on_project ? "" : seg[2]};
  if (r.method == "PUT") {
    s.assignments.insert(a);
  } else if (!s.assignments.contains(a)) {
    return not_found("role assignment", seg[6]);
  } else if (r.method == "DELETE") {
    s.assignments.erase(a);
  }
  return {204, "", ""};
}

// /v3/users/{u}/application_credentials[/{id}]: the token's own user only.
km::reply app_cred_route(state& s, const km::request_view& r) {
  const auto& seg = r.segments;
  const auto& user = seg[2];
  const std::string rule = r.method == "POST"     ? "identity:create_application_credential"
                           : r.method == "DELETE" ? "identity:delete_application_credential"
                           : seg.size() == 5      ? "identity:get_application_credential"
                                                  : "identity:list_application_credentials";
  if (r.token->user_id != user && !(r.method == "GET" && s.is_admin(*r.token))) return forbidden(rule);
  if (!s.users.contains(user)) return not_found("user", user);
  if (seg.size() == 5) {
    auto it = s.app_creds.find(seg[4]);
    if (it == s.app_creds.end() || it->second.user_id != user) return not_found("Application Credential", seg[4]);
    if (r.method == "DELETE") {
      s.app_creds.erase(it);
      return {204, "", ""};
    }
    return one(200, "application_credential", s.app_cred_json(it->second));
  }
  if (r.method == "GET") {
    std::vector<k8s::object> mine;
    for (const auto& [_, c] : s.app_creds)
      if (c.user_id == user) mine.push_back(s.app_cred_json(c));
    return many("application_credentials", mine, r);
  }
  const auto& t = *r.token;
  if (!t.app_cred_id.empty() && !s.app_creds.at(t.app_cred_id).unrestricted) return forbidden(rule);
  if (t.project_id.empty()) return km::error_reply(400, "Application credentials need a project-scoped token.");
  fields f{r.body ? k8s::member(*r.body, "application_credential") : nullptr};
  km::app_cred_rec c{s.new_id(), f.str("name"), f.str("description"), user, t.project_id, f.str("secret"),
                     f.boolean("unrestricted", false), {}, std::nullopt, "[]"};
  if (c.name.empty()) return km::error_reply(400, "Invalid input for field 'name': None is not of type 'string'");
  if (c.secret.empty()) c.secret = s.random(43);
  if (std::any_of(s.app_creds.begin(), s.app_creds.end(),
                  [&](const auto& e) { return e.second.user_id == user && e.second.name == c.name; }))
    return km::error_reply(409, "Duplicate Entry: An application credential with that name already exists.");
  if (f.has("expires_at") && !f.str("expires_at").empty()) {
    c.expires_at = k8s::parse_rfc3339(f.str("expires_at"));
    if (!c.expires_at) return km::error_reply(400, "Invalid input for field 'expires_at'");
    if (*c.expires_at <= s.clock()) return km::error_reply(400, "The expiration time is in the past.");
  }
  if (const auto* ar = k8s::member(*f.v, "access_rules"); ar && ar->IsArray()) c.access_rules = k8s::to_json(*ar);
  const auto* roles = k8s::member(*f.v, "roles");
  if (roles && roles->IsArray() && !roles->Empty()) {
    for (const auto& role : roles->GetArray()) {
      std::string id(k8s::get_string(role, {"id"}));
      auto name = k8s::get_string(role, {"name"});
      for (const auto& [rid, rr] : s.roles)
        if (id.empty() && rr.name == name) id = rid;
      if (std::find(t.role_ids.begin(), t.role_ids.end(), id) == t.role_ids.end())
        return km::error_reply(403, fmt::format("Invalid application credential: the user does not hold role {} on the project.",
                                                id.empty() ? std::string(name) : id));
      c.role_ids.push_back(id);
    }
  } else {
    c.role_ids = t.role_ids;
  }
  s.app_creds[c.id] = c;
  auto shown = s.app_cred_json(c).edit();
  shown.set_string({"secret"}, c.secret);  // shown once
  return one(201, "application_credential", std::move(shown).freeze());
}

}  // namespace

void state::delete_user(const std::string& id) {
  std::erase_if(assignments, [&](const km::assignment_rec& a) { return a.user_id == id; });
  std::erase_if(app_creds, [&](const auto& e) { return e.second.user_id == id; });
  users.erase(id);
}

void state::delete_role(const std::string& id) {
  std::erase_if(assignments, [&](const km::assignment_rec& a) { return a.role_id == id; });
  std::erase_if(app_creds, [&](const auto& e) {
    return std::find(e.second.role_ids.begin(), e.second.role_ids.end(), id) != e.second.role_ids.end();
  });
  for (auto it = implied.begin(); it != implied.end();) it = (it->first == id || it->second == id) ? implied.erase(it) : std::next(it);
  roles.erase(id);
}

void state::delete_project(const std::string& id) {
  std::erase_if(assignments, [&](const km::assignment_rec& a) { return a.project_id == id; });
  projects.erase(id);
}

std::optional<km::reply> state::route(const km::request_view& r) {
  const auto& seg = r.segments;
  if (seg.empty() || seg[0] != "v3") return std::nullopt;
  const bool admin = is_admin(*r.token);
  if (seg.size() >= 4 && seg[1] == "users" && seg[3] == "application_credentials" && seg.size() <= 5)
    return app_cred_route(*this, r);
  if (seg.size() == 7 && (seg[1] == "projects" || seg[1] == "domains") && seg[3] == "users" && seg[5] == "roles") {
    if (!admin) return forbidden(r.method == "PUT" ? "identity:create_grant" : r.method == "DELETE" ? "identity:revoke_grant"
                                                                                                   : "identity:check_grant");
    return grant(*this, r);
  }
  if (seg.size() == 2 && seg[1] == "role_assignments" && r.method == "GET") {
    if (!admin) return forbidden("identity:list_role_assignments");
    std::vector<k8s::object> out;
    for (const auto& a : assignments) {
      auto want = [&](const char* k, const std::string& v) { return r.query_value(k).empty() || r.query_value(k) == v; };
      if (want("role.id", a.role_id) && want("user.id", a.user_id) && want("scope.project.id", a.project_id) &&
          want("scope.domain.id", a.domain_id))
        out.push_back(assignment_json(a));
    }
    k8s::object_builder b;
    k8s::json_value arr(rapidjson::kArrayType);
    for (const auto& o : out) arr.PushBack(k8s::copy_json(o.json(), b.alloc()), b.alloc());
    b.set({"role_assignments"}, std::move(arr));
    return km::json_reply(200, b.doc());
  }
  static const std::vector<std::string> collections{"domains", "projects", "roles",  "users",
                                                    "services", "endpoints", "regions"};
  if (seg.size() < 2 || seg.size() > 3 || std::find(collections.begin(), collections.end(), seg[1]) == collections.end())
    return std::nullopt;
  const auto& c = seg[1];
  const auto one_name = singular(c);
  const std::string verb = r.method == "GET" ? (seg.size() == 2 ? "list" : "get")
                           : r.method == "POST" ? "create"
                           : r.method == "DELETE" ? "delete"
                                                  : "update";
  if (!admin) return forbidden(fmt::format("identity:{}_{}{}", verb, one_name, verb == "list" ? "s" : ""));
  fields f{r.body ? k8s::member(*r.body, one_name) : nullptr};
  if (seg.size() == 2) {
    if (r.method == "GET") {
      auto all = collection_json(c);
      // Without domain_id only the global roles are listed.
      if (c == "roles" && r.query_value("domain_id").empty())
        std::erase_if(all, [](const k8s::object& o) { return !o.get_string({"domain_id"}).empty(); });
      return many(c, all, r);
    }
    if (r.method != "POST") return km::error_reply(405, "The method is not allowed for the requested URL.");
    if (!f.v) return km::error_reply(400, fmt::format("Expecting to find {} in request body.", one_name));
    if (c == "domains") return write_domain(*this, "", f);
    if (c == "projects") return write_project(*this, "", f);
    if (c == "roles") return write_role(*this, "", f);
    if (c == "users") return write_user(*this, "", f);
    if (c == "services") return write_service(*this, "", f);
    if (c == "endpoints") return write_endpoint(*this, "", f);
    return write_region(*this, f.str("id"), f, true);
  }
  const auto& id = seg[2];
  if (c == "regions" && r.method == "PUT") return write_region(*this, id, f, true);
  if (!exists(*this, c, id)) return not_found(one_name, id);
  if (r.method == "DELETE") return remove(*this, c, id);
  if (r.method == "GET") {
    for (auto& o : collection_json(c))
      if (o.get_string({"id"}) == id) return one(200, one_name, o);
  }
  if (r.method != "PATCH") return km::error_reply(405, "The method is not allowed for the requested URL.");
  if (!f.v) return km::error_reply(400, fmt::format("Expecting to find {} in request body.", one_name));
  if (c == "domains") return write_domain(*this, id, f);
  if (c == "projects") return write_project(*this, id, f);
  if (c == "roles") return write_role(*this, id, f);
  if (c == "users") return write_user(*this, id, f);
  if (c == "services") return write_service(*this, id, f);
  if (c == "endpoints") return write_endpoint(*this, id, f);
  return write_region(*this, id, f, false);
}

}  // namespace c5c3::sim::world
