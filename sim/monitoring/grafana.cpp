// The Grafana stand-in: routing, authentication, orgs, API keys, state.
// Dashboards and folders: grafana_dashboards.cpp; datasources: grafana_datasources.cpp.
#include "sim/monitoring/grafana.hpp"

#include "k8s/base64.hpp"
#include "k8s/time.hpp"
#include "sim/apiserver/apiserver_impl.hpp"  // split_path

#include <fmt/format.h>

#include <cctype>

namespace c5c3::sim::monitoring {

using k8s::json_value;

namespace {

k8s::http_response message(int status, std::string_view text) { return grafana_message(status, text); }

json_value address(k8s::json_allocator& a) {
  json_value v(rapidjson::kObjectType);
  for (const char* k : {"address1", "address2", "city", "zipCode", "state", "country"})
    v.AddMember(json_value(k, a), k8s::json_value("", a), a);
  return v;
}

}  // namespace

k8s::http_response grafana_message(int status, std::string_view text, std::string_view status_word) {
  k8s::json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  d.AddMember("message", k8s::make_string(text, a), a);
  if (!status_word.empty()) d.AddMember("status", k8s::make_string(status_word, a), a);
  return json_response(status, d);
}

std::string grafana_slug(std::string_view title) {
  std::string out;
  bool dash = false;
  for (unsigned char c : title) {
    if (std::isalnum(c)) {
      if (dash && !out.empty()) out.push_back('-');
      out.push_back(static_cast<char>(std::tolower(c)));
      dash = false;
    } else {
      dash = true;
    }
  }
  return out;
}

grafana_api::grafana_api(grafana_options o) : opts_(std::move(o)) {
  add_org("Main Org.");
  for (auto& k : opts_.api_keys) add_api_key(k.key, k.org_id, k.role);
}

std::int64_t grafana_api::add_org(const std::string& name) {
  for (auto& [id, n] : orgs_)
    if (n == name) return id;
  auto id = next_org_++;
  orgs_[id] = name;
  return id;
}

void grafana_api::add_api_key(const std::string& key, std::int64_t org_id, const std::string& role) {
  keys_[key] = {key, org_id, role};
}

std::string grafana_api::new_uid() {
  // Grafana's short UIDs are 14 characters of [a-z0-9]; these are unique per stand-in.
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::uint64_t n = ++uid_counter_ * 2654435761u + 97;
  std::string uid = "d";
  for (int i = 0; i < 13; ++i) {
    uid.push_back(alphabet[n % 36]);
    n /= 36;
    if (n == 0) n = uid_counter_ * 31 + static_cast<std::uint64_t>(i) + 7;
  }
  return uid;
}

std::string grafana_api::now() const { return k8s::format_rfc3339(k8s::clock::now()); }

k8s::http_response grafana_api::error(int status, const std::string& text) const { return message(status, text); }

k8s::http_response grafana_api::handle(const k8s::http_request& req, const std::string&) {
  auto p = sim::split_path(req.path);
  if (p.empty() || p[0] != "api") return message(404, "Not found");
  if (p.size() == 2 && p[1] == "health") {
    k8s::json_document d(rapidjson::kObjectType);
    auto& a = d.GetAllocator();
    d.AddMember("commit", "c5c3sim", a);
    d.AddMember("database", "ok", a);
    d.AddMember("version", "11.0.0-c5c3sim", a);
    return json_response(200, d);
  }
  // Authentication.
  caller who;
  auto authz = req.header("Authorization");
  if (authz.rfind("Bearer ", 0) == 0) {
    auto it = keys_.find(std::string(authz.substr(7)));
    if (it == keys_.end()) return message(401, "Invalid API key");
    who.org_id = it->second.org_id;
    who.role = it->second.role;
  } else if (authz.rfind("Basic ", 0) == 0) {
    auto raw = k8s::base64_decode(authz.substr(6)).value_or("");
    if (raw != opts_.admin_user + ":" + opts_.admin_password) return message(401, "invalid username or password");
    who.role = "Admin";
    who.server_admin = true;
    if (auto org = req.header("X-Grafana-Org-Id"); !org.empty()) {
      who.org_id = std::atoll(std::string(org).c_str());
      if (!orgs_.count(who.org_id)) return message(401, "Unauthorized");
    }
  } else {
    return message(401, "Unauthorized");
  }
  const bool write = req.method != "GET";
  if (write && who.role == "Viewer") return message(403, "Permission denied");
  if (p.size() >= 2 && p[1] == "dashboards") return dashboards_route(req, who, p);
  if (p.size() == 2 && p[1] == "search") return search(req, who);
  if (p.size() >= 2 && p[1] == "folders") return folders_route(req, who, p);
  if (p.size() >= 2 && p[1] == "datasources") return datasources_route(req, who, p);
  if (p.size() == 2 && p[1] == "org" && req.method == "GET") {
    k8s::json_document d(rapidjson::kObjectType);
    auto& a = d.GetAllocator();
    d.AddMember("id", who.org_id, a);
    d.AddMember("name", k8s::make_string(orgs_[who.org_id], a), a);
    d.AddMember("address", address(a), a);
    return json_response(200, d);
  }
  if (p.size() >= 2 && p[1] == "orgs") return orgs_route(req, who, p);
  if (p.size() == 3 && p[1] == "auth" && p[2] == "keys") return keys_route(req, who);
  return message(404, "Not found");
}

k8s::http_response grafana_api::orgs_route(const k8s::http_request& req, const caller& who,
                                           const std::vector<std::string>& p) {
  if (!who.server_admin) return message(403, "Permission denied");
  k8s::json_document d;
  auto& a = d.GetAllocator();
  auto one = [&](std::int64_t id) {
    d.SetObject();
    d.AddMember("id", id, a);
    d.AddMember("name", k8s::make_string(orgs_[id], a), a);
    d.AddMember("address", address(a), a);
    return json_response(200, d);
  };
  if (p.size() == 2 && req.method == "GET") {
    d.SetArray();
    for (auto& [id, name] : orgs_) {
      json_value o(rapidjson::kObjectType);
      o.AddMember("id", id, a);
      o.AddMember("name", k8s::make_string(name, a), a);
      d.PushBack(std::move(o), a);
    }
    return json_response(200, d);
  }
  if (p.size() == 2 && req.method == "POST") {
    auto body = k8s::parse_json(req.body);
    std::string name = body && body->IsObject() ? std::string(k8s::get_string(*body, {"name"})) : "";
    if (!body || !body->IsObject() || name.empty()) return message(400, "bad request data");
    for (auto& [id, n] : orgs_)
      if (n == name) return message(409, "Organization name taken");
    auto id = add_org(name);
    d.SetObject();
    d.AddMember("orgId", k8s::make_string(std::to_string(id), a), a);
    d.AddMember("message", "Organization created", a);
    return json_response(200, d);
  }
  if (p.size() == 3 && req.method == "GET") {
    auto id = std::atoll(p[2].c_str());
    if (!orgs_.count(id)) return message(404, "Organization not found");
    return one(id);
  }
  if (p.size() == 4 && p[2] == "name" && req.method == "GET") {
    for (auto& [id, n] : orgs_)
      if (n == p[3]) return one(id);
    return message(404, "Organization not found");
  }
  return message(404, "Not found");
}

k8s::http_response grafana_api::keys_route(const k8s::http_request& req, const caller& who) {
  if (req.method != "POST") return message(404, "Not found");
  if (who.role != "Admin") return message(403, "Permission denied");
  auto body = k8s::parse_json(req.body);
  if (!body || !body->IsObject() || k8s::get_string(*body, {"name"}).empty()) return message(400, "bad request data");
  std::string role(k8s::get_string(*body, {"role"}));
  if (role.empty()) role = "Viewer";
  if (role != "Viewer" && role != "Editor" && role != "Admin") return message(400, "bad request data");
  auto id = next_key_++;
  std::string key = k8s::base64_encode(fmt::format(R"({{"k":"c5c3sim{}","n":"{}","id":{}}})", id,
                                              k8s::get_string(*body, {"name"}), who.org_id));
  add_api_key(key, who.org_id, role);
  k8s::json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  d.AddMember("id", id, a);
  d.AddMember("name", k8s::make_string(k8s::get_string(*body, {"name"}), a), a);
  d.AddMember("key", k8s::make_string(key, a), a);
  return json_response(200, d);
}

k8s::json_document grafana_api::state() const {
  k8s::json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  json_value orgs(rapidjson::kArrayType);
  for (auto& [id, name] : orgs_) {
    json_value o(rapidjson::kObjectType);
    o.AddMember("id", id, a);
    o.AddMember("name", k8s::make_string(name, a), a);
    json_value dashes(rapidjson::kArrayType), folders(rapidjson::kArrayType), sources(rapidjson::kArrayType);
    if (auto it = dashboards_.find(id); it != dashboards_.end())
      for (auto& [uid, db] : it->second) {
        json_value e(rapidjson::kObjectType);
        e.AddMember("id", db.id, a);
        e.AddMember("uid", k8s::make_string(uid, a), a);
        e.AddMember("title", k8s::make_string(db.title, a), a);
        e.AddMember("version", db.version, a);
        e.AddMember("folderId", db.folder_id, a);
        (db.is_folder ? folders : dashes).PushBack(std::move(e), a);
      }
    if (auto it = datasources_.find(id); it != datasources_.end())
      for (auto& [dsid, ds] : it->second) sources.PushBack(datasource_json(ds, a), a);
    o.AddMember("dashboards", std::move(dashes), a);
    o.AddMember("folders", std::move(folders), a);
    o.AddMember("datasources", std::move(sources), a);
    orgs.PushBack(std::move(o), a);
  }
  d.AddMember("orgs", std::move(orgs), a);
  return d;
}

}  // namespace c5c3::sim::monitoring
