// The FederationReconciler's copies (apis-monitoring.md section 8, internal
// to actors/monitoring): a project Prometheus's copy of a federated
// ServiceMonitor, of the Services it selects, of their Endpoints and of the
// endpoints' TLS CA Secrets, as pure functions of the source and the copy
// as read.
#pragma once

#include "actors/monitoring/create_or_patch.hpp"

#include <optional>
#include <string>
#include <vector>

namespace c5c3::monitoring::fed {

// The keep rule's namespaces: "" and every Namespace the Prometheus's
// serviceMonitorNamespaceSelector selects, except its own project namespace
// (cattle-project-<its field.cattle.io/projectId>), sorted.
std::vector<std::string> keep_namespaces(const k8s::object& prom, const std::vector<k8s::object>& namespaces);

// copyServiceMonitor: the ServiceMonitor <src.name> in the Prometheus's
// namespace, owned by it, labelled with its selector labels (without
// monitoring.appscode.com/prometheus), the source's spec with honorLabels and
// the namespace keep rule at the head of each endpoint's metricRelabelings.
std::optional<runtime::child_write> copy_servicemonitor(const k8s::object& prom, const k8s::object& src,
                                                        const std::vector<std::string>& namespaces,
                                                        const k8s::object* live);

// copyService: ClusterIP, ports upserted by name (targetPort the port), owned by the copy.
std::optional<runtime::child_write> copy_service(const k8s::object& src, const k8s::object& target,
                                                 const k8s::object* live);

// copyEndpoints: each subset's addresses the source Service's ClusterIP, its
// ports upserted by name with the source Service's port of that name
// (`error` set when the Service has none: upstream panics there).
std::optional<runtime::child_write> copy_endpoints(const k8s::object& src_svc, const k8s::object& src_ep,
                                                   const k8s::object& target, const k8s::object* live,
                                                   std::string& error);

// copySecret: immutable, data and type of the source, owned by the copy (a
// server-side apply: the copy is not read).
runtime::child_write copy_secret(const k8s::object& src, const k8s::object& target);

// The endpoints' spec.endpoints[].tlsConfig.ca.secret.name, in order, without repeats.
std::vector<std::string> ca_secret_names(const k8s::object& smon);

// errors.NewAggregate(...).Error(): one message alone, several as "[a, b]"
// (repeats once); "" for none.
std::string aggregate(const std::vector<std::string>& errors);

}  // namespace c5c3::monitoring::fed
