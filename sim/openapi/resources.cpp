#include "sim/openapi/resources.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <tuple>

namespace c5c3::sim::openapi {

namespace {

const std::vector<std::string> all_verbs = {"create", "delete", "deletecollection", "get",
                                            "list",   "patch",  "update",           "watch"};

k8s::api_resource builtin(std::string group, std::string kind, std::string plural,
                          std::string singular, bool namespaced,
                          std::vector<std::string> short_names = {},
                          std::vector<std::string> verbs = all_verbs) {
  k8s::api_resource r;
  r.group = std::move(group);
  r.version = "v1";
  r.kind = kind;
  r.list_kind = kind + "List";
  r.plural = std::move(plural);
  r.singular = std::move(singular);
  r.namespaced = namespaced;
  r.verbs = std::move(verbs);
  r.short_names = std::move(short_names);
  return r;
}

std::vector<k8s::api_resource> make_builtins() {
  std::vector<k8s::api_resource> out;
  // Namespaces cannot be deleted as a collection.
  auto ns = builtin("", "Namespace", "namespaces", "namespace", false, {"ns"},
                    {"create", "delete", "get", "list", "patch", "update", "watch"});
  ns.status_subresource = true;
  out.push_back(ns);
  out.push_back(builtin("", "Secret", "secrets", "secret", true));
  out.push_back(builtin("", "ConfigMap", "configmaps", "configmap", true, {"cm"}));
  auto svc = builtin("", "Service", "services", "service", true, {"svc"});
  svc.categories = {"all"};
  svc.status_subresource = true;
  out.push_back(svc);
  out.push_back(builtin("", "Endpoints", "endpoints", "endpoints", true, {"ep"}));
  out.push_back(builtin("", "ServiceAccount", "serviceaccounts", "serviceaccount", true, {"sa"}));
  out.push_back(builtin("", "Event", "events", "event", true, {"ev"}));
  out.push_back(builtin("events.k8s.io", "Event", "events", "event", true, {"ev"}));
  out.push_back(builtin("coordination.k8s.io", "Lease", "leases", "lease", true));
  auto deploy = builtin("apps", "Deployment", "deployments", "deployment", true, {"deploy"});
  deploy.categories = {"all"};
  deploy.status_subresource = true;
  out.push_back(deploy);
  auto pdb = builtin("policy", "PodDisruptionBudget", "poddisruptionbudgets", "poddisruptionbudget",
                     true, {"pdb"});
  pdb.status_subresource = true;
  out.push_back(pdb);
  const std::string rbac = "rbac.authorization.k8s.io";
  out.push_back(builtin(rbac, "ClusterRoleBinding", "clusterrolebindings", "clusterrolebinding",
                        false));
  out.push_back(builtin(rbac, "ClusterRole", "clusterroles", "clusterrole", false));
  out.push_back(builtin(rbac, "RoleBinding", "rolebindings", "rolebinding", true));
  out.push_back(builtin(rbac, "Role", "roles", "role", true));
  auto crd = builtin("apiextensions.k8s.io", "CustomResourceDefinition",
                     "customresourcedefinitions", "customresourcedefinition", false,
                     {"crd", "crds"});
  crd.categories = {"api-extensions"};
  crd.status_subresource = true;
  out.push_back(crd);
  return out;
}

std::vector<std::string> string_list(const k8s::json_value* v) {
  std::vector<std::string> out;
  if (v == nullptr || !v->IsArray()) return out;
  for (const auto& s : v->GetArray())
    if (s.IsString()) out.emplace_back(k8s::as_string_view(s));
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// (kind rank: 0 GA, 1 beta, 2 alpha), major, minor for "v<major>[(alpha|beta)<minor>]".
std::optional<std::tuple<int, long, long>> parse_kube_version(std::string_view v) {
  if (v.size() < 2 || v[0] != 'v') return std::nullopt;
  std::size_t i = 1;
  auto number = [&](long& out) {
    std::size_t start = i;
    // Kubernetes versions have no leading zero ("v01" is not one).
    if (i < v.size() && v[i] == '0') return false;
    out = 0;
    while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i])) && i - start < 9)
      out = out * 10 + (v[i++] - '0');
    return i > start;
  };
  long major = 0;
  if (!number(major)) return std::nullopt;
  if (i == v.size()) return std::tuple{0, major, 0L};
  int rank = 0;
  if (v.substr(i, 4) == "beta") {
    rank = 1;
    i += 4;
  } else if (v.substr(i, 5) == "alpha") {
    rank = 2;
    i += 5;
  } else {
    return std::nullopt;
  }
  long minor = 0;
  if (!number(minor) || i != v.size()) return std::nullopt;
  return std::tuple{rank, major, minor};
}

}  // namespace

