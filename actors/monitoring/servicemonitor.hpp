// servicemonitor.AutoReconciler and servicemonitor.FederationReconciler
// (monitoring-controllers.txt; apis-monitoring.md sections 7 and 8) on the
// order runner: each ServiceMonitor labelled monitoring.appscode.com/prometheus
// =auto (or =federated) is an order of its controller.
//
// Auto: after the detector gate, with Prometheus objects listed and none
// selecting the ServiceMonitor yet (namespace selector and label selector),
// the ServiceMonitor's labels get the selector labels of the first Prometheus
// (by namespace, name; OpenShift: the default one; Rancher: the system or the
// project Prometheus by the namespace's project). Prometheus events wake every
// auto ServiceMonitor.
//
// Federation: on a non-federated cluster the same label patch for the default
// Prometheus; on a federated (Rancher) cluster the default Prometheus gets the
// label patch and every project Prometheus a copy of the ServiceMonitor in its
// namespace (owned by it, honorLabels, the namespace keep rule at the head of
// each endpoint's metricRelabelings), copies of the selected Services,
// Endpoints rewritten to the source Services' ClusterIPs and ports, and the
// endpoints' TLS CA Secrets; failed copies are collected and the pass fails
// with all of them. Services and Prometheus objects wake the federated
// ServiceMonitors they concern.
#pragma once

#include "actors/runtime/runner/declaration.hpp"

#include <memory>
#include <string>

namespace c5c3::monitoring {

runtime::order_plan plan_auto(const runtime::sense_snapshot& s);
std::shared_ptr<const runtime::kind_declaration> auto_declaration();

runtime::order_plan plan_federation(const runtime::sense_snapshot& s);
std::shared_ptr<const runtime::kind_declaration> federation_declaration();

namespace sm {

// Slot ids both share.
inline const std::string prometheuses_slot = "prometheuses";
inline const std::string namespace_slot = "namespace";
inline const std::string kube_system_slot = "kube-system";

// updateServiceMonitorLabels: the patch of `target`'s labels with the
// Prometheus's selector labels (nothing when they are there already).
std::optional<runtime::child_write> label_patch(const k8s::object& prom, const k8s::object& target);

// The slots and the Prometheus watch both controllers declare.
void common_reads(runtime::kind_declaration& k);

}  // namespace sm

}  // namespace c5c3::monitoring
