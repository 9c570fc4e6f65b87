// RBAC as kube-apiserver's `--authorization-mode=RBAC` decides it (learned from
// kubernetes' plugin/pkg/auth/authorizer/rbac and pkg/registry/rbac/validation):
// the request's attributes (kube's RequestInfo), the rules a user gets from
// ClusterRoleBindings and the RoleBindings of the request's namespace, rule
// matching with `*`, `*/subresource`, resourceNames and nonResourceURLs, the
// system:masters short cut, and the 403 Status with kube's wording. Pure
// functions over the stored RBAC objects; no I/O, no locking.
#pragma once

#include "k8s/object.hpp"
#include "k8s/status.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim::rbac {

struct user_info {
  std::string name;
  std::vector<std::string> groups;
};

// authorizer.Attributes.
struct attributes {
  user_info user;
  std::string verb;  // kube verb (get, list, watch, create, ...); lower-case HTTP method otherwise
  bool resource_request = false;
  std::string path;  // the URL path (non-resource requests)
  std::string group, version, resource, subresource, namespace_, name;
};

// kube's RequestInfoFactory: `/api/v1/namespaces/ns/secrets/x` and friends.
// `watch`: the first `watch` query value, if any; `field_selector`: the
// `fieldSelector` value (a list or watch naming metadata.name= gets that name).
attributes request_attributes(std::string_view method, std::string_view path,
                              const std::optional<std::string>& watch,
                              const std::optional<std::string>& field_selector);

// The stored RBAC objects, by key (namespace, name). Null maps hold nothing.
struct policy {
  const std::map<k8s::object_key, k8s::object>* roles = nullptr;
  const std::map<k8s::object_key, k8s::object>* cluster_roles = nullptr;
  const std::map<k8s::object_key, k8s::object>* role_bindings = nullptr;
  const std::map<k8s::object_key, k8s::object>* cluster_role_bindings = nullptr;
};

struct decision {
  bool allowed = false;
  // "RBAC: allowed by ..." when allowed; else the resolution errors kube
  // reports ("RBAC: clusterrole.rbac.authorization.k8s.io \"x\" not found"), or "".
  std::string reason;
};

// The rules of the role a RoleBinding or ClusterRoleBinding (`binding`, in
// namespace `ns`) refers to; null with kube's resolution error
// (`clusterrole.rbac.authorization.k8s.io "x" not found`) when there is none.
const k8s::json_value* role_reference_rules(const policy& p, const k8s::json_value& binding, std::string_view ns,
                                            std::string& error);

// One rule of a Role or ClusterRole (a JSON PolicyRule) against `a`.
bool rule_allows(const attributes& a, const k8s::json_value& rule);

// The union kube-apiserver runs: members of system:masters are allowed
// outright, then RBAC.
decision authorize(const attributes& a, const policy& p);

// The 403 answer: `secrets "x" is forbidden: User "u" cannot get resource
// "secrets" in API group "" in the namespace "ns"` (": <reason>" appended when
// there is one), details {group, kind: resource, name}.
k8s::api_error forbidden(const attributes& a, std::string_view reason);

// The ServiceAccount user name and groups (kube's serviceaccount package).
std::string service_account_user(std::string_view namespace_, std::string_view name);
std::vector<std::string> service_account_groups(std::string_view namespace_);

// The ClusterRoles and ClusterRoleBindings kube-apiserver bootstraps that the
// emulator serves: cluster-admin (to system:masters), system:discovery,
// system:basic-user and system:public-info-viewer.
std::vector<k8s::json_document> bootstrap_policy();

}  // namespace c5c3::sim::rbac