const std::vector<k8s::api_resource>& builtin_resources() {
  static const std::vector<k8s::api_resource> resources = make_builtins();
  return resources;
}

std::vector<k8s::api_resource> resources_from_crd(const k8s::object& crd) {
  std::vector<k8s::api_resource> out;
  if (!crd) return out;
  const auto& doc = crd.json();
  const auto* spec = k8s::member(doc, "spec");
  if (spec == nullptr) return out;
  const auto* names = k8s::member(*spec, "names");
  std::string group(k8s::get_string(*spec, {"group"}));
  std::string kind(names ? k8s::get_string(*names, {"kind"}) : "");
  std::string plural(names ? k8s::get_string(*names, {"plural"}) : "");
  if (group.empty() || kind.empty() || plural.empty()) return out;
  std::string singular(k8s::get_string(*names, {"singular"}));
  if (singular.empty()) singular = lower(kind);
  std::string list_kind(k8s::get_string(*names, {"listKind"}));
  if (list_kind.empty()) list_kind = kind + "List";
  const bool namespaced = k8s::get_string(*spec, {"scope"}, "Namespaced") != "Cluster";

  const auto* versions = k8s::member(*spec, "versions");
  if (versions == nullptr || !versions->IsArray()) return out;
  for (const auto& v : versions->GetArray()) {
    if (!k8s::get_bool(v, {"served"}).value_or(false)) continue;
    k8s::api_resource r;
    r.group = group;
    r.version = std::string(k8s::get_string(v, {"name"}));
    if (r.version.empty()) continue;
    r.kind = kind;
    r.list_kind = list_kind;
    r.plural = plural;
    r.singular = singular;
    r.namespaced = namespaced;
    // The order the CRD handler reports them in.
    r.verbs = {"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"};
    r.short_names = string_list(k8s::member(*names, "shortNames"));
    r.categories = string_list(k8s::member(*names, "categories"));
    r.status_subresource = k8s::find(v, {"subresources", "status"}) != nullptr;
    r.scale_subresource = k8s::find(v, {"subresources", "scale"}) != nullptr;
    r.storage_version = k8s::get_bool(v, {"storage"}).value_or(false);
    if (const auto* schema = k8s::find(v, {"schema", "openAPIV3Schema"}); schema && schema->IsObject())
      r.schema = std::make_shared<const k8s::json_document>(k8s::copy_document(*schema));
    if (const auto* cols = k8s::member(v, "additionalPrinterColumns"); cols && cols->IsArray()) {
      for (const auto& c : cols->GetArray()) {
        k8s::printer_column pc;
        pc.name = std::string(k8s::get_string(c, {"name"}));
        pc.type = std::string(k8s::get_string(c, {"type"}));
        pc.format = std::string(k8s::get_string(c, {"format"}));
        pc.description = std::string(k8s::get_string(c, {"description"}));
        pc.priority = static_cast<int>(k8s::get_int(c, {"priority"}).value_or(0));
        pc.json_path = std::string(k8s::get_string(c, {"jsonPath"}));
        r.printer_columns.push_back(std::move(pc));
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

bool kube_version_less(std::string_view a, std::string_view b) {
  auto pa = parse_kube_version(a);
  auto pb = parse_kube_version(b);
  if (pa && pb) {
    auto [ra, ma, na] = *pa;
    auto [rb, mb, nb] = *pb;
    if (ra != rb) return ra < rb;
    if (ma != mb) return ma > mb;
    return na > nb;
  }
  if (pa || pb) return static_cast<bool>(pa);
  return a < b;
}

const k8s::api_resource* find_resource(const std::vector<k8s::api_resource>& resources,
                                       std::string_view group, std::string_view version,
                                       std::string_view plural) {
  for (const auto& r : resources)
    if (r.group == group && r.version == version && r.plural == plural) return &r;
  return nullptr;
}

}  // namespace c5c3::sim::openapi
