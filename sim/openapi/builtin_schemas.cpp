#include "sim/openapi/builtin_schemas.hpp"
#include "sim/openapi/openapi.hpp"

#include <array>
#include <utility>

namespace c5c3::sim::openapi::detail {

namespace {

// Schema names and $refs below use short prefixes, expanded when loaded.
constexpr std::array<std::pair<std::string_view, std::string_view>, 8> prefixes = {{
    {"meta.", "io.k8s.apimachinery.pkg.apis.meta.v1."},
    {"intstr.", "io.k8s.apimachinery.pkg.util.intstr."},
    {"core.", "io.k8s.api.core.v1."},
    {"events.", "io.k8s.api.events.v1."},
    {"coord.", "io.k8s.api.coordination.v1."},
    {"rbac.", "io.k8s.api.rbac.v1."},
    {"apiext.", "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1."},
    {"apireg.", "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1."},
}};

// Descriptions are short paraphrases of the Kubernetes API reference.
constexpr const char* schemas_text = R"json({
"meta.Time": {"type": "string", "format": "date-time",
  "description": "Time is a timestamp in RFC 3339 form, serialized with second precision in UTC."},
"meta.MicroTime": {"type": "string", "format": "date-time",
  "description": "MicroTime is a timestamp in RFC 3339 form with microsecond precision."},
"meta.FieldsV1": {"type": "object",
  "description": "FieldsV1 is the set of fields a manager owns, in the JSON trie format of server-side apply."},
"meta.ManagedFieldsEntry": {"type": "object",
  "description": "ManagedFieldsEntry records the fields one manager set through one operation.",
  "properties": {
    "apiVersion": {"type": "string", "description": "The version of the resource the fields were set in."},
    "fieldsType": {"type": "string", "description": "The format of fieldsV1; only \"FieldsV1\"."},
    "fieldsV1": {"$ref": "#/components/schemas/meta.FieldsV1", "description": "The fields the manager owns."},
    "manager": {"type": "string", "description": "The name of the manager (the field manager of the requests)."},
    "operation": {"type": "string", "description": "Apply or Update: the kind of operation that set the fields."},
    "subresource": {"type": "string", "description": "The subresource the fields were set through, empty for the main resource."},
    "time": {"$ref": "#/components/schemas/meta.Time", "description": "When the fields were last changed by this manager."}}},
"meta.OwnerReference": {"type": "object", "required": ["apiVersion", "kind", "name", "uid"],
  "description": "OwnerReference identifies an owning object in the same namespace (or cluster-scoped).",
  "x-kubernetes-map-type": "atomic",
  "properties": {
    "apiVersion": {"type": "string", "description": "API version of the owner."},
    "blockOwnerDeletion": {"type": "boolean", "description": "If true, foreground deletion of the owner waits for this object to go."},
    "controller": {"type": "boolean", "description": "If true, this reference points to the managing controller."},
    "kind": {"type": "string", "description": "Kind of the owner."},
    "name": {"type": "string", "description": "Name of the owner."},
    "uid": {"type": "string", "description": "UID of the owner."}}},
"meta.ObjectMeta": {"type": "object",
  "description": "ObjectMeta is the metadata every persisted resource has: name, namespace, labels, annotations, ownership and bookkeeping set by the server.",
  "properties": {
    "annotations": {"type": "object", "additionalProperties": {"type": "string", "default": ""},
      "description": "Annotations is an unstructured key value map for arbitrary non-identifying metadata."},
    "creationTimestamp": {"$ref": "#/components/schemas/meta.Time",
      "description": "The server time at which the object was created. Read-only."},
    "deletionGracePeriodSeconds": {"type": "integer", "format": "int64",
      "description": "Seconds the object is allowed to terminate gracefully. Read-only."},
    "deletionTimestamp": {"$ref": "#/components/schemas/meta.Time",
      "description": "When the object will be deleted, set by the server when deletion is requested; the object stays until its finalizers are removed. Read-only."},
    "finalizers": {"type": "array", "items": {"type": "string", "default": ""},
      "description": "Finalizers must be empty before the object is deleted from the registry.",
      "x-kubernetes-list-type": "set", "x-kubernetes-patch-strategy": "merge"},
    "generateName": {"type": "string",
      "description": "A prefix the server uses to generate a unique name when name is not given."},
    "generation": {"type": "integer", "format": "int64",
      "description": "A sequence number for a specific generation of the desired state. Read-only."},
    "labels": {"type": "object", "additionalProperties": {"type": "string", "default": ""},
      "description": "Map of string keys and values used to organize and select objects."},
    "managedFields": {"type": "array", "items": {"$ref": "#/components/schemas/meta.ManagedFieldsEntry", "default": {}},
      "description": "Which manager owns which fields (server-side apply bookkeeping).",
      "x-kubernetes-list-type": "atomic"},
    "name": {"type": "string",
      "description": "Name must be unique within a namespace. Required when creating resources unless generateName is used. Cannot be updated."},
    "namespace": {"type": "string",
      "description": "The namespace the object lives in; empty for cluster-scoped objects. Cannot be updated."},
    "ownerReferences": {"type": "array", "items": {"$ref": "#/components/schemas/meta.OwnerReference", "default": {}},
      "description": "Objects this object depends on; when all are deleted, this object is garbage collected.",
      "x-kubernetes-list-map-keys": ["uid"], "x-kubernetes-list-type": "map",
      "x-kubernetes-patch-merge-key": "uid", "x-kubernetes-patch-strategy": "merge"},
    "resourceVersion": {"type": "string",
      "description": "An opaque value for optimistic concurrency and watches. Read-only."},
    "selfLink": {"type": "string", "description": "Deprecated and not set."},
    "uid": {"type": "string",
      "description": "The unique identifier of this object in time and space. Read-only."}}},
"meta.ListMeta": {"type": "object",
  "description": "ListMeta is the metadata of a list: its resourceVersion and the continue token of paginated lists.",
  "properties": {
    "continue": {"type": "string", "description": "Set when more items are available; pass it as the continue parameter."},
    "remainingItemCount": {"type": "integer", "format": "int64", "description": "Estimated number of items after this page."},
    "resourceVersion": {"type": "string", "description": "The resource version of the list, for watches."},
    "selfLink": {"type": "string", "description": "Deprecated and not set."}}},
"meta.Condition": {"type": "object", "required": ["type", "status", "lastTransitionTime", "reason", "message"],
  "description": "Condition describes one aspect of the current state of an object.",
  "properties": {
    "lastTransitionTime": {"$ref": "#/components/schemas/meta.Time", "description": "When the status last changed."},
    "message": {"type": "string", "default": "", "description": "Human-readable details."},
    "observedGeneration": {"type": "integer", "format": "int64", "description": "The generation the condition was set for."},
    "reason": {"type": "string", "default": "", "description": "CamelCase reason for the last transition."},
    "status": {"type": "string", "default": "", "description": "True, False or Unknown."},
    "type": {"type": "string", "default": "", "description": "Type of the condition, in CamelCase."}}},
"intstr.IntOrString": {"type": "string", "format": "int-or-string",
  "description": "IntOrString holds an int32 or a string."},

"core.NamespaceSpec": {"type": "object", "description": "NamespaceSpec describes a namespace.",
  "properties": {
    "finalizers": {"type": "array", "items": {"type": "string", "default": ""},
      "description": "Finalizers that must be removed before the namespace is removed from storage.",
      "x-kubernetes-list-type": "atomic"}}},
"core.NamespaceCondition": {"type": "object", "required": ["type", "status"],
  "description": "NamespaceCondition describes one aspect of a namespace's state.",
  "properties": {
    "lastTransitionTime": {"$ref": "#/components/schemas/meta.Time", "description": "When the status last changed."},
    "message": {"type": "string", "description": "Human-readable details."},
    "reason": {"type": "string", "description": "Reason of the last transition."},
    "status": {"type": "string", "default": "", "description": "True, False or Unknown."},
    "type": {"type": "string", "default": "", "description": "Type of the condition."}}},
"core.NamespaceStatus": {"type": "object", "description": "NamespaceStatus is the observed state of a namespace.",
  "properties": {
    "conditions": {"type": "array", "items": {"$ref": "#/components/schemas/core.NamespaceCondition", "default": {}},
      "description": "The latest observations of the namespace's state.",
      "x-kubernetes-list-map-keys": ["type"], "x-kubernetes-list-type": "map",
      "x-kubernetes-patch-merge-key": "type", "x-kubernetes-patch-strategy": "merge"},
    "phase": {"type": "string", "enum": ["Active", "Terminating"],
      "description": "The lifecycle phase of the namespace."}}},
"core.Namespace": {"type": "object",
  "description": "Namespace provides a scope for names; namespaced objects live in exactly one.",
  "properties": {
    "spec": {"$ref": "#/components/schemas/core.NamespaceSpec", "default": {}, "description": "The behavior of the namespace."},
    "status": {"$ref": "#/components/schemas/core.NamespaceStatus", "default": {}, "description": "The observed state of the namespace."}}},

"core.Secret": {"type": "object",
  "description": "Secret holds secret data of a certain type. The total size of the data must be less than 1 MiB.",
  "properties": {
    "data": {"type": "object", "additionalProperties": {"type": "string", "format": "byte"},
      "description": "Data holds the secret data: keys of alphanumerics, '-', '_' or '.', values base64 encoded."},
    "immutable": {"type": "boolean",
      "description": "If true, the data cannot be changed after creation."},
    "stringData": {"type": "object", "additionalProperties": {"type": "string", "default": ""},
      "description": "Write-only convenience: plain string values merged into data on write; never returned on reads."},
    "type": {"type": "string",
      "description": "Used to facilitate programmatic handling of secret data, e.g. Opaque or kubernetes.io/tls."}}},

"core.ConfigMap": {"type": "object",
  "description": "ConfigMap holds configuration data for workloads to consume.",
  "properties": {
    "binaryData": {"type": "object", "additionalProperties": {"type": "string", "format": "byte"},
      "description": "Binary data, base64 encoded; keys must not overlap with data."},
    "data": {"type": "object", "additionalProperties": {"type": "string", "default": ""},
      "description": "Configuration data as UTF-8 strings."},
    "immutable": {"type": "boolean", "description": "If true, the data cannot be changed after creation."}}},

"core.ServicePort": {"type": "object", "required": ["port"],
  "description": "ServicePort is one port a service exposes.",
  "properties": {
    "appProtocol": {"type": "string", "description": "The application protocol of this port."},
    "name": {"type": "string", "description": "The name of the port; required when there is more than one."},
    "nodePort": {"type": "integer", "format": "int32", "description": "The port on each node for NodePort and LoadBalancer services."},
    "port": {"type": "integer", "format": "int32", "default": 0, "description": "The port the service exposes."},
    "protocol": {"type": "string", "default": "TCP", "enum": ["SCTP", "TCP", "UDP"],
      "description": "The IP protocol of the port: TCP, UDP or SCTP. Default TCP."},
    "targetPort": {"$ref": "#/components/schemas/intstr.IntOrString",
      "description": "The number or name of the port on the pods; defaults to port."}}},
"core.ServiceSpec": {"type": "object", "description": "ServiceSpec describes the attributes a user creates on a service.",
  "properties": {
    "clusterIP": {"type": "string", "description": "The IP address of the service, usually assigned by the server; \"None\" makes a headless service."},
    "clusterIPs": {"type": "array", "items": {"type": "string", "default": ""},
      "description": "The IP addresses of the service, one per IP family.", "x-kubernetes-list-type": "atomic"},
    "externalIPs": {"type": "array", "items": {"type": "string", "default": ""},
      "description": "IP addresses the cluster also accepts traffic for.", "x-kubernetes-list-type": "atomic"},
    "externalName": {"type": "string", "description": "The DNS name an ExternalName service aliases."},
    "externalTrafficPolicy": {"type": "string", "enum": ["Cluster", "Local"],
      "description": "How traffic from outside the cluster is routed: Cluster or Local."},
    "internalTrafficPolicy": {"type": "string", "enum": ["Cluster", "Local"],
      "description": "How traffic from inside the cluster is routed: Cluster or Local."},
    "ipFamilies": {"type": "array", "items": {"type": "string", "default": "", "enum": ["", "IPv4", "IPv6"]},
      "description": "The IP families of the service.", "x-kubernetes-list-type": "atomic"},
    "ipFamilyPolicy": {"type": "string", "enum": ["PreferDualStack", "RequireDualStack", "SingleStack"],
      "description": "Whether the service is single- or dual-stack."},
    "loadBalancerIP": {"type": "string", "description": "Deprecated: the requested load balancer IP."},
    "ports": {"type": "array", "items": {"$ref": "#/components/schemas/core.ServicePort", "default": {}},
      "description": "The ports the service exposes.",
      "x-kubernetes-list-map-keys": ["port", "protocol"], "x-kubernetes-list-type": "map",
      "x-kubernetes-patch-merge-key": "port", "x-kubernetes-patch-strategy": "merge"},
    "publishNotReadyAddresses": {"type": "boolean", "description": "If true, endpoints include addresses of pods that are not ready."},
    "selector": {"type": "object", "additionalProperties": {"type": "string", "default": ""},
      "description": "Traffic goes to pods whose labels match this selector.", "x-kubernetes-map-type": "atomic"},
    "sessionAffinity": {"type": "string", "enum": ["ClientIP", "None"], "description": "ClientIP or None. Default None."},
    "type": {"type": "string", "enum": ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"],
      "description": "How the service is exposed: ClusterIP (default), NodePort, LoadBalancer or ExternalName."}}},
"core.LoadBalancerIngress": {"type": "object", "description": "An ingress point of a load balancer.",
  "properties": {
    "hostname": {"type": "string", "description": "A DNS name of the ingress point."},
    "ip": {"type": "string", "description": "An IP address of the ingress point."}}},
"core.ServiceStatus": {"type": "object", "description": "ServiceStatus is the observed state of a service.",
  "properties": {
    "conditions": {"type": "array", "items": {"$ref": "#/components/schemas/meta.Condition", "default": {}},
      "description": "The current conditions of the service.",
      "x-kubernetes-list-map-keys": ["type"], "x-kubernetes-list-type": "map",
      "x-kubernetes-patch-merge-key": "type", "x-kubernetes-patch-strategy": "merge"},
    "loadBalancer": {"type": "object", "default": {}, "description": "The status of the load balancer, if any.",
      "properties": {"ingress": {"type": "array", "items": {"$ref": "#/components/schemas/core.LoadBalancerIngress", "default": {}},
        "description": "The ingress points of the load balancer.", "x-kubernetes-list-type": "atomic"}}}}},
"core.Service": {"type": "object",
  "description": "Service is a named abstraction of a network service: a port the proxy listens on and a selector for the pods that serve it.",
  "properties": {
    "spec": {"$ref": "#/components/schemas/core.ServiceSpec", "default": {}, "description": "The behavior of the service."},
    "status": {"$ref": "#/components/schemas/core.ServiceStatus", "default": {}, "description": "The observed state of the service."}}},

"core.ObjectReference": {"type": "object", "x-kubernetes-map-type": "atomic",
  "description": "ObjectReference points to an object.",
  "properties": {
    "apiVersion": {"type": "string", "description": "API version of the referent."},
    "fieldPath": {"type": "string", "description": "A field of the referent, e.g. spec.containers{name}."},
    "kind": {"type": "string", "description": "Kind of the referent."},
    "name": {"type": "string", "description": "Name of the referent."},
    "namespace": {"type": "string", "description": "Namespace of the referent."},
    "resourceVersion": {"type": "string", "description": "The referent's resourceVersion."},
    "uid": {"type": "string", "description": "UID of the referent."}}},
"core.LocalObjectReference": {"type": "object", "x-kubernetes-map-type": "atomic",
  "description": "LocalObjectReference names an object in the same namespace.",
  "properties": {"name": {"type": "string", "default": "", "description": "Name of the referent."}}},
"core.EndpointAddress": {"type": "object", "required": ["ip"], "x-kubernetes-map-type": "atomic",
  "description": "EndpointAddress is one IP address of an endpoint.",
  "properties": {
    "hostname": {"type": "string", "description": "The hostname of the endpoint."},
    "ip": {"type": "string", "default": "", "description": "The IP of the endpoint."},
    "nodeName": {"type": "string", "description": "The node hosting the endpoint."},
    "targetRef": {"$ref": "#/components/schemas/core.ObjectReference", "description": "The object providing the endpoint."}}},
"core.EndpointPort": {"type": "object", "required": ["port"], "x-kubernetes-map-type": "atomic",
  "description": "EndpointPort is one port of an endpoint.",
  "properties": {
    "appProtocol": {"type": "string", "description": "The application protocol of the port."},
    "name": {"type": "string", "description": "The name of the port, matching the service port's name."},
    "port": {"type": "integer", "format": "int32", "default": 0, "description": "The port number."},
    "protocol": {"type": "string", "enum": ["SCTP", "TCP", "UDP"], "description": "TCP, UDP or SCTP. Default TCP."}}},
"core.EndpointSubset": {"type": "object",
  "description": "EndpointSubset is a set of addresses sharing a set of ports.",
  "properties": {
    "addresses": {"type": "array", "items": {"$ref": "#/components/schemas/core.EndpointAddress", "default": {}},
      "description": "Ready addresses.", "x-kubernetes-list-type": "atomic"},
    "notReadyAddresses": {"type": "array", "items": {"$ref": "#/components/schemas/core.EndpointAddress", "default": {}},
      "description": "Addresses that are not ready yet.", "x-kubernetes-list-type": "atomic"},
    "ports": {"type": "array", "items": {"$ref": "#/components/schemas/core.EndpointPort", "default": {}},
      "description": "The ports of the addresses.", "x-kubernetes-list-type": "atomic"}}},
"core.Endpoints": {"type": "object",
  "description": "Endpoints is the set of addresses and ports that implement a service.",
  "properties": {
    "subsets": {"type": "array", "items": {"$ref": "#/components/schemas/core.EndpointSubset", "default": {}},
      "description": "The sets of addresses and ports of the service.", "x-kubernetes-list-type": "atomic"}}},

"core.ServiceAccount": {"type": "object",
  "description": "ServiceAccount binds a name, understood by users and peripheral systems, to an identity for processes.",
  "properties": {
    "automountServiceAccountToken": {"type": "boolean", "description": "Whether pods using this account mount a token automatically."},
    "imagePullSecrets": {"type": "array", "items": {"$ref": "#/components/schemas/core.LocalObjectReference", "default": {}},
      "description": "Secrets used to pull images for pods using this account.", "x-kubernetes-list-type": "atomic"},
    "secrets": {"type": "array", "items": {"$ref": "#/components/schemas/core.ObjectReference", "default": {}},
      "description": "Secrets pods running as this account may use.",
      "x-kubernetes-list-map-keys": ["name"], "x-kubernetes-list-type": "map",
      "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge"}}},

"core.EventSource": {"type": "object", "description": "EventSource names the component that reported an event.",
  "properties": {
    "component": {"type": "string", "description": "The component reporting the event."},
    "host": {"type": "string", "description": "The node the event was reported from."}}},
"core.EventSeries": {"type": "object", "description": "EventSeries describes a series of repeated events.",
  "properties": {
    "count": {"type": "integer", "format": "int32", "description": "Occurrences of the event in the series so far."},
    "lastObservedTime": {"$ref": "#/components/schemas/meta.MicroTime", "description": "When the last occurrence was observed."}}},
"core.Event": {"type": "object", "required": ["metadata", "involvedObject"],
  "description": "Event is a report of an event somewhere in the cluster.",
  "properties": {
    "action": {"type": "string", "description": "What action was taken or failed regarding the object."},
    "count": {"type": "integer", "format": "int32", "description": "The number of times this event has occurred."},
    "eventTime": {"$ref": "#/components/schemas/meta.MicroTime", "description": "When the event was first observed."},
    "firstTimestamp": {"$ref": "#/components/schemas/meta.Time", "description": "When the event was first recorded."},
    "involvedObject": {"$ref": "#/components/schemas/core.ObjectReference", "default": {}, "description": "The object this event is about."},
    "lastTimestamp": {"$ref": "#/components/schemas/meta.Time", "description": "When the most recent occurrence was recorded."},
    "message": {"type": "string", "description": "A human-readable description of the status of this operation."},
    "reason": {"type": "string", "description": "Short, machine understandable reason for the transition into the object's current status."},
    "related": {"$ref": "#/components/schemas/core.ObjectReference", "description": "An optional secondary object."},
    "reportingComponent": {"type": "string", "default": "", "description": "The controller that emitted the event."},
    "reportingInstance": {"type": "string", "default": "", "description": "The ID of the controller instance."},
    "series": {"$ref": "#/components/schemas/core.EventSeries", "description": "Data about the series this event belongs to."},
    "source": {"$ref": "#/components/schemas/core.EventSource", "default": {}, "description": "The component reporting this event."},
    "type": {"type": "string", "description": "Type of this event: Normal or Warning."}}},

"events.EventSeries": {"type": "object", "required": ["count", "lastObservedTime"],
  "description": "EventSeries describes a series of repeated events.",
  "properties": {
    "count": {"type": "integer", "format": "int32", "default": 0, "description": "Occurrences of the event in the series so far."},
    "lastObservedTime": {"$ref": "#/components/schemas/meta.MicroTime", "description": "When the last occurrence was observed."}}},
"events.Event": {"type": "object", "required": ["eventTime"],
  "description": "Event is a report of an event somewhere in the cluster (events.k8s.io).",
  "properties": {
    "action": {"type": "string", "description": "What action was taken or failed regarding the regarding object."},
    "deprecatedCount": {"type": "integer", "format": "int32", "description": "Deprecated field kept for core/v1 Event compatibility."},
    "deprecatedFirstTimestamp": {"$ref": "#/components/schemas/meta.Time", "description": "Deprecated field kept for core/v1 Event compatibility."},
    "deprecatedLastTimestamp": {"$ref": "#/components/schemas/meta.Time", "description": "Deprecated field kept for core/v1 Event compatibility."},
    "deprecatedSource": {"$ref": "#/components/schemas/core.EventSource", "default": {}, "description": "Deprecated field kept for core/v1 Event compatibility."},
    "eventTime": {"$ref": "#/components/schemas/meta.MicroTime", "description": "When the event was first observed. Required."},
    "note": {"type": "string", "description": "A human-readable description of the status of this operation, at most 1 kB."},
    "reason": {"type": "string", "description": "Why the action was taken, in CamelCase."},
    "regarding": {"$ref": "#/components/schemas/core.ObjectReference", "default": {}, "description": "The object this event is about."},
    "related": {"$ref": "#/components/schemas/core.ObjectReference", "description": "An optional secondary object."},
    "reportingController": {"type": "string", "description": "The controller that emitted the event, e.g. kubernetes.io/kubelet."},
    "reportingInstance": {"type": "string", "description": "The ID of the controller instance."},
    "series": {"$ref": "#/components/schemas/events.EventSeries", "description": "Data about the series this event belongs to."},
    "type": {"type": "string", "description": "Type of this event: Normal or Warning."}}},

"coord.LeaseSpec": {"type": "object", "description": "LeaseSpec is the specification of a Lease.",
  "properties": {
    "acquireTime": {"$ref": "#/components/schemas/meta.MicroTime", "description": "When the current lease was acquired."},
    "holderIdentity": {"type": "string", "description": "The identity of the holder of the lease."},
    "leaseDurationSeconds": {"type": "integer", "format": "int32", "description": "How long candidates wait to force-acquire the lease, counted from the last renewal."},
    "leaseTransitions": {"type": "integer", "format": "int32", "description": "The number of transitions of the lease between holders."},
    "preferredHolder": {"type": "string", "description": "A hint for the next holder (coordinated leader election)."},
    "renewTime": {"$ref": "#/components/schemas/meta.MicroTime", "description": "When the current holder last renewed the lease."},
    "strategy": {"type": "string", "description": "The strategy for picking the leader (coordinated leader election)."}}},
"coord.Lease": {"type": "object", "description": "Lease defines a lease concept, used for leader election and heartbeats.",
  "properties": {
    "spec": {"$ref": "#/components/schemas/coord.LeaseSpec", "default": {}, "description": "The specification of the lease."}}},

"rbac.PolicyRule": {"type": "object", "required": ["verbs"],
  "description": "PolicyRule describes actions allowed on resources or non-resource URLs.",
  "properties": {
    "apiGroups": {"type": "array", "items": {"type": "string", "default": ""}, "x-kubernetes-list-type": "atomic",
      "description": "The API groups of the resources; \"\" is the core group, \"*\" all groups."},
    "nonResourceURLs": {"type": "array", "items": {"type": "string", "default": ""}, "x-kubernetes-list-type": "atomic",
      "description": "Partial URLs a user may access (ClusterRoles only)."},
    "resourceNames": {"type": "array", "items": {"type": "string", "default": ""}, "x-kubernetes-list-type": "atomic",
      "description": "An optional allow-list of object names."},
    "resources": {"type": "array", "items": {"type": "string", "default": ""}, "x-kubernetes-list-type": "atomic",
      "description": "The resources the rule applies to; \"*\" means all."},
    "verbs": {"type": "array", "items": {"type": "string", "default": ""}, "x-kubernetes-list-type": "atomic",
      "description": "The verbs the rule allows; \"*\" means all."}}},
"rbac.AggregationRule": {"type": "object", "description": "AggregationRule selects ClusterRoles whose rules are combined into this one.",
  "properties": {
    "clusterRoleSelectors": {"type": "array", "items": {"$ref": "#/components/schemas/meta.LabelSelector", "default": {}},
      "description": "Selectors of the ClusterRoles to aggregate.", "x-kubernetes-list-type": "atomic"}}},
"meta.LabelSelector": {"type": "object", "x-kubernetes-map-type": "atomic",
  "description": "A label selector: matchLabels and matchExpressions, ANDed.",
  "properties": {
    "matchExpressions": {"type": "array", "items": {"type": "object", "required": ["key", "operator"],
      "properties": {"key": {"type": "string", "default": ""}, "operator": {"type": "string", "default": ""},
                     "values": {"type": "array", "items": {"type": "string", "default": ""}, "x-kubernetes-list-type": "atomic"}}},
      "description": "Label selector requirements.", "x-kubernetes-list-type": "atomic"},
    "matchLabels": {"type": "object", "additionalProperties": {"type": "string", "default": ""},
      "description": "Labels that must all match."}}},
"rbac.Subject": {"type": "object", "required": ["kind", "name"], "x-kubernetes-map-type": "atomic",
  "description": "Subject is a user, group or service account a binding applies to.",
  "properties": {
    "apiGroup": {"type": "string", "description": "The API group of the subject: rbac.authorization.k8s.io for User and Group, empty for ServiceAccount."},
    "kind": {"type": "string", "default": "", "description": "User, Group or ServiceAccount."},
    "name": {"type": "string", "default": "", "description": "The name of the subject."},
    "namespace": {"type": "string", "description": "The namespace of a ServiceAccount subject."}}},
"rbac.RoleRef": {"type": "object", "required": ["apiGroup", "kind", "name"], "x-kubernetes-map-type": "atomic",
  "description": "RoleRef names the role a binding grants.",
  "properties": {
    "apiGroup": {"type": "string", "default": "", "description": "The API group of the role."},
    "kind": {"type": "string", "default": "", "description": "Role or ClusterRole."},
    "name": {"type": "string", "default": "", "description": "The name of the role."}}},
"rbac.Role": {"type": "object", "description": "Role is a namespaced set of PolicyRules, granted by a RoleBinding.",
  "properties": {
    "rules": {"type": "array", "items": {"$ref": "#/components/schemas/rbac.PolicyRule", "default": {}},
      "description": "The rules of the role.", "x-kubernetes-list-type": "atomic"}}},
"rbac.ClusterRole": {"type": "object", "description": "ClusterRole is a cluster-wide set of PolicyRules, granted by a RoleBinding or ClusterRoleBinding.",
  "properties": {
    "aggregationRule": {"$ref": "#/components/schemas/rbac.AggregationRule", "description": "If set, the rules are computed by the controller from the selected ClusterRoles."},
    "rules": {"type": "array", "items": {"$ref": "#/components/schemas/rbac.PolicyRule", "default": {}},
      "description": "The rules of the role.", "x-kubernetes-list-type": "atomic"}}},
"rbac.RoleBinding": {"type": "object", "required": ["roleRef"],
  "description": "RoleBinding grants the permissions of a Role or ClusterRole within a namespace.",
  "properties": {
    "roleRef": {"$ref": "#/components/schemas/rbac.RoleRef", "default": {}, "description": "The role granted. Cannot be updated."},
    "subjects": {"type": "array", "items": {"$ref": "#/components/schemas/rbac.Subject", "default": {}},
      "description": "Who the role is granted to.", "x-kubernetes-list-type": "atomic"}}},
"rbac.ClusterRoleBinding": {"type": "object", "required": ["roleRef"],
  "description": "ClusterRoleBinding grants the permissions of a ClusterRole cluster-wide.",
  "properties": {
    "roleRef": {"$ref": "#/components/schemas/rbac.RoleRef", "default": {}, "description": "The role granted. Cannot be updated."},
    "subjects": {"type": "array", "items": {"$ref": "#/components/schemas/rbac.Subject", "default": {}},
      "description": "Who the role is granted to.", "x-kubernetes-list-type": "atomic"}}},

"apiext.JSONSchemaProps": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
  "description": "JSONSchemaProps is a JSON-Schema following Specification Draft 4 (OpenAPI v3 subset)."},
"apiext.CustomResourceDefinitionNames": {"type": "object", "required": ["plural", "kind"],
  "description": "The names a custom resource is served under.",
  "properties": {
    "categories": {"type": "array", "items": {"type": "string", "default": ""}, "x-kubernetes-list-type": "atomic",
      "description": "Grouped resources this resource belongs to, e.g. all."},
    "kind": {"type": "string", "default": "", "description": "The serialized kind, CamelCase and singular."},
    "listKind": {"type": "string", "description": "The kind of lists; defaults to kind + List."},
    "plural": {"type": "string", "default": "", "description": "The plural name, all lowercase; the resource in URLs."},
    "shortNames": {"type": "array", "items": {"type": "string", "default": ""}, "x-kubernetes-list-type": "atomic",
      "description": "Short names for kubectl."},
    "singular": {"type": "string", "description": "The singular name, all lowercase; defaults to the lowercased kind."}}},
"apiext.CustomResourceColumnDefinition": {"type": "object", "required": ["name", "type", "jsonPath"],
  "description": "A column of kubectl get's output for the custom resource.",
  "properties": {
    "description": {"type": "string", "description": "A human readable description of the column."},
    "format": {"type": "string", "description": "An optional OpenAPI format of the column."},
    "jsonPath": {"type": "string", "default": "", "description": "A simple JSONPath evaluated against each object."},
    "name": {"type": "string", "default": "", "description": "The column's header."},
    "priority": {"type": "integer", "format": "int32", "description": "0 shows the column in the standard view, more only with -o wide."},
    "type": {"type": "string", "default": "", "description": "integer, number, string, boolean or date."}}},
"apiext.CustomResourceDefinitionVersion": {"type": "object", "required": ["name", "served", "storage"],
  "description": "One version of a custom resource.",
  "properties": {
    "additionalPrinterColumns": {"type": "array", "items": {"$ref": "#/components/schemas/apiext.CustomResourceColumnDefinition", "default": {}},
      "description": "Columns kubectl get shows.", "x-kubernetes-list-type": "atomic"},
    "deprecated": {"type": "boolean", "description": "Whether this version is deprecated."},
    "deprecationWarning": {"type": "string", "description": "The warning returned to clients of a deprecated version."},
    "name": {"type": "string", "default": "", "description": "The version name, e.g. v1alpha1."},
    "schema": {"type": "object", "description": "The schema used for validation, pruning and defaulting.",
      "properties": {"openAPIV3Schema": {"$ref": "#/components/schemas/apiext.JSONSchemaProps", "description": "The OpenAPI v3 schema of the version."}}},
    "served": {"type": "boolean", "default": false, "description": "Whether this version is served by the REST API."},
    "storage": {"type": "boolean", "default": false, "description": "Whether objects are stored in this version; exactly one version is."},
    "subresources": {"type": "object", "description": "The subresources of this version.",
      "properties": {"scale": {"type": "object", "description": "Enables the scale subresource.",
                                "x-kubernetes-preserve-unknown-fields": true},
                     "status": {"type": "object", "description": "Enables the status subresource."}}}}},
"apiext.CustomResourceDefinitionSpec": {"type": "object", "required": ["group", "names", "scope", "versions"],
  "description": "The desired state of a CustomResourceDefinition.",
  "properties": {
    "conversion": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
      "description": "How versions are converted: None or Webhook."},
    "group": {"type": "string", "default": "", "description": "The API group of the resource."},
    "names": {"$ref": "#/components/schemas/apiext.CustomResourceDefinitionNames", "default": {}, "description": "The names of the resource."},
    "preserveUnknownFields": {"type": "boolean", "description": "Deprecated; must be false."},
    "scope": {"type": "string", "default": "", "description": "Cluster or Namespaced."},
    "versions": {"type": "array", "items": {"$ref": "#/components/schemas/apiext.CustomResourceDefinitionVersion", "default": {}},
      "description": "The served versions.", "x-kubernetes-list-type": "atomic"}}},
