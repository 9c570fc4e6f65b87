#include "actors/monitoring/backend.hpp"

#include "actors/monitoring/cluster_meta.hpp"
#include "actors/monitoring/constants.hpp"
#include "k8s/json_answer.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace c5c3::monitoring {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// RFC 3986 remove_dot_segments over a path with duplicate slashes dropped.
std::string clean_path(std::string_view path) {
  std::vector<std::string> parts;
  std::size_t i = 0;
  while (i <= path.size()) {
    auto j = path.find('/', i);
    auto seg = path.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i);
    if (seg == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!seg.empty() && seg != ".") {
      parts.emplace_back(seg);
    }
    if (j == std::string_view::npos) break;
    i = j + 1;
  }
  std::string out;
  for (const auto& p : parts) out += "/" + p;
  return out;
}

bool is_ip(std::string_view host) {
  if (!host.empty() && host.front() == '[') return true;
  return !host.empty() && std::all_of(host.begin(), host.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; });
}

std::string service_json(const service_spec& s) {
  return "{\"scheme\":" + go_json_string(s.scheme) + ",\"name\":" + go_json_string(s.name) +
         ",\"namespace\":" + go_json_string(s.namespace_) + ",\"port\":" + go_json_string(s.port) +
         ",\"path\":" + go_json_string(s.path) + ",\"query\":" + go_json_string(s.query) + "}";
}

std::string context_members(const prometheus_context& c) {
  std::string out;
  if (!c.hub_uid.empty()) out += "\"hubUID\":" + go_json_string(c.hub_uid) + ",";
  out += "\"clusterUID\":" + go_json_string(c.cluster_uid);
  if (!c.project_id.empty()) out += ",\"projectId\":" + go_json_string(c.project_id);
  out += std::string(",\"default\":") + (c.is_default ? "true" : "false");
  if (c.issue_token) out += ",\"issueToken\":true";
  if (!c.client_org_id.empty()) out += ",\"clientOrgID\":" + go_json_string(c.client_org_id);
  return out;
}

protocol::service_request post(const backend_config& b, const std::string& path, std::string body) {
  protocol::service_request r;
  r.method = "POST";
  r.url = b.base_url + path;
  r.body = std::move(body);
  r.content_type = "application/json";
  r.authorization = "Bearer " + b.token;
  r.ca_pem = b.ca_pem;
  r.insecure_skip_verify = b.insecure;
  r.timeout = b.timeout;
  return r;
}

}  // namespace

std::string normalize_base_url(std::string_view url) {
  auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return std::string(url);
  auto scheme = lower(std::string(url.substr(0, scheme_end)));
  auto rest = url.substr(scheme_end + 3);
  auto slash = rest.find('/');
  auto host = lower(std::string(rest.substr(0, slash)));
  std::string path = slash == std::string_view::npos ? std::string() : std::string(rest.substr(slash));
  if ((scheme == "http" && host.size() > 3 && host.ends_with(":80")) ) host.resize(host.size() - 3);
  if (scheme == "https" && host.size() > 4 && host.ends_with(":443")) host.resize(host.size() - 4);
  return scheme + "://" + host + clean_path(path);
}

backend_config make_backend(const std::string& base_url, const std::string& token, const std::string& ca_pem) {
  backend_config b;
  if (base_url.empty() || token.empty()) return b;
  b.base_url = normalize_base_url(base_url);
  b.token = token;
  b.ca_pem = ca_pem;
  if (ca_pem.empty() && b.base_url.rfind("https://", 0) == 0) {
    auto host = b.base_url.substr(8, b.base_url.find('/', 8) - 8);
    auto colon = host.rfind(':');
    if (colon != std::string::npos && host.find(']') == std::string::npos) host = host.substr(0, colon);
    b.insecure = is_ip(host);
  }
  return b;
}

std::string context_json(const prometheus_context& c) { return "{" + context_members(c) + "}"; }

std::string register_body(const prometheus_context& c, const prometheus_config& p) {
  return "{" + context_members(c) + ",\"prometheus\":{\"url\":" + go_json_string(p.url) +
         ",\"service\":" + service_json(p.service) + ",\"basicAuth\":{\"username\":" + go_json_string(p.username) +
         ",\"password\":" + go_json_string(p.password) + "},\"bearerToken\":" + go_json_string(p.bearer_token) +
         ",\"tls\":{\"ca\":" + go_json_string(p.ca) + ",\"cert\":" + go_json_string(p.cert) +
         ",\"key\":" + go_json_string(p.key) + ",\"serverName\":" + go_json_string(p.server_name) +
         ",\"insecureSkipTLSVerify\":" + (p.insecure_skip_tls_verify ? "true" : "false") + "}}}";
}

protocol::service_request register_request(const backend_config& b, const prometheus_context& c,
                                           const prometheus_config& p) {
  return post(b, "/api/v1/trickster/register", register_body(c, p));
}

protocol::service_request unregister_request(const backend_config& b, const prometheus_context& c) {
  return post(b, "/api/v1/trickster/unregister", context_json(c));
}

runtime::service_call backend_call(std::string id, protocol::service_request r) {
  runtime::service_call c;
  c.id = std::move(id);
  c.service = backend_service;
  c.request = std::move(r);
  return c;
}

std::optional<grafana_response> parse_register_answer(std::string_view body, std::string* error) {
  auto d = k8s::parse_answer_json(body, error);
  if (!d) return std::nullopt;
  if (!d->IsObject()) {
    if (error) *error = "the backend's answer is not a JSON object";
    return std::nullopt;
  }
  grafana_response g;
  g.url = std::string(k8s::get_string(*d, {"grafana", "url"}));
  g.bearer_token = std::string(k8s::get_string(*d, {"grafana", "bearerToken"}));
  g.folder_id = k8s::get_int(*d, {"folderID"});
  g.datasource = std::string(k8s::get_string(*d, {"datasource"}));
  return g;
}

std::optional<std::string> backend_error(const runtime::service_answer& a, std::string_view what) {
  if (!a.answered()) return "backend " + std::string(what) + ": " + a.error;
  if (a.status == 200) return std::nullopt;
  auto body = a.body;
  while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) body.pop_back();
  return "backend " + std::string(what) + ": HTTP " + std::to_string(a.status) + (body.empty() ? "" : ": " + body);
}

}  // namespace c5c3::monitoring
