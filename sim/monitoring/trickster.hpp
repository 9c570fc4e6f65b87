// The backend ("trickster") registration API of apis-monitoring.md section 5,
// as the monitoring operator's client sees it: POST /api/v1/trickster/register
// and /unregister (and the perses/ pair of HEAD), JSON bodies, bearer token
// auth, 200 on success and anything else an error with a text body.
//
// The real server (ACE platform "b3") is private, so what it does with a
// registration is this stand-in's choice, stated here: a registration is keyed
// by its context (clusterUID, projectId, default, clientOrgID); registering
// again replaces the stored Prometheus config and counts; the answer names a
// Grafana (url, bearer token) and a datasource "<ownerID>.<clusterUID>[.<projectId>]"
// (client orgs: "<ownerID>.<clusterUID>.org-<clientOrgID>") in a folder of its
// own; unregistering an unknown context is 200 too. Errors: 401 "Unauthorized"
// (missing or wrong bearer token), 405 for a method other than POST, 404 for
// another path, 400 for a body that is not a JSON object or lacks clusterUID
// (or, on register, prometheus).
#pragma once

#include "sim/monitoring/standin_server.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace c5c3::sim::monitoring {

// How registrations reach a Grafana (c5c3-sim monitoring wires the Grafana
// stand-in here); each may be empty.
struct grafana_link {
  // The bearer token for a client org's Grafana (issueToken registrations).
  std::function<std::string(const std::string& client_org_id)> issue_token;
  // The id of the folder a registration's dashboards go to.
  std::function<std::int64_t(const std::string& title)> ensure_folder;
  // Creates (or updates) the Prometheus datasource of a registration.
  std::function<void(const std::string& name, const std::string& url)> ensure_datasource;
};

struct trickster_options {
  std::string token;          // the token clients must send; empty: no authentication
  std::string grafana_url = "http://127.0.0.1:3000";
  std::string grafana_token;  // returned as grafana.bearerToken
  std::int64_t owner_id = 1;
  grafana_link link;
};

struct trickster_registration {
  std::string kind;             // "prometheus" or "perses"
  std::string key;              // the context key (see context_key)
  k8s::json_document context;   // the PrometheusContext sent
  k8s::json_document config;    // the prometheus (or perses) object sent
  int registers = 0;            // register calls for this context so far
  std::string datasource;
  std::int64_t folder_id = 0;
  std::string bearer_token;
};

class trickster_backend : public standin_core {
 public:
  explicit trickster_backend(trickster_options o) : opts_(std::move(o)) {}

  k8s::http_response handle(const k8s::http_request& req, const std::string& base_url) override;
  k8s::http_response error(int status, const std::string& message) const override;
  k8s::json_document state() const override;

  // "<kind>|<clusterUID>|<projectId>|<default>|<clientOrgID>".
  static std::string context_key(std::string_view kind, const k8s::json_value& context);
  const std::map<std::string, trickster_registration>& registrations() const { return regs_; }
  int register_calls() const { return register_calls_; }
  int unregister_calls() const { return unregister_calls_; }
  const std::vector<std::string>& unregistered() const { return unregistered_; }

 private:
  k8s::http_response do_register(const std::string& kind, const k8s::json_value& body);
  k8s::http_response do_unregister(const std::string& kind, const k8s::json_value& body);

  trickster_options opts_;
  std::map<std::string, trickster_registration> regs_;
  std::vector<std::string> unregistered_;  // keys, in order
  int register_calls_ = 0, unregister_calls_ = 0;
  std::int64_t next_folder_ = 1;
};

}  // namespace c5c3::sim::monitoring
