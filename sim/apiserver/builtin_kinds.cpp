#include "sim/apiserver/builtin_kinds.hpp"

#include <cctype>

namespace c5c3::sim {

namespace {

const std::vector<std::string> all_verbs = {"create", "delete", "deletecollection", "get",
                                            "list",   "patch",  "update",           "watch"};

k8s::api_resource kind(std::string group, std::string version, std::string kind_name,
                       std::string plural, bool namespaced, std::vector<std::string> short_names = {},
                       bool status = false, std::vector<std::string> categories = {}) {
  k8s::api_resource r;
  r.group = std::move(group);
  r.version = std::move(version);
  r.kind = kind_name;
  r.list_kind = kind_name + "List";
  r.plural = std::move(plural);
  std::string singular;
  for (char c : kind_name) singular.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  r.singular = singular;
  r.namespaced = namespaced;
  r.verbs = all_verbs;
  r.short_names = std::move(short_names);
  r.status_subresource = status;
  r.categories = std::move(categories);
  return r;
}

bool lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// [a-z0-9]([-a-z0-9]*[a-z0-9])? ; with `alpha_first`, [a-z] first.
bool is_label(std::string_view s, bool alpha_first = false) {
  if (s.empty() || !lower_alnum(s.front()) || !lower_alnum(s.back())) return false;
  if (alpha_first && !(s.front() >= 'a' && s.front() <= 'z')) return false;
  for (char c : s)
    if (!lower_alnum(c) && c != '-') return false;
  return true;
}

bool is_subdomain(std::string_view s) {
  if (s.empty()) return false;
  while (true) {
    auto dot = s.find('.');
    if (!is_label(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s = s.substr(dot + 1);
  }
}

}  // namespace

const std::vector<k8s::api_resource>& builtin_kinds() {
  static const std::vector<k8s::api_resource> kinds = [] {
    std::vector<k8s::api_resource> v;
    auto ns = kind("", "v1", "Namespace", "namespaces", false, {"ns"}, true);
    ns.verbs = {"create", "delete", "get", "list", "patch", "update", "watch"};
    v.push_back(ns);
    v.push_back(kind("", "v1", "Secret", "secrets", true));
    v.push_back(kind("", "v1", "ConfigMap", "configmaps", true, {"cm"}));
    v.push_back(kind("", "v1", "Service", "services", true, {"svc"}, true, {"all"}));
    v.push_back(kind("", "v1", "Endpoints", "endpoints", true, {"ep"}));
    v.back().singular = "endpoints";
    v.push_back(kind("", "v1", "ServiceAccount", "serviceaccounts", true, {"sa"}));
    v.push_back(kind("", "v1", "Event", "events", true, {"ev"}));
    v.push_back(kind("events.k8s.io", "v1", "Event", "events", true, {"ev"}));
    v.back().storage_version = false;  // stored as core/v1 Events (sim/apiserver/events.hpp)
    v.push_back(kind("coordination.k8s.io", "v1", "Lease", "leases", true));
    // Created only, never stored: the requester as the server sees it
    // (`kubectl auth whoami`; authorization.cpp).
    v.push_back(kind("authentication.k8s.io", "v1", "SelfSubjectReview", "selfsubjectreviews", false));
    v.back().verbs = {"create"};
    // Stored and served, with no controller behind them (no ReplicaSets, no
    // pods, no disruption status): what an install of deploy/ writes.
    v.push_back(kind("apps", "v1", "Deployment", "deployments", true, {"deploy"}, true, {"all"}));
    v.push_back(kind("policy", "v1", "PodDisruptionBudget", "poddisruptionbudgets", true, {"pdb"}, true));
    const std::string rbac = "rbac.authorization.k8s.io";
    v.push_back(kind(rbac, "v1", "Role", "roles", true));
    v.push_back(kind(rbac, "v1", "ClusterRole", "clusterroles", false));
    v.push_back(kind(rbac, "v1", "RoleBinding", "rolebindings", true));
    v.push_back(kind(rbac, "v1", "ClusterRoleBinding", "clusterrolebindings", false));
    v.push_back(kind("apiextensions.k8s.io", "v1", "CustomResourceDefinition",
                     "customresourcedefinitions", false, {"crd", "crds"}, true, {"api-extensions"}));
    v.push_back(kind("apiregistration.k8s.io", "v1", "APIService", "apiservices", false, {}, true,
                     {"api-extensions"}));
    return v;
  }();
  return kinds;
}

std::vector<std::string> validate_dns1123_subdomain(std::string_view name) {
  std::vector<std::string> errs;
  if (name.size() > 253) errs.push_back("must be no more than 253 characters");
  if (!is_subdomain(name))
    errs.push_back(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
        "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
        "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  return errs;
}

std::vector<std::string> validate_dns1123_label(std::string_view name) {
  std::vector<std::string> errs;
  if (name.size() > 63) errs.push_back("must be no more than 63 characters");
  if (!is_label(name))
    errs.push_back(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
        "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
        "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  return errs;
}

std::vector<std::string> validate_dns1035_label(std::string_view name) {
  std::vector<std::string> errs;
  if (name.size() > 63) errs.push_back("must be no more than 63 characters");
  if (!is_label(name, true))
    errs.push_back(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
        "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
        "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
  return errs;
}

std::vector<std::string> validate_path_segment_name(std::string_view name) {
  std::vector<std::string> errs;
  if (name == "." || name == "..") errs.push_back(std::string("may not be '") + std::string(name) + "'");
  if (name.find('/') != std::string_view::npos) errs.push_back("may not contain '/'");
  if (name.find('%') != std::string_view::npos) errs.push_back("may not contain '%'");
  return errs;
}

std::vector<std::string> validate_object_name(const k8s::api_resource& r, std::string_view name) {
  if (r.group.empty() && (r.plural == "namespaces")) return validate_dns1123_label(name);
  if (r.group.empty() && r.plural == "services") return validate_dns1035_label(name);
  // Kinds whose strategy leaves names to rest.BeforeCreate's path segment rule
  // (APIService adds version.group in its own validation).
  if (r.group == "rbac.authorization.k8s.io" || r.group == "apiregistration.k8s.io" ||
      (r.group.empty() && r.plural == "events"))
    return validate_path_segment_name(name);
  return validate_dns1123_subdomain(name);
}

}  // namespace c5c3::sim