"apiext.CustomResourceDefinitionCondition": {"type": "object", "required": ["type", "status"],
  "description": "A condition of a CustomResourceDefinition, such as Established or NamesAccepted.",
  "properties": {
    "lastTransitionTime": {"$ref": "#/components/schemas/meta.Time", "description": "When the status last changed."},
    "message": {"type": "string", "description": "Human-readable details."},
    "reason": {"type": "string", "description": "Reason of the last transition."},
    "status": {"type": "string", "default": "", "description": "True, False or Unknown."},
    "type": {"type": "string", "default": "", "description": "Type of the condition."}}},
"apiext.CustomResourceDefinitionStatus": {"type": "object",
  "description": "The observed state of a CustomResourceDefinition.",
  "properties": {
    "acceptedNames": {"$ref": "#/components/schemas/apiext.CustomResourceDefinitionNames", "default": {}, "description": "The names actually being served."},
    "conditions": {"type": "array", "items": {"$ref": "#/components/schemas/apiext.CustomResourceDefinitionCondition", "default": {}},
      "description": "The conditions of the definition.",
      "x-kubernetes-list-map-keys": ["type"], "x-kubernetes-list-type": "map"},
    "storedVersions": {"type": "array", "items": {"type": "string", "default": ""}, "x-kubernetes-list-type": "atomic",
      "description": "The versions objects have ever been stored in."}}},
