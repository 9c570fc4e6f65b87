#include "sim/ssa/builtin_schemas.hpp"

#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace c5c3::sim::ssa {

namespace {

// OpenAPI v3 fragments, only the fields whose merge behaviour differs from
// the default (scalars and plain structs need no entry to merge right, but
// are declared where managedFields must tell a struct from a map).
constexpr const char* kString = R"({"type":"string"})";

std::string str_map(bool atomic = false) {
  return std::string(R"({"type":"object","additionalProperties":{"type":"string"})") +
         (atomic ? R"(,"x-kubernetes-map-type":"atomic"})" : "}");
}

std::string obj(const std::string& props) {
  return R"({"type":"object","properties":{)" + props + "}}";
}

std::string scalars(std::initializer_list<const char*> names) {
  std::string out;
  for (const char* n : names) {
    if (!out.empty()) out += ',';
    out += std::string("\"") + n + "\":" + kString;
  }
  return out;
}

std::string atomic_list(const std::string& items = kString) {
  return R"({"type":"array","x-kubernetes-list-type":"atomic","items":)" + items + "}";
}

std::string conditions() {
  return R"({"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["type"],)"
         R"("x-kubernetes-patch-strategy":"merge","x-kubernetes-patch-merge-key":"type","items":)" +
         obj(scalars({"type", "status", "reason", "message", "lastTransitionTime",
                      "lastProbeTime", "observedGeneration"})) +
         "}";
}

std::string object_reference() {
  return obj(scalars(
      {"kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"}));
}

struct builtin {
  std::string schema;  // OpenAPI v3 of the whole object (metadata added later)
  std::string empty_object;
};

