// memory_identity: bootstrap, faults, request parsing, tokens and their
// validation; the collections are in memory_identity_routes.cpp.
#include "sim/world/memory_identity_state.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace c5c3::sim::world {
namespace km = keystone_memory;

namespace keystone_memory {

std::string request_view::query_value(const std::string& k) const {
  auto it = query.find(k);
  return it == query.end() ? std::string() : it->second;
}

reply error_reply(int code, std::string_view message) {
  static const std::map<int, std::string_view> titles{
      {400, "Bad Request"}, {401, "Unauthorized"},  {403, "Forbidden"},        {404, "Not Found"},
      {409, "Conflict"},    {429, "Too Many Requests"}, {500, "Internal Server Error"}, {503, "Service Unavailable"}};
  auto t = titles.find(code);
  k8s::object_builder b;
  b.set_int({"error", "code"}, code);
  b.set_string({"error", "message"}, message);
  b.set_string({"error", "title"}, t == titles.end() ? "Error" : t->second);
  return {code, k8s::to_json(b.doc()), ""};
}

reply json_reply(int code, const k8s::json_value& v) { return {code, k8s::to_json(v), ""}; }

}  // namespace keystone_memory

namespace {

constexpr std::string_view unauthorized = "The request you have made requires authentication.";

km::request_view parse(const identity_request& r) {
  km::request_view v;
  v.method = r.method;
  std::string_view p = r.path;
  std::string_view q;
  if (auto qm = p.find('?'); qm != std::string_view::npos) {
    q = p.substr(qm + 1);
    p = p.substr(0, qm);
  }
  while (!p.empty()) {
    if (p.front() == '/') {
      p.remove_prefix(1);
      continue;
    }
    auto slash = p.find('/');
    v.segments.push_back(percent_decode(p.substr(0, slash)));
    p = slash == std::string_view::npos ? std::string_view() : p.substr(slash);
  }
  while (!q.empty()) {
    auto amp = q.find('&');
    auto pair = q.substr(0, amp);
    auto eq = pair.find('=');
    v.query[percent_decode(pair.substr(0, eq))] = eq == std::string_view::npos ? "" : percent_decode(pair.substr(eq + 1));
    q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
  }
  if (!r.body.empty()) {
    v.body = k8s::parse_json(r.body);
    v.bad_body = !v.body || !v.body->IsObject();
  }
  return v;
}

// The user a password identity names: by id, or by name in a domain given by id or name.
const km::user_rec* find_user(const memory_identity::state& s, const k8s::json_value& user) {
  auto id = k8s::get_string(user, {"id"});
  if (!id.empty()) {
    auto it = s.users.find(std::string(id));
    return it == s.users.end() ? nullptr : &it->second;
  }
  auto name = k8s::get_string(user, {"name"});
  auto domain_id = k8s::get_string(user, {"domain", "id"});
  auto domain_name = k8s::get_string(user, {"domain", "name"});
  for (const auto& [_, u] : s.users) {
    if (u.name != name) continue;
    auto d = s.domains.find(u.domain_id);
    if (!domain_id.empty() ? u.domain_id == domain_id : (d != s.domains.end() && d->second.name == domain_name))
      return &u;
  }
  return nullptr;
}

const km::project_rec* find_project(const memory_identity::state& s, const k8s::json_value& p) {
  auto id = k8s::get_string(p, {"id"});
  for (const auto& [_, pr] : s.projects) {
    if (!id.empty()) {
      if (pr.id == id) return &pr;
      continue;
    }
    auto d = s.domains.find(pr.domain_id);
    auto domain_id = k8s::get_string(p, {"domain", "id"});
    if (pr.name == k8s::get_string(p, {"name"}) &&
        (!domain_id.empty() ? pr.domain_id == domain_id
                            : (d != s.domains.end() && d->second.name == k8s::get_string(p, {"domain", "name"}))))
      return &pr;
  }
  return nullptr;
}

bool app_cred_usable(const memory_identity::state& s, const km::app_cred_rec& c, k8s::time_point now) {
  if (c.expires_at && *c.expires_at <= now) return false;
  auto u = s.users.find(c.user_id);
  if (u == s.users.end() || !u->second.enabled) return false;
  auto held = s.effective_roles(c.user_id, c.project_id);
  return std::all_of(c.role_ids.begin(), c.role_ids.end(),
                     [&](const std::string& r) { return std::find(held.begin(), held.end(), r) != held.end(); });
}

km::reply issue_token(memory_identity::state& s, const km::request_view& r) {
  if (!r.body) return km::error_reply(400, "Expecting to find auth in request body.");
  const auto* identity = k8s::find(*r.body, {"auth", "identity"});
  if (!identity) return km::error_reply(400, "Expecting to find identity in auth.");
  km::token_rec t;
  auto now = s.clock();
  if (const auto* ac = k8s::member(*identity, "application_credential")) {
    auto id = k8s::get_string(*ac, {"id"});
    auto it = s.app_creds.find(std::string(id));
    if (it == s.app_creds.end()) return km::error_reply(404, fmt::format("Could not find Application Credential: {}.", id));
    const auto& c = it->second;
    if (c.secret != k8s::get_string(*ac, {"secret"}) || !app_cred_usable(s, c, now))
      return km::error_reply(401, unauthorized);
    t.user_id = c.user_id;
    t.project_id = c.project_id;
    t.app_cred_id = c.id;
    t.role_ids = c.role_ids;
    t.methods = {"application_credential"};
  } else if (const auto* pw = k8s::find(*identity, {"password", "user"})) {
    const auto* u = find_user(s, *pw);
    if (!u || !u->enabled || u->password.empty() || u->password != k8s::get_string(*pw, {"password"}))
      return km::error_reply(401, unauthorized);
    t.user_id = u->id;
    t.methods = {"password"};
    if (const auto* scope = k8s::find(*r.body, {"auth", "scope", "project"})) {
      const auto* p = find_project(s, *scope);
      if (!p || !p->enabled) return km::error_reply(401, unauthorized);
      t.role_ids = s.effective_roles(u->id, p->id);
      if (t.role_ids.empty()) return km::error_reply(401, unauthorized);
      t.project_id = p->id;
    }
  } else {
    return km::error_reply(400, "Expecting to find password or application_credential in identity.");
  }
  t.issued = now;
  t.expires = now + s.opts.token_lifetime;
  t.serial = ++s.serial;
  auto id = "gAAAAA" + s.new_id();
  const auto& user = s.users.at(t.user_id);
  k8s::object_builder b;
  b.set_string({"token", "expires_at"}, k8s::format_rfc3339(t.expires));
  b.set_string({"token", "issued_at"}, k8s::format_rfc3339(t.issued));
  b.set_string({"token", "user", "id"}, user.id);
  b.set_string({"token", "user", "name"}, user.name);
  b.set_string({"token", "user", "domain", "id"}, user.domain_id);
  k8s::json_value methods(rapidjson::kArrayType), roles(rapidjson::kArrayType);
  for (const auto& m : t.methods) methods.PushBack(k8s::make_string(m, b.alloc()), b.alloc());
  for (const auto& rid : t.role_ids) {
    k8s::json_value role(rapidjson::kObjectType);
    k8s::set_member(role, "id", k8s::make_string(rid, b.alloc()), b.alloc());
    k8s::set_member(role, "name", k8s::make_string(s.roles.at(rid).name, b.alloc()), b.alloc());
    roles.PushBack(std::move(role), b.alloc());
  }
  b.set({"token", "methods"}, std::move(methods));
  if (!t.project_id.empty()) {
    const auto& p = s.projects.at(t.project_id);
    b.set_string({"token", "project", "id"}, p.id);
    b.set_string({"token", "project", "name"}, p.name);
    b.set_string({"token", "project", "domain", "id"}, p.domain_id);
    b.set({"token", "roles"}, std::move(roles));
  }
  if (!t.app_cred_id.empty()) {
    b.set_string({"token", "application_credential", "id"}, t.app_cred_id);
    b.set_bool({"token", "application_credential", "restricted"}, !s.app_creds.at(t.app_cred_id).unrestricted);
  }
  s.tokens[id] = std::move(t);
  auto rep = km::json_reply(201, b.doc());
  rep.subject_token = id;
  return rep;
}

const km::token_rec* valid_token(const memory_identity::state& s, const std::string& id) {
  auto it = s.tokens.find(id);
  if (it == s.tokens.end()) return nullptr;
  const auto& t = it->second;
  auto now = s.clock();
  if (t.expires <= now) return nullptr;
  auto u = s.users.find(t.user_id);
  if (u == s.users.end() || !u->second.enabled) return nullptr;
  if (auto rb = s.revoked_before.find(t.user_id); rb != s.revoked_before.end() && t.serial < rb->second) return nullptr;
  if (!t.app_cred_id.empty()) {
    auto c = s.app_creds.find(t.app_cred_id);
    if (c == s.app_creds.end() || !app_cred_usable(s, c->second, now)) return nullptr;
  }
  if (!t.project_id.empty() && !s.projects.contains(t.project_id)) return nullptr;
  return &t;
}

}  // namespace