"apiext.CustomResourceDefinition": {"type": "object", "required": ["spec"],
  "description": "CustomResourceDefinition declares a custom resource the API server serves.",
  "properties": {
    "spec": {"$ref": "#/components/schemas/apiext.CustomResourceDefinitionSpec", "default": {}, "description": "The desired state."},
    "status": {"$ref": "#/components/schemas/apiext.CustomResourceDefinitionStatus", "default": {}, "description": "The observed state."}}}
})json";

std::string expand(std::string_view name) {
  for (const auto& [short_prefix, full] : prefixes)
    if (name.substr(0, short_prefix.size()) == short_prefix)
      return std::string(full) + std::string(name.substr(short_prefix.size()));
  return std::string(name);
}

void expand_refs(k8s::json_value& v, k8s::json_allocator& alloc) {
  if (v.IsObject()) {
    for (auto& m : v.GetObject()) {
      if (k8s::as_string_view(m.name) == "$ref" && m.value.IsString()) {
        constexpr std::string_view root = "#/components/schemas/";
        std::string_view ref = k8s::as_string_view(m.value);
        if (ref.substr(0, root.size()) == root)
          m.value = k8s::make_string(std::string(root) + expand(ref.substr(root.size())), alloc);
      } else {
        expand_refs(m.value, alloc);
      }
    }
  } else if (v.IsArray()) {
    for (auto& e : v.GetArray()) expand_refs(e, alloc);
  }
}

