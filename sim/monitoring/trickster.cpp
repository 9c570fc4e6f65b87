#include "sim/monitoring/trickster.hpp"

#include <fmt/format.h>

namespace c5c3::sim::monitoring {

namespace {

constexpr std::string_view prefix = "/api/v1/trickster/";

std::string str(const k8s::json_value& v, std::string_view key) {
  return std::string(k8s::get_string(v, {key}));
}

// Go's path.Join and purell drop duplicate and trailing slashes.
std::string clean(std::string_view path) {
  std::string out;
  for (char c : path)
    if (!(c == '/' && !out.empty() && out.back() == '/')) out.push_back(c);
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

k8s::json_value empty_service(k8s::json_allocator& a) {
  k8s::json_value s(rapidjson::kObjectType);
  for (const char* k : {"scheme", "name", "namespace", "port", "path", "query"}) s.AddMember(k8s::json_value(k, a), k8s::json_value("", a), a);
  return s;
}

}  // namespace

std::string trickster_backend::context_key(std::string_view kind, const k8s::json_value& c) {
  return fmt::format("{}|{}|{}|{}|{}", kind, str(c, "clusterUID"), str(c, "projectId"),
                     k8s::get_bool(c, {"default"}).value_or(false) ? "default" : "",
                     str(c, "clientOrgID"));
}

k8s::http_response trickster_backend::error(int status, const std::string& message) const {
  return text_response(status, message + "\n");
}

k8s::http_response trickster_backend::handle(const k8s::http_request& req, const std::string&) {
  std::string path = clean(req.path);
  if (path.rfind(prefix, 0) != 0) return error(404, "404 page not found");
  std::string op = path.substr(prefix.size());
  std::string kind = "prometheus";
  if (op.rfind("perses/", 0) == 0) {
    kind = "perses";
    op = op.substr(7);
  }
  if (op != "register" && op != "unregister") return error(404, "404 page not found");
  if (req.method != "POST") return error(405, "Method Not Allowed");
  if (!opts_.token.empty() && req.header("Authorization") != "Bearer " + opts_.token)
    return error(401, "Unauthorized");
  auto body = k8s::parse_json(req.body);
  if (!body || !body->IsObject()) return error(400, "invalid request body: not a JSON object");
  if (str(*body, "clusterUID").empty()) return error(400, "invalid request body: clusterUID is required");
  return op == "register" ? do_register(kind, *body) : do_unregister(kind, *body);
}

k8s::http_response trickster_backend::do_register(const std::string& kind, const k8s::json_value& body) {
  const k8s::json_value* config = k8s::member(body, kind);
  if (!config || !config->IsObject()) return error(400, "invalid request body: " + kind + " is required");
  ++register_calls_;
  auto key = context_key(kind, body);
  auto& r = regs_[key];
  bool first = r.registers == 0;
  r.kind = kind;
  r.key = key;
  r.context = k8s::copy_document(body);
  k8s::remove_member(r.context, kind);
  r.config = k8s::copy_document(*config);
  ++r.registers;
  const std::string org = str(body, "clientOrgID"), project = str(body, "projectId");
  if (first) {
    r.datasource = fmt::format("{}.{}", opts_.owner_id, str(body, "clusterUID"));
    if (!org.empty())
      r.datasource += ".org-" + org;
    else if (!k8s::get_bool(body, {"default"}).value_or(false) && !project.empty())
      r.datasource += "." + project;
    r.folder_id = opts_.link.ensure_folder ? opts_.link.ensure_folder(r.datasource) : next_folder_++;
  }
  r.bearer_token = opts_.grafana_token;
  if (k8s::get_bool(body, {"issueToken"}).value_or(false))
    r.bearer_token = opts_.link.issue_token ? opts_.link.issue_token(org) : "org-" + org + "-token";
  if (opts_.link.ensure_datasource) opts_.link.ensure_datasource(r.datasource, str(*config, "url"));

  k8s::json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  k8s::json_value g(rapidjson::kObjectType);
  g.AddMember("url", k8s::make_string(opts_.grafana_url, a), a);
  g.AddMember("service", empty_service(a), a);
  k8s::json_value basic(rapidjson::kObjectType);
  basic.AddMember("username", "", a);
  basic.AddMember("password", "", a);
  g.AddMember("basicAuth", std::move(basic), a);
  g.AddMember("bearerToken", k8s::make_string(r.bearer_token, a), a);
  k8s::json_value tls(rapidjson::kObjectType);
  for (const char* k : {"ca", "cert", "key", "serverName"}) tls.AddMember(k8s::json_value(k, a), k8s::json_value("", a), a);
  tls.AddMember("insecureSkipTLSVerify", false, a);
  g.AddMember("tls", std::move(tls), a);
  k8s::json_value dash(rapidjson::kObjectType);
  dash.AddMember("datasource", k8s::make_string(r.datasource, a), a);
  dash.AddMember("folderID", r.folder_id, a);
  g.AddMember("dashboard", std::move(dash), a);
  d.AddMember(k8s::make_string(kind == "perses" ? "perses" : "grafana", a), std::move(g), a);
  d.AddMember("folderID", r.folder_id, a);
  d.AddMember("datasource", k8s::make_string(r.datasource, a), a);
  return json_response(200, d);
}

k8s::http_response trickster_backend::do_unregister(const std::string& kind, const k8s::json_value& body) {
  ++unregister_calls_;
  auto key = context_key(kind, body);
  regs_.erase(key);
  unregistered_.push_back(key);
  return json_response(200, k8s::json_document(rapidjson::kObjectType));
}

k8s::json_document trickster_backend::state() const {
  k8s::json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  k8s::json_value list(rapidjson::kArrayType);
  for (const auto& [key, r] : regs_) {
    k8s::json_value e(rapidjson::kObjectType);
    e.AddMember("key", k8s::make_string(key, a), a);
    e.AddMember("kind", k8s::make_string(r.kind, a), a);
    e.AddMember("registers", r.registers, a);
    e.AddMember("datasource", k8s::make_string(r.datasource, a), a);
    e.AddMember("folderID", r.folder_id, a);
    e.AddMember("context", k8s::copy_json(r.context, a), a);
    // The Prometheus config without its secrets (bearer token, basic auth, TLS key).
    k8s::json_value cfg = k8s::copy_json(r.config, a);
    e.AddMember("bearerTokenSet", !k8s::get_string(cfg, {"bearerToken"}).empty(), a);
    k8s::remove_member(cfg, "bearerToken");
    k8s::remove_member(cfg, "basicAuth");
    if (auto* t = k8s::member(cfg, "tls")) k8s::remove_member(*t, "key");
    e.AddMember("config", std::move(cfg), a);
    list.PushBack(std::move(e), a);
  }
  d.AddMember("registrations", std::move(list), a);
  d.AddMember("registerCalls", register_calls_, a);
  d.AddMember("unregisterCalls", unregister_calls_, a);
  k8s::json_value un(rapidjson::kArrayType);
  for (auto& k : unregistered_) un.PushBack(k8s::make_string(k, a), a);
  d.AddMember("unregistered", std::move(un), a);
  return d;
}

}  // namespace c5c3::sim::monitoring
