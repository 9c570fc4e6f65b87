// apiregistration.k8s.io/v1 APIService as kube-apiserver (its aggregator)
// serves it: the registry strategy (status cleared on create, local ones
// Available at once, spec.service.port defaulted to 443), the validation of
// kube-aggregator's validation.go, the availability controller's condition for
// service-backed ones (without the discovery probe: the emulator proxies
// nothing) and the auto-registered local APIServices of the served built-in
// group versions and CRDs. Pure functions over JSON.
#pragma once

#include "k8s/api_resource.hpp"
#include "k8s/json.hpp"
#include "k8s/object.hpp"
#include "sim/validation/field_error.hpp"

#include <string>
#include <vector>

namespace c5c3::sim {

bool is_apiservice(const k8s::api_resource& r);

// PrepareForCreate (status cleared; a local APIService gets Available=True
// reason Local) and the defaults (spec.service.port 443). `now` is RFC 3339.
void apiservice_prepare_create(k8s::json_document& doc, const std::string& now);
// The defaults again on update (the status is the old one, kept by the caller).
void apiservice_defaults(k8s::json_document& doc);

// ValidateAPIService: the name must be version.group, group and version
// rules, priorities, local APIServices without caBundle or
// insecureSkipTLSVerify, service namespace and name.
std::vector<validation::field_error> validate_apiservice(const k8s::json_value& doc);
// ValidateAPIServiceStatus: condition statuses True, False or Unknown.
std::vector<validation::field_error> validate_apiservice_status(const k8s::json_value& doc);

// The Available condition the availability controller computes, from the
// Service and Endpoints the APIService names (null when missing).
struct availability {
  std::string status;  // True, False
  std::string reason;  // Local, ServiceNotFound, ServicePortError, EndpointsNotFound, MissingEndpoints, Passed
  std::string message;
};
availability apiservice_availability(const k8s::json_value& apiservice, const k8s::object* service,
                                     const k8s::object* endpoints);
// SetAPIServiceCondition: adds or updates Available (lastTransitionTime only
// when the status flips). True when anything changed.
bool set_available_condition(k8s::json_document& apiservice, const availability& a,
                             const std::string& now);

// The APIServices kube-aggregator's autoregister and crdregistration
// controllers keep for `served` kinds: one per built-in group version in
// kube's priority table (label kube-aggregator.kubernetes.io/automanaged:
// onstart) and one per served CRD group version (automanaged: "true", group
// priority 1000, version priority 100). Sorted by name.
struct local_apiservice {
  std::string name;  // "v1." for the core group, else version.group
  std::string group, version;
  int group_priority = 0, version_priority = 0;
  std::string automanaged;  // "onstart" or "true"
};
std::vector<local_apiservice> desired_local_apiservices(const std::vector<k8s::api_resource>& served,
                                                        bool (*is_builtin)(const k8s::api_resource&));
// The object to create for one of them (no uid, resourceVersion or timestamps).
k8s::json_document local_apiservice_object(const local_apiservice& s);

inline constexpr std::string_view automanaged_label = "kube-aggregator.kubernetes.io/automanaged";

}  // namespace c5c3::sim
