#include "actors/monitoring/grafana_client.hpp"

#include "actors/monitoring/cluster_meta.hpp"
#include "k8s/base64.hpp"
#include "k8s/json_answer.hpp"

#include <algorithm>
#include <cctype>

namespace c5c3::monitoring {

namespace {

std::string secret_value(const k8s::object& s, std::string_view key) {
  auto raw = s.get_string({"data", key});
  if (!raw.empty()) return k8s::base64_decode(raw).value_or(std::string());
  return std::string(s.get_string({"stringData", key}));
}

bool has_key(const k8s::object& s, std::string_view key) {
  return s.get({"data", key}) != nullptr || s.get({"stringData", key}) != nullptr;
}

bool ip_host(std::string_view url) {
  auto start = url.find("://");
  if (start == std::string_view::npos) return false;
  auto host = url.substr(start + 3);
  host = host.substr(0, host.find('/'));
  if (!host.empty() && host.front() == '[') return true;
  if (auto colon = host.rfind(':'); colon != std::string_view::npos) host = host.substr(0, colon);
  return !host.empty() && std::all_of(host.begin(), host.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
  });
}

protocol::service_request request(const grafana_target& t, std::string method, std::string_view path,
                                  std::string body = {}) {
  protocol::service_request r;
  r.method = std::move(method);
  r.url = t.url + std::string(path);
  r.body = std::move(body);
  r.content_type = r.body.empty() ? "" : "application/json";
  r.authorization = t.authorization;
  r.ca_pem = t.ca_pem;
  r.insecure_skip_verify = t.insecure;
  r.timeout = t.timeout;
  r.headers = {{"Accept", "application/json"}};
  return r;
}

std::string transport_or_decode(const runtime::service_answer& a, std::optional<k8s::json_document>& doc) {
  if (!a.answered()) return a.error;
  std::string why;
  doc = k8s::parse_answer_json(a.body, &why);
  if (!doc) return why.empty() ? "invalid character in the answer" : why;
  return {};
}

}  // namespace

std::optional<std::string> appbinding_url(const k8s::object& ab, std::string* error) {
  if (auto u = ab.get_string({"spec", "clientConfig", "url"}); !u.empty()) return std::string(u);
  if (const auto* svc = ab.get({"spec", "clientConfig", "service"}); svc && svc->IsObject()) {
    auto ns = k8s::get_string(*svc, {"namespace"});
    auto port = k8s::get_int(*svc, {"port"});
    std::string u = std::string(k8s::get_string(*svc, {"scheme"})) + "://" + std::string(k8s::get_string(*svc, {"name"})) +
                    "." + std::string(ns.empty() ? ab.namespace_() : ns) + ".svc";
    if (port) u += ":" + std::to_string(*port);
    u += std::string(k8s::get_string(*svc, {"path"}));
    if (auto q = k8s::get_string(*svc, {"query"}); !q.empty()) u += "?" + std::string(q);
    return u;
  }
  if (error) *error = "connection url is missing";
  return std::nullopt;
}

grafana_configuration grafana_config_of(const k8s::object& ab) {
  grafana_configuration c;
  const auto* p = ab.get({"spec", "parameters"});
  if (!p || !p->IsObject()) return c;
  c.has_parameters = true;
  c.datasource = std::string(k8s::get_string(*p, {"datasource"}));
  c.folder_id = k8s::get_int(*p, {"folderID"}).value_or(0);
  return c;
}

std::string grafana_secret_name(const k8s::object& ab) { return std::string(ab.get_string({"spec", "secret", "name"})); }

std::optional<grafana_target> grafana_target_of(const k8s::object& ab, const k8s::object* secret, std::string* error) {
  auto url = appbinding_url(ab, error);
  if (!url) return std::nullopt;
  grafana_target t;
  t.url = *url;
  if (auto q = t.url.find('?'); q != std::string::npos) t.url.resize(q);
  while (!t.url.empty() && t.url.back() == '/') t.url.pop_back();
  if (!grafana_secret_name(ab).empty()) {
    if (!secret) {
      if (error)
        *error = "secrets \"" + grafana_secret_name(ab) + "\" not found";
      return std::nullopt;
    }
    if (has_key(*secret, "token"))
      t.authorization = "Bearer " + secret_value(*secret, "token");
    else
      t.authorization =
          "Basic " + k8s::base64_encode(secret_value(*secret, "username") + ":" + secret_value(*secret, "password"));
  }
  if (auto ca = ab.get_string({"spec", "clientConfig", "caBundle"}); !ca.empty())
    t.ca_pem = k8s::base64_decode(ca).value_or(std::string());
  t.insecure = t.url.rfind("https://", 0) == 0 && ip_host(t.url);
  return t;
}

