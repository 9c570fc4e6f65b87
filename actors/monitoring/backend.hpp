// The backend ("trickster") registration client of apis-monitoring.md section
// 5, as requests a plan hands the runner (order_plan::calls -> the "backend"
// service, an runtime::http_service) and the answers parsed back: POST
// <base>/api/v1/trickster/register and /unregister, JSON, Bearer <--token>;
// HTTP 200 only is success. The client exists only with both --baseURL and
// --token. Bodies carry the Prometheus bearer token and CA: never logged.
#pragma once

#include "actors/monitoring/flavour.hpp"
#include "actors/runtime/runner/snapshot.hpp"
#include "protocol/service.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace c5c3::monitoring {

struct backend_config {
  std::string base_url;  // normalized (normalize_base_url)
  std::string token;
  std::string ca_pem;    // --platform-ca-file: the only roots trusted
  bool insecure = false;  // no CA, https and an IP host
  std::chrono::milliseconds timeout{30'000};  // per request (upstream sets none)
  bool enabled() const { return !base_url.empty() && !token.empty(); }
};

// From the flags (the CA file's content already read).
backend_config make_backend(const std::string& base_url, const std::string& token, const std::string& ca_pem);

// info.APIServerAddress: scheme and host lowercased, the default port, dot
// segments, duplicate and trailing slashes dropped.
std::string normalize_base_url(std::string_view url);

// mona.PrometheusContext.
struct prometheus_context {
  std::string hub_uid;
  std::string cluster_uid;
  std::string project_id;
  bool is_default = false;
  bool issue_token = false;
  std::string client_org_id;
};

// mona.PrometheusConfig.
struct prometheus_config {
  std::string url;
  service_spec service;
  std::string username, password;  // basicAuth
  std::string bearer_token;
  std::string ca, cert, key, server_name;
  bool insecure_skip_tls_verify = false;
};

std::string context_json(const prometheus_context& c);
std::string register_body(const prometheus_context& c, const prometheus_config& p);

protocol::service_request register_request(const backend_config& b, const prometheus_context& c,
                                           const prometheus_config& p);
protocol::service_request unregister_request(const backend_config& b, const prometheus_context& c);
runtime::service_call backend_call(std::string id, protocol::service_request r);

// GrafanaDatasourceResponse: what the AppBinding default-grafana is made of.
struct grafana_response {
  std::string url;
  std::string bearer_token;
  std::optional<std::int64_t> folder_id;
  std::string datasource;
};
std::optional<grafana_response> parse_register_answer(std::string_view body, std::string* error = nullptr);

// Success (HTTP 200), or the error naming the call: "backend register: HTTP
// 503: <body>" or the transport failure. `what` is "register" or "unregister".
std::optional<std::string> backend_error(const runtime::service_answer& a, std::string_view what);

}  // namespace c5c3::monitoring
