// The bootstrap ClusterRoles and ClusterRoleBindings kube-apiserver creates at
// start (plugin/pkg/auth/authorizer/rbac/bootstrappolicy), the part the
// emulator serves: enough for an authenticated client to discover the API and
// for system:masters to hold cluster-admin.
#include "sim/apiserver/rbac.hpp"

#include <fmt/format.h>

namespace c5c3::sim::rbac {

namespace {

constexpr const char* meta =
    R"("labels":{"kubernetes.io/bootstrapping":"rbac-defaults"},)"
    R"("annotations":{"rbac.authorization.kubernetes.io/autoupdate":"true"})";

k8s::json_document parse(const std::string& text) {
  k8s::json_document d;
  d.Parse(text.c_str(), text.size());
  return d;
}

k8s::json_document role(const char* name, const char* rules) {
  return parse(fmt::format(
      R"({{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{{"name":"{}",{}}},"rules":{}}})",
      name, meta, rules));
}

k8s::json_document binding(const char* name, const char* subjects) {
  return parse(fmt::format(
      R"({{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{{"name":"{}",{}}},)"
      R"("roleRef":{{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"{}"}},"subjects":{}}})",
      name, meta, name, subjects));
}

constexpr const char* group_authenticated =
    R"([{"apiGroup":"rbac.authorization.k8s.io","kind":"Group","name":"system:authenticated"}])";

}  // namespace

std::vector<k8s::json_document> bootstrap_policy() {
  std::vector<k8s::json_document> out;
  out.push_back(role("cluster-admin",
                     R"([{"apiGroups":["*"],"resources":["*"],"verbs":["*"]},)"
                     R"({"nonResourceURLs":["*"],"verbs":["*"]}])"));
  out.push_back(role("system:discovery",
                     R"([{"nonResourceURLs":["/api","/api/*","/apis","/apis/*","/healthz","/livez",)"
                     R"("/openapi","/openapi/*","/readyz","/version","/version/"],"verbs":["get"]}])"));
  out.push_back(role("system:basic-user",
                     R"([{"apiGroups":["authentication.k8s.io"],"resources":["selfsubjectreviews"],"verbs":["create"]},)"
                     R"({"apiGroups":["authorization.k8s.io"],)"
                     R"("resources":["selfsubjectaccessreviews","selfsubjectrulesreviews"],"verbs":["create"]}])"));
  out.push_back(role("system:public-info-viewer",
                     R"([{"nonResourceURLs":["/healthz","/livez","/readyz","/version","/version/"],)"
                     R"("verbs":["get"]}])"));
  out.push_back(binding("cluster-admin",
                        R"([{"apiGroup":"rbac.authorization.k8s.io","kind":"Group","name":"system:masters"}])"));
  out.push_back(binding("system:discovery", group_authenticated));
  out.push_back(binding("system:basic-user", group_authenticated));
  out.push_back(binding("system:public-info-viewer",
                        R"([{"apiGroup":"rbac.authorization.k8s.io","kind":"Group","name":"system:authenticated"},)"
                        R"({"apiGroup":"rbac.authorization.k8s.io","kind":"Group","name":"system:unauthenticated"}])"));
  return out;
}

}  // namespace c5c3::sim::rbac