std::string memory_identity::state::new_id() {
  // 24 random hex digits and a counter: unique even with a test's predictable random.
  static constexpr std::string_view hex = "0123456789abcdef";
  std::string id;
  for (unsigned char c : random(24)) id += hex[c % 16];
  return id + fmt::format("{:08x}", ++ids);
}

std::vector<std::string> memory_identity::state::effective_roles(const std::string& user,
                                                                 const std::string& project) const {
  std::vector<std::string> out;
  for (const auto& a : assignments) {
    if (a.user_id != user || a.project_id != project || project.empty()) continue;
    for (std::string r = a.role_id; !r.empty();) {
      if (std::find(out.begin(), out.end(), r) != out.end()) break;
      out.push_back(r);
      auto it = implied.find(r);
      r = it == implied.end() ? std::string() : it->second;
    }
  }
  return out;
}

bool memory_identity::state::is_admin(const km::token_rec& t) const {
  return std::any_of(t.role_ids.begin(), t.role_ids.end(), [&](const std::string& r) {
    auto it = roles.find(r);
    return it != roles.end() && it->second.name == "admin";
  });
}

memory_identity::memory_identity(memory_identity_options opts, std::function<k8s::time_point()> clock,
                                 random_source random)
    : s_(std::make_unique<state>()) {
  auto& s = *s_;
  s.opts = std::move(opts);
  s.clock = std::move(clock);
  s.random = std::move(random);
  if (s.opts.admin_password.empty()) s.opts.admin_password = s.random(32);
  // What `keystone-manage bootstrap` creates.
  s.domains["default"] = {"default", "Default", "The default domain", true};
  auto project = s.new_id(), user = s.new_id();
  s.projects[project] = {project, s.opts.admin_project, "Bootstrap project for initializing the cloud.", "default", true, {}};
  s.users[user] = {user, s.opts.admin_user, "", "default", "", s.opts.admin_password, true};
  std::string ids[3];
  const char* names[3] = {"admin", "member", "reader"};
  for (int i = 0; i < 3; ++i) {
    ids[i] = s.new_id();
    s.roles[ids[i]] = {ids[i], names[i], "", ""};
  }
  s.implied[ids[0]] = ids[1];
  s.implied[ids[1]] = ids[2];
  s.assignments.insert({ids[0], user, project, ""});
  s.regions[s.opts.region] = {s.opts.region, "", ""};
  auto service = s.new_id();
  s.services[service] = {service, "keystone", "identity", "", true};
  for (const char* iface : {"public", "internal", "admin"}) {
    auto e = s.new_id();
    s.endpoints[e] = {e, iface, s.opts.identity_url, service, s.opts.region, "", true};
  }
}

