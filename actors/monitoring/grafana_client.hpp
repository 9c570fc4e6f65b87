// The Grafana client of the openviz reconcilers (apis-monitoring.md 13) as
// requests a plan hands the runner (order_plan::calls -> the "grafana"
// service, an runtime::http_service) and the answers parsed back.
//
// 13.1: the address is AppBinding.URL() (clientConfig.url, else the
// Service's cluster DNS URL), each path joined onto its path; auth from the
// AppBinding's Secret in its namespace: key `token` -> Bearer, else Basic
// `username`/`password`; no Secret, no auth. caBundle is the only root
// trusted; an https URL with an IP host skips verification. 30 s timeout.
// The Authorization value is a credential: never logged (the runner logs a
// call by service, method and URL only), never in an error text.
#pragma once

#include "actors/runtime/runner/snapshot.hpp"
#include "k8s/json.hpp"
#include "k8s/object.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace c5c3::monitoring {

inline const std::string grafana_service = "grafana";

struct grafana_target {
  std::string url;            // AppBinding.URL(), trailing slashes dropped
  std::string authorization;  // "Bearer <token>", "Basic <b64>", or ""
  std::string ca_pem;
  bool insecure = false;
  std::chrono::milliseconds timeout{30'000};
};

// AppBinding.URL() (error "connection url is missing").
std::optional<std::string> appbinding_url(const k8s::object& ab, std::string* error = nullptr);

// The GrafanaConfiguration of spec.parameters.
struct grafana_configuration {
  std::string datasource;
  std::int64_t folder_id = 0;
  bool has_parameters = false;
};
grafana_configuration grafana_config_of(const k8s::object& ab);

// The client of 13.1 from the AppBinding and its Secret (null: none named, or
// not found; `secret_named` says whether spec.secret.name is set).
std::optional<grafana_target> grafana_target_of(const k8s::object& ab, const k8s::object* secret,
                                                std::string* error = nullptr);
// The Secret the AppBinding names (spec.secret.name; "" none).
std::string grafana_secret_name(const k8s::object& ab);

// The requests of 13.2.
protocol::service_request set_dashboard_request(const grafana_target& t, const k8s::json_value& model,
                                                std::int64_t folder_id, bool overwrite);
protocol::service_request delete_dashboard_request(const grafana_target& t, std::string_view uid);
protocol::service_request current_org_request(const grafana_target& t);
struct datasource_spec {
  std::int64_t id = 0;  // 0: create
  std::int64_t org_id = 0;
  std::string name, type, access, url;
  bool is_default = false;
  std::string uid;  // sent when set: the object's own, so a create that got no status can be found again
};
std::string datasource_body(const datasource_spec& d);
protocol::service_request create_datasource_request(const grafana_target& t, const datasource_spec& d);
protocol::service_request update_datasource_request(const grafana_target& t, const datasource_spec& d);
protocol::service_request delete_datasource_request(const grafana_target& t, std::int64_t id);
protocol::service_request get_datasource_by_uid_request(const grafana_target& t, std::string_view uid);
runtime::service_call grafana_call(std::string id, protocol::service_request r);

// The SDK's response struct (id, uid, url, title, name, message, status,
// version, slug; all optional) with the HTTP status, or the client's error
// text: "failed to <what>, reason: <message>" (`what`: "set dashboard",
// "delete dashboard", "create datasource", ...) for a non-200 answer, the
// decode error alone for a body that is not JSON, the transport failure,
// or for GetCurrentOrg "failed to get current org, Status Code: <n>".
struct grafana_result {
  int status = 0;
  bool ok = false;
  std::string error;
  std::optional<std::int64_t> id, version, org_id;
  std::string uid, url, title, name, message, status_word, slug;
};
grafana_result parse_grafana(const runtime::service_answer& a, std::string_view what);
grafana_result parse_current_org(const runtime::service_answer& a);

}  // namespace c5c3::monitoring
