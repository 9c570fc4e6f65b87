// CreateGrafanaAppBinding (apis-monitoring.md section 11), shared by the
// PrometheusReconciler (default-grafana and default-grafana-auth beside the
// default Prometheus) and the ClientOrgReconciler (grafana and grafana-auth in
// <ns>-monitoring): the Grafana AppBinding made of the backend's register
// answer, and the Secret holding its bearer token, owned by the AppBinding.
#pragma once

#include "actors/monitoring/backend.hpp"
#include "actors/runtime/runner/write.hpp"
#include "k8s/object.hpp"

#include <optional>
#include <string>

namespace c5c3::monitoring {

struct grafana_binding {
  std::string namespace_, name, secret_name;
  std::string ca_pem;  // --platform-ca-file: spec.clientConfig.caBundle
  // The default-grafana marks (the Prometheus's): a controller reference and
  // the is-default-grafana annotation; null: none (the client org's).
  const k8s::object* owner = nullptr;
};

// The AppBinding (`live` as read, null: absent): type Grafana, clientConfig
// {url, caBundle}, secret {kind: Secret, name}, parameters
// GrafanaConfiguration {datasource, folderID}. Nothing when it is as it should be.
std::optional<runtime::child_write> grafana_appbinding_write(const grafana_binding& b, const grafana_response& g,
                                                             const k8s::object* live);

// The Secret (stringData.token upstream; data.token here), owned by the
// AppBinding `ab`. Upstream ignores its errors: the write carries
// report_failure, and a plan whose snapshot shows its failure goes on.
std::optional<runtime::child_write> grafana_auth_write(const grafana_binding& b, const grafana_response& g,
                                                       const k8s::object& ab, const k8s::object* live);

}  // namespace c5c3::monitoring