memory_identity::~memory_identity() = default;

identity_reply memory_identity::send(const identity_request& req) {
  std::lock_guard lock(s_->mu);
  auto& s = *s_;
  ++s.requests;
  if (s.down) return {0, "", "", "dial tcp 127.0.0.1:5000: connect: connection refused"};
  if (s.fail_times > 0) {
    --s.fail_times;
    auto r = km::error_reply(s.fail_status, "injected failure");
    return {r.status, r.body, "", ""};
  }
  auto v = parse(req);
  if (v.bad_body) {
    auto r = km::error_reply(400, "The request body is not valid JSON.");
    return {r.status, r.body, "", ""};
  }
  km::reply r;
  if (v.segments == std::vector<std::string>{"v3", "auth", "tokens"} && v.method == "POST") {
    r = issue_token(s, v);
  } else if (!(v.token = valid_token(s, req.token))) {
    r = km::error_reply(401, unauthorized);
  } else if (auto routed = s.route(v)) {
    r = std::move(*routed);
  } else {
    r = km::error_reply(404, "The resource could not be found.");
  }
  return {r.status, r.body, r.subject_token, ""};
}

std::string memory_identity::admin_password() const {
  std::lock_guard lock(s_->mu);
  return s_->opts.admin_password;
}

void memory_identity::set_down(bool down) {
  std::lock_guard lock(s_->mu);
  s_->down = down;
}

void memory_identity::fail_next(int status, int times) {
  std::lock_guard lock(s_->mu);
  s_->fail_status = status;
  s_->fail_times = times;
}

std::vector<k8s::object> memory_identity::list(std::string_view collection) const {
  std::lock_guard lock(s_->mu);
  return s_->collection_json(collection);
}

std::vector<k8s::object> memory_identity::named(std::string_view collection, std::string_view name) const {
  std::vector<k8s::object> out;
  for (auto& o : list(collection)) {
    if (o.get_string({collection == "regions" ? "id" : "name"}) == name) out.push_back(std::move(o));
  }
  return out;
}

std::size_t memory_identity::requests() const {
  std::lock_guard lock(s_->mu);
  return s_->requests;
}

}  // namespace c5c3::sim::world