std::map<std::pair<std::string, std::string>, builtin> make_builtins() {
  std::map<std::pair<std::string, std::string>, builtin> b;
  b[{"v1", "Namespace"}] = {
      obj(R"("spec":)" + obj(R"("finalizers":)" + atomic_list()) + R"(,"status":)" +
          obj(R"("phase":{"type":"string"},"conditions":)" + conditions())),
      R"({"spec":{},"status":{}})"};
  b[{"v1", "ConfigMap"}] = {
      obj(R"("data":)" + str_map() + R"(,"binaryData":)" + str_map() +
          R"(,"immutable":{"type":"boolean"})"),
      "{}"};
  b[{"v1", "Secret"}] = {
      obj(R"("data":)" + str_map() + R"(,"stringData":)" + str_map() +
          R"(,"type":{"type":"string"},"immutable":{"type":"boolean"})"),
      "{}"};
  {
    std::string port =
        obj(scalars({"name", "appProtocol"}) +
            R"(,"protocol":{"type":"string","default":"TCP"},"port":{"type":"integer"},)"
            R"("targetPort":{"x-kubernetes-int-or-string":true},"nodePort":{"type":"integer"})");
    std::string ports =
        R"({"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["port","protocol"],)"
        R"("x-kubernetes-patch-strategy":"merge","x-kubernetes-patch-merge-key":"port","items":)" +
        port + "}";
    std::string spec = obj(
        R"("ports":)" + ports + R"(,"selector":)" + str_map(true) + R"(,"clusterIPs":)" +
        atomic_list() + R"(,"externalIPs":)" + atomic_list() + R"(,"loadBalancerSourceRanges":)" +
        atomic_list() + R"(,"ipFamilies":)" + atomic_list() + "," +
        scalars({"type", "clusterIP", "sessionAffinity", "loadBalancerIP", "externalName",
                 "externalTrafficPolicy", "healthCheckNodePort", "publishNotReadyAddresses",
                 "ipFamilyPolicy", "allocateLoadBalancerNodePorts", "loadBalancerClass",
                 "internalTrafficPolicy", "trafficDistribution"}) +
        R"(,"sessionAffinityConfig":)" + obj(R"("clientIP":)" + obj(scalars({"timeoutSeconds"}))));
    std::string status = obj(R"("loadBalancer":)" +
                             obj(R"("ingress":)" + atomic_list(R"({"type":"object"})")) +
                             R"(,"conditions":)" + conditions());
    b[{"v1", "Service"}] = {obj(R"("spec":)" + spec + R"(,"status":)" + status),
                            R"({"spec":{},"status":{"loadBalancer":{}}})"};
  }
  b[{"v1", "Endpoints"}] = {obj(R"("subsets":)" + atomic_list(R"({"type":"object"})")), "{}"};
  b[{"v1", "ServiceAccount"}] = {
      obj(R"("secrets":{"type":"array","x-kubernetes-patch-strategy":"merge",)"
          R"("x-kubernetes-patch-merge-key":"name","items":)" +
          object_reference() + R"(},"imagePullSecrets":)" + atomic_list(obj(scalars({"name"}))) +
          R"(,"automountServiceAccountToken":{"type":"boolean"})"),
      "{}"};
  {
    std::string core_event =
        obj(R"("involvedObject":)" + object_reference() + R"(,"related":)" + object_reference() +
            R"(,"source":)" + obj(scalars({"component", "host"})) + R"(,"series":)" +
            obj(scalars({"count", "lastObservedTime"})) + "," +
            scalars({"reason", "message", "firstTimestamp", "lastTimestamp", "count", "type",
                     "eventTime", "action", "reportingComponent", "reportingInstance"}));
    b[{"v1", "Event"}] = {core_event, R"({"involvedObject":{},"source":{}})"};
    std::string events_event =
        obj(R"("regarding":)" + object_reference() + R"(,"related":)" + object_reference() +
            R"(,"deprecatedSource":)" + obj(scalars({"component", "host"})) + R"(,"series":)" +
            obj(scalars({"count", "lastObservedTime"})) + "," +
            scalars({"eventTime", "reportingController", "reportingInstance", "action", "reason",
                     "note", "type", "deprecatedFirstTimestamp", "deprecatedLastTimestamp",
                     "deprecatedCount"}));
    b[{"events.k8s.io/v1", "Event"}] = {events_event,
                                        R"({"regarding":{},"deprecatedSource":{}})"};
  }
  b[{"coordination.k8s.io/v1", "Lease"}] = {
      obj(R"("spec":)" + obj(scalars({"holderIdentity", "leaseDurationSeconds", "acquireTime",
                                       "renewTime", "leaseTransitions", "strategy",
                                       "preferredHolder"}))),
      R"({"spec":{}})"};
  {
    std::string rule = obj(R"("verbs":)" + atomic_list() + R"(,"apiGroups":)" + atomic_list() +
                           R"(,"resources":)" + atomic_list() + R"(,"resourceNames":)" +
                           atomic_list() + R"(,"nonResourceURLs":)" + atomic_list());
    std::string rules = atomic_list(rule);
    std::string subject = obj(scalars({"kind", "apiGroup", "name", "namespace"}));
    std::string role_ref = obj(scalars({"apiGroup", "kind", "name"}));
    const std::string rbac = "rbac.authorization.k8s.io/v1";
    b[{rbac, "Role"}] = {obj(R"("rules":)" + rules), "{}"};
    b[{rbac, "ClusterRole"}] = {
        obj(R"("rules":)" + rules + R"(,"aggregationRule":)" +
            obj(R"("clusterRoleSelectors":)" + atomic_list(R"({"type":"object"})"))),
        "{}"};
    std::string binding = obj(R"("subjects":)" + atomic_list(subject) + R"(,"roleRef":)" + role_ref);
    b[{rbac, "RoleBinding"}] = {binding, R"({"roleRef":{}})"};
    b[{rbac, "ClusterRoleBinding"}] = {binding, R"({"roleRef":{}})"};
  }
  b[{"apiregistration.k8s.io/v1", "APIService"}] = {
      obj(R"("spec":)" +
          obj(R"("service":)" + obj(scalars({"namespace", "name", "port"})) + "," +
              scalars({"group", "version", "insecureSkipTLSVerify", "caBundle",
                       "groupPriorityMinimum", "versionPriority"})) +
          R"(,"status":)" + obj(R"("conditions":)" + conditions())),
      R"({"spec":{},"status":{}})"};
  // Deduced below metadata: lists atomic, objects granular.
  b[{"apiextensions.k8s.io/v1", "CustomResourceDefinition"}] = {"", R"({"spec":{},"status":{}})"};
  return b;
}

const std::map<std::pair<std::string, std::string>, type_schema>& builtins() {
  static const auto table = [] {
    std::map<std::pair<std::string, std::string>, type_schema> out;
    for (auto& [key, def] : make_builtins()) {
      type_schema ts;
      if (def.schema.empty()) {
        ts = object_schema_from_openapi(nullptr);
      } else {
        auto doc = k8s::parse_json(def.schema);
        ts = object_schema_from_openapi(doc ? &*doc : nullptr);
      }
      ts.empty_object = def.empty_object;
      ts.strategic_merge = true;
      out.emplace(key, std::move(ts));
    }
    return out;
  }();
  return table;
}

}  // namespace

std::optional<type_schema> builtin_schema(std::string_view api_version, std::string_view kind) {
  auto& table = builtins();
  auto it = table.find({std::string(api_version), std::string(kind)});
  if (it == table.end()) return std::nullopt;
  return it->second;
}

bool supports_strategic_merge(std::string_view api_version, std::string_view kind) {
  return builtin_schema(api_version, kind).has_value();
}

}  // namespace c5c3::sim::ssa