k8s::json_document load() {
  k8s::json_document out(rapidjson::kObjectType);
  auto& alloc = out.GetAllocator();
  for (const char* text : {schemas_text, apiregistration_schemas_text}) {
    auto parsed = k8s::parse_json(text);
    if (!parsed) continue;  // the literals are checked by the tests
    for (auto& m : parsed->GetObject()) {
      k8s::json_value schema = k8s::copy_json(m.value, alloc);
      expand_refs(schema, alloc);
      out.AddMember(k8s::make_string(expand(k8s::as_string_view(m.name)), alloc), schema, alloc);
    }
  }
  return out;
}

}  // namespace

const k8s::json_value& builtin_schemas() {
  static const k8s::json_document doc = load();
  return doc;
}

std::string builtin_schema_name(std::string_view group, std::string_view version,
                                std::string_view kind) {
  if (version != "v1") return {};
  std::string_view prefix;
  if (group.empty()) prefix = "core.";
  else if (group == "events.k8s.io") prefix = "events.";
  else if (group == "coordination.k8s.io") prefix = "coord.";
  else if (group == "rbac.authorization.k8s.io") prefix = "rbac.";
  else if (group == "apiextensions.k8s.io") prefix = "apiext.";
  else if (group == "apiregistration.k8s.io") prefix = "apireg.";
  else return {};
  std::string name = expand(std::string(prefix) + std::string(kind));
  return k8s::member(builtin_schemas(), name) ? name : std::string();
}

}  // namespace c5c3::sim::openapi::detail

namespace c5c3::sim::openapi {

const k8s::json_value* builtin_kind_schema(std::string_view group, std::string_view version,
                                           std::string_view kind) {
  auto name = detail::builtin_schema_name(group, version, kind);
  return name.empty() ? nullptr : k8s::member(detail::builtin_schemas(), name);
}

const k8s::json_value* builtin_schema_ref(std::string_view ref) {
  constexpr std::string_view root = "#/components/schemas/";
  if (ref.substr(0, root.size()) != root) return nullptr;
  return k8s::member(detail::builtin_schemas(), ref.substr(root.size()));
}

}  // namespace c5c3::sim::openapi
