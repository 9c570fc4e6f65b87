// OpenAPI v3 schemas of apiregistration.k8s.io/v1 (kube-aggregator's
// APIService), merged into builtin_schemas(). Descriptions paraphrase the API
// reference.
#include "sim/openapi/builtin_schemas.hpp"

namespace c5c3::sim::openapi::detail {

const char* const apiregistration_schemas_text = R"json({
"apireg.ServiceReference": {"type": "object",
  "description": "ServiceReference names the Service an aggregated API server answers behind.",
  "properties": {
    "name": {"type": "string", "description": "Name of the service."},
    "namespace": {"type": "string", "description": "Namespace of the service."},
    "port": {"type": "integer", "format": "int32", "description": "The port on the service, 443 unless set; 1-65535."}}},
"apireg.APIServiceSpec": {"type": "object", "required": ["groupPriorityMinimum", "versionPriority"],
  "description": "APIServiceSpec says where an API group version is served: locally (no service) or by a Service.",
  "properties": {
    "caBundle": {"type": "string", "format": "byte", "description": "PEM CA bundle that signs the serving certificate of the API server behind the service.", "x-kubernetes-list-type": "atomic"},
    "group": {"type": "string", "description": "The API group the server hosts."},
    "groupPriorityMinimum": {"type": "integer", "format": "int32", "default": 0, "description": "The least priority of the group in discovery; the highest wins among the group's APIServices."},
    "insecureSkipTLSVerify": {"type": "boolean", "description": "Skip the verification of the server's certificate (discouraged)."},
    "service": {"$ref": "#/components/schemas/apireg.ServiceReference", "description": "The service behind which the server answers; unset for a local API."},
    "version": {"type": "string", "description": "The API version the server hosts, e.g. v1."},
    "versionPriority": {"type": "integer", "format": "int32", "default": 0, "description": "The order of this version inside its group; highest first."}}},
"apireg.APIServiceCondition": {"type": "object", "required": ["type", "status"],
  "description": "APIServiceCondition describes the state of an APIService at a point in time.",
  "properties": {
    "lastTransitionTime": {"$ref": "#/components/schemas/meta.Time", "description": "When the condition last changed status."},
    "message": {"type": "string", "description": "Human-readable details of the last transition."},
    "reason": {"type": "string", "description": "CamelCase reason of the last transition."},
    "status": {"type": "string", "default": "", "description": "True, False or Unknown."},
    "type": {"type": "string", "default": "", "description": "The condition type, Available."}}},
"apireg.APIServiceStatus": {"type": "object",
  "description": "APIServiceStatus is the observed state of an APIService.",
  "properties": {
    "conditions": {"type": "array", "items": {"$ref": "#/components/schemas/apireg.APIServiceCondition", "default": {}},
      "description": "The current service state of the APIService.",
      "x-kubernetes-list-map-keys": ["type"], "x-kubernetes-list-type": "map",
      "x-kubernetes-patch-merge-key": "type", "x-kubernetes-patch-strategy": "merge"}}},
"apireg.APIService": {"type": "object",
  "description": "APIService represents a server for one API group version. Its name must be version.group.",
  "properties": {
    "spec": {"$ref": "#/components/schemas/apireg.APIServiceSpec", "default": {}, "description": "Where and how the group version is served."},
    "status": {"$ref": "#/components/schemas/apireg.APIServiceStatus", "default": {}, "description": "The observed state of the APIService."}}}
})json";

}  // namespace c5c3::sim::openapi::detail