protocol::service_request set_dashboard_request(const grafana_target& t, const k8s::json_value& model,
                                                std::int64_t folder_id, bool overwrite) {
  std::string body = "{\"dashboard\":" + k8s::to_json(model);
  if (folder_id != 0) body += ",\"folderId\":" + std::to_string(folder_id);
  body += std::string(",\"overwrite\":") + (overwrite ? "true" : "false") + "}";
  return request(t, "POST", "/api/dashboards/db", std::move(body));
}

protocol::service_request delete_dashboard_request(const grafana_target& t, std::string_view uid) {
  return request(t, "DELETE", "/api/dashboards/uid/" + std::string(uid));
}

protocol::service_request current_org_request(const grafana_target& t) { return request(t, "GET", "/api/org"); }

std::string datasource_body(const datasource_spec& d) {
  const std::string uid = d.uid.empty() ? "" : ",\"uid\":" + go_json_string(d.uid);
  return "{\"id\":" + std::to_string(d.id) + uid + ",\"orgId\":" + std::to_string(d.org_id) +
         ",\"name\":" + go_json_string(d.name) + ",\"type\":" + go_json_string(d.type) +
         ",\"access\":" + go_json_string(d.access) + ",\"url\":" + go_json_string(d.url) +
         ",\"isDefault\":" + (d.is_default ? "true" : "false") + ",\"jsonData\":null,\"secureJsonData\":null}";
}

protocol::service_request create_datasource_request(const grafana_target& t, const datasource_spec& d) {
  return request(t, "POST", "/api/datasources", datasource_body(d));
}

protocol::service_request update_datasource_request(const grafana_target& t, const datasource_spec& d) {
  return request(t, "PUT", "/api/datasources/" + std::to_string(d.id), datasource_body(d));
}

protocol::service_request delete_datasource_request(const grafana_target& t, std::int64_t id) {
  return request(t, "DELETE", "/api/datasources/" + std::to_string(id));
}

protocol::service_request get_datasource_by_uid_request(const grafana_target& t, std::string_view uid) {
  return request(t, "GET", "/api/datasources/uid/" + std::string(uid));
}

runtime::service_call grafana_call(std::string id, protocol::service_request r) {
  return {std::move(id), grafana_service, std::move(r)};
}

grafana_result parse_grafana(const runtime::service_answer& a, std::string_view what) {
  grafana_result g;
  g.status = a.status;
  std::optional<k8s::json_document> doc;
  if (auto e = transport_or_decode(a, doc); !e.empty()) {
    g.error = e;
    return g;
  }
  const auto& d = *doc;
  if (d.IsObject()) {
    g.id = k8s::get_int(d, {"id"});
    g.version = k8s::get_int(d, {"version"});
    g.uid = std::string(k8s::get_string(d, {"uid"}));
    g.url = std::string(k8s::get_string(d, {"url"}));
    g.title = std::string(k8s::get_string(d, {"title"}));
    g.name = std::string(k8s::get_string(d, {"name"}));
    g.message = std::string(k8s::get_string(d, {"message"}));
    g.status_word = std::string(k8s::get_string(d, {"status"}));
    g.slug = std::string(k8s::get_string(d, {"slug"}));
  }
  g.ok = a.status == 200;
  if (!g.ok) g.error = "failed to " + std::string(what) + ", reason: " + g.message;
  return g;
}

grafana_result parse_current_org(const runtime::service_answer& a) {
  grafana_result g;
  g.status = a.status;
  if (!a.answered()) {
    g.error = a.error;
    return g;
  }
  if (a.status != 200) {
    g.error = "failed to get current org, Status Code: " + std::to_string(a.status);
    return g;
  }
  std::optional<k8s::json_document> doc;
  if (auto e = transport_or_decode(a, doc); !e.empty()) {
    g.error = e;
    return g;
  }
  g.ok = true;
  g.org_id = doc->IsObject() ? k8s::get_int(*doc, {"id"}) : std::nullopt;
  g.name = doc->IsObject() ? std::string(k8s::get_string(*doc, {"name"})) : std::string();
  return g;
}

}  // namespace c5c3::monitoring
