// sim/apiserver/rbac and service_account_token as pure functions: kube's
// RequestInfo, rule matching, binding resolution, the 403 wording, tokens.
#include "sim/apiserver/rbac.hpp"
#include "sim/apiserver/service_account_token.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <string>
#include <vector>

using namespace c5c3;
namespace rbac = c5c3::sim::rbac;

namespace {

k8s::object obj(const std::string& json) {
  auto o = k8s::object::parse(json);
  BOOST_REQUIRE(o.has_value());
  return *o;
}

using objects = std::map<k8s::object_key, k8s::object>;

void put(objects& m, const std::string& json) {
  auto o = obj(json);
  m[o.key()] = o;
}

rbac::attributes resource(std::string user, std::vector<std::string> groups, std::string verb, std::string group,
                          std::string res, std::string ns, std::string name = {}, std::string sub = {}) {
  rbac::attributes a;
  a.user = {std::move(user), std::move(groups)};
  a.verb = std::move(verb);
  a.resource_request = true;
  a.group = std::move(group);
  a.resource = std::move(res);
  a.namespace_ = std::move(ns);
  a.name = std::move(name);
  a.subresource = std::move(sub);
  return a;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rbac_authorizer)

BOOST_AUTO_TEST_CASE(request_attributes_follow_kube_request_info) {
  struct row {
    std::string method, path;
    std::optional<std::string> watch, fs;
    bool resource_request;
    std::string verb, group, resource, sub, ns, name;
  };
  const std::vector<row> rows = {
      {"GET", "/api/v1/namespaces/ns/secrets/x", {}, {}, true, "get", "", "secrets", "", "ns", "x"},
      {"GET", "/api/v1/namespaces/ns/secrets", {}, {}, true, "list", "", "secrets", "", "ns", ""},
      {"GET", "/api/v1/namespaces/ns/secrets", std::string("true"), {}, true, "watch", "", "secrets", "", "ns", ""},
      {"GET", "/api/v1/namespaces/ns/secrets", std::string("0"), {}, true, "list", "", "secrets", "", "ns", ""},
      {"GET", "/api/v1/namespaces/ns/secrets", std::string("1"), std::string("metadata.name=x"), true, "watch", "",
       "secrets", "", "ns", "x"},
      {"GET", "/api/v1/namespaces/ns/secrets", {}, std::string("metadata.name!=x"), true, "list", "", "secrets", "",
       "ns", ""},
      {"GET", "/api/v1/watch/namespaces/ns/secrets", {}, {}, true, "watch", "", "secrets", "", "ns", ""},
      {"GET", "/api/v1/secrets", {}, {}, true, "list", "", "secrets", "", "", ""},
      {"POST", "/apis/c5c3.io/v1alpha1/namespaces/a/rabbitmqvhosts", {}, {}, true, "create", "c5c3.io",
       "rabbitmqvhosts", "", "a", ""},
      {"PUT", "/apis/c5c3.io/v1alpha1/namespaces/a/rabbitmqvhosts/v/status", {}, {}, true, "update", "c5c3.io",
       "rabbitmqvhosts", "status", "a", "v"},
      {"PATCH", "/apis/c5c3.io/v1alpha1/namespaces/a/rabbitmqvhosts/v", {}, {}, true, "patch", "c5c3.io",
       "rabbitmqvhosts", "", "a", "v"},
      {"DELETE", "/api/v1/namespaces/ns/secrets", {}, {}, true, "deletecollection", "", "secrets", "", "ns", ""},
      {"DELETE", "/api/v1/namespaces/ns/secrets/x", {}, {}, true, "delete", "", "secrets", "", "ns", "x"},
      // A namespace is its own namespace; status and finalize are its subresources.
      {"GET", "/api/v1/namespaces/ns", {}, {}, true, "get", "", "namespaces", "", "ns", "ns"},
      {"PUT", "/api/v1/namespaces/ns/finalize", {}, {}, true, "update", "", "namespaces", "finalize", "ns", "ns"},
      {"GET", "/api/v1/namespaces", {}, {}, true, "list", "", "namespaces", "", "", ""},
      {"POST", "/api/v1/namespaces/ns/serviceaccounts/sa/token", {}, {}, true, "create", "", "serviceaccounts",
       "token", "ns", "sa"},
      {"GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", {}, {}, true, "list",
       "apiextensions.k8s.io", "customresourcedefinitions", "", "", ""},
      // Not resource requests: discovery and everything else.
      {"GET", "/apis", {}, {}, false, "get", "", "", "", "", ""},
      {"GET", "/apis/c5c3.io", {}, {}, false, "get", "", "", "", "", ""},
      {"GET", "/api/v1", {}, {}, false, "get", "", "", "", "", ""},
      {"GET", "/openapi/v3", {}, {}, false, "get", "", "", "", "", ""},
      {"POST", "/sim/faults", {}, {}, false, "post", "", "", "", "", ""},
  };
  for (const auto& r : rows) {
    auto a = rbac::request_attributes(r.method, r.path, r.watch, r.fs);
    BOOST_TEST_CONTEXT(r.method << " " << r.path) {
      BOOST_TEST(a.resource_request == r.resource_request);
      BOOST_TEST(a.verb == r.verb);
      BOOST_TEST(a.group == r.group);
      BOOST_TEST(a.resource == r.resource);
      BOOST_TEST(a.subresource == r.sub);
      BOOST_TEST(a.namespace_ == r.ns);
      BOOST_TEST(a.name == r.name);
      BOOST_TEST(a.path == r.path);
    }
  }
}

BOOST_AUTO_TEST_CASE(rules_match_verbs_groups_resources_names_and_urls) {
  struct row {
    std::string rule;
    rbac::attributes a;
    bool allowed;
  };
  auto get_secret = resource("u", {}, "get", "", "secrets", "ns", "x");
  auto status = resource("u", {}, "update", "c5c3.io", "rabbitmqvhosts", "ns", "v", "status");
  auto finalizers = resource("u", {}, "update", "c5c3.io", "rabbitmqvhosts", "ns", "v", "finalizers");
  auto list_secrets = resource("u", {}, "list", "", "secrets", "ns");
  rbac::attributes url;
  url.user = {"u", {}};
  url.verb = "get";
  url.path = "/apis/c5c3.io";
  const std::vector<row> rows = {
      {R"({"apiGroups":[""],"resources":["secrets"],"verbs":["get"]})", get_secret, true},
      {R"({"apiGroups":[""],"resources":["secrets"],"verbs":["list"]})", get_secret, false},
      {R"({"apiGroups":["*"],"resources":["*"],"verbs":["*"]})", get_secret, true},
      {R"({"apiGroups":["apps"],"resources":["secrets"],"verbs":["get"]})", get_secret, false},
      {R"({"apiGroups":[""],"resources":["configmaps"],"verbs":["get"]})", get_secret, false},
      {R"({"apiGroups":[""],"resources":["secrets"],"resourceNames":["x"],"verbs":["get"]})", get_secret, true},
      {R"({"apiGroups":[""],"resources":["secrets"],"resourceNames":["y"],"verbs":["get"]})", get_secret, false},
      // resourceNames never match a request without a name.
      {R"({"apiGroups":[""],"resources":["secrets"],"resourceNames":["x"],"verbs":["list"]})", list_secrets, false},
      // A subresource is its own resource: the parent's rule does not cover it.
      {R"({"apiGroups":["c5c3.io"],"resources":["rabbitmqvhosts"],"verbs":["update"]})", status, false},
      {R"({"apiGroups":["c5c3.io"],"resources":["rabbitmqvhosts/status"],"verbs":["update"]})", status, true},
      {R"({"apiGroups":["c5c3.io"],"resources":["rabbitmqvhosts/status"],"verbs":["update"]})", finalizers, false},
      {R"({"apiGroups":["c5c3.io"],"resources":["*/status"],"verbs":["update"]})", status, true},
      {R"({"apiGroups":["c5c3.io"],"resources":["*/status"],"verbs":["update"]})", finalizers, false},
      {R"({"apiGroups":["c5c3.io"],"resources":["*"],"verbs":["update"]})", finalizers, true},
      {R"({"apiGroups":["c5c3.io"],"resources":["*/status"],"verbs":["get"]})",
       resource("u", {}, "get", "c5c3.io", "rabbitmqvhosts", "ns", "v"), false},
      // nonResourceURLs: exact, prefix*, *; resource rules never match a URL.
      {R"({"nonResourceURLs":["/apis/c5c3.io"],"verbs":["get"]})", url, true},
      {R"({"nonResourceURLs":["/apis/*"],"verbs":["get"]})", url, true},
      {R"({"nonResourceURLs":["/api/*"],"verbs":["get"]})", url, false},
      {R"({"nonResourceURLs":["*"],"verbs":["get"]})", url, true},
      {R"({"nonResourceURLs":["*"],"verbs":["post"]})", url, false},
      {R"({"apiGroups":["*"],"resources":["*"],"verbs":["*"]})", url, false},
      {R"({"nonResourceURLs":["*"],"verbs":["*"]})", get_secret, false},
  };
  for (const auto& r : rows) {
    auto rule = k8s::parse_json(r.rule);
    BOOST_REQUIRE(rule.has_value());
    BOOST_TEST_CONTEXT(r.rule << " / " << r.a.verb << " " << r.a.resource << "/" << r.a.subresource << " "
                              << r.a.path) {
      BOOST_TEST(rbac::rule_allows(r.a, *rule) == r.allowed);
    }
  }
}

BOOST_AUTO_TEST_CASE(bindings_grant_to_users_groups_and_service_accounts) {
  objects roles, cluster_roles, bindings, cluster_bindings;
  put(cluster_roles, R"({"metadata":{"name":"read-secrets"},
      "rules":[{"apiGroups":[""],"resources":["secrets"],"verbs":["get","list"]}]})");
  put(roles, R"({"metadata":{"name":"cm","namespace":"a"},
      "rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["get"]}]})");
  // The ClusterRole bound cluster-wide to a group; a Role and the ClusterRole
  // bound in namespace a to a ServiceAccount named without a namespace.
  put(cluster_bindings, R"({"metadata":{"name":"readers"},"roleRef":{"kind":"ClusterRole","name":"read-secrets"},
      "subjects":[{"kind":"Group","name":"readers"}]})");
  put(bindings, R"({"metadata":{"name":"cm","namespace":"a"},"roleRef":{"kind":"Role","name":"cm"},
      "subjects":[{"kind":"ServiceAccount","name":"op"}]})");
  put(bindings, R"({"metadata":{"name":"sec","namespace":"a"},"roleRef":{"kind":"ClusterRole","name":"read-secrets"},
      "subjects":[{"kind":"User","name":"alice"}]})");
  rbac::policy p{&roles, &cluster_roles, &bindings, &cluster_bindings};
  const auto sa = rbac::service_account_user("a", "op");
  BOOST_TEST(sa == "system:serviceaccount:a:op");
  struct row {
    rbac::attributes a;
    bool allowed;
  };
  const std::vector<row> rows = {
      {resource("bob", {"readers"}, "get", "", "secrets", "b", "x"), true},
      {resource("bob", {"readers"}, "list", "", "secrets", ""), true},
      {resource("bob", {"others"}, "get", "", "secrets", "b", "x"), false},
      {resource(sa, rbac::service_account_groups("a"), "get", "", "configmaps", "a", "c"), true},
      {resource(sa, rbac::service_account_groups("a"), "get", "", "configmaps", "b", "c"), false},
      {resource(rbac::service_account_user("b", "op"), {}, "get", "", "configmaps", "a", "c"), false},
      {resource("alice", {}, "get", "", "secrets", "a", "x"), true},
      {resource("alice", {}, "get", "", "secrets", "b", "x"), false},
      {resource("alice", {}, "list", "", "secrets", ""), false},  // a RoleBinding never grants cluster-wide
      {resource("root", {"system:masters"}, "delete", "x.io", "things", ""), true},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.a.user.name << " " << r.a.verb << " " << r.a.resource << " in " << r.a.namespace_) {
      auto d = rbac::authorize(r.a, p);
      BOOST_TEST(d.allowed == r.allowed);
      if (d.allowed && r.a.user.name != "root") BOOST_TEST(d.reason.rfind("RBAC: allowed by ", 0) == 0u);
    }
  }
  auto d = rbac::authorize(resource("bob", {"readers"}, "get", "", "secrets", "b", "x"), p);
  BOOST_TEST(d.reason ==
             R"(RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "read-secrets" to Group "readers")");
}

BOOST_AUTO_TEST_CASE(missing_roles_are_named_in_the_denial) {
  objects cluster_roles, cluster_bindings, bindings;
  put(cluster_bindings, R"({"metadata":{"name":"b1"},"roleRef":{"kind":"ClusterRole","name":"gone"},
      "subjects":[{"kind":"User","name":"u"}]})");
  rbac::policy p{nullptr, &cluster_roles, &bindings, &cluster_bindings};
  auto a = resource("u", {}, "get", "", "secrets", "ns", "x");
  auto d = rbac::authorize(a, p);
  BOOST_TEST(!d.allowed);
  BOOST_TEST(d.reason == R"(RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found)");
  put(bindings, R"({"metadata":{"name":"b2","namespace":"ns"},"roleRef":{"kind":"Role","name":"r"},
      "subjects":[{"kind":"User","name":"u"}]})");
  d = rbac::authorize(a, p);
  BOOST_TEST(d.reason == R"(RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, )"
                         R"(role.rbac.authorization.k8s.io "r" not found])");
  auto e = rbac::forbidden(a, d.reason);
  BOOST_TEST(e.message.find(R"(in the namespace "ns": RBAC: [clusterrole)") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(forbidden_answers_carry_kube_wording) {
  const std::string sa = "system:serviceaccount:ns:sa";
  auto e = rbac::forbidden(resource(sa, {}, "get", "", "secrets", "ns", "x"), "");
  BOOST_TEST(e.code == 403);
  BOOST_TEST(e.reason == "Forbidden");
  BOOST_TEST(e.message == R"(secrets "x" is forbidden: User "system:serviceaccount:ns:sa" cannot get resource )"
                          R"("secrets" in API group "" in the namespace "ns")");
  BOOST_TEST(e.kind == "secrets");
  BOOST_TEST(e.name == "x");
  BOOST_TEST(e.group == "");
  e = rbac::forbidden(resource(sa, {}, "list", "c5c3.io", "rabbitmqvhosts", ""), "");
  BOOST_TEST(e.message == R"(rabbitmqvhosts.c5c3.io is forbidden: User "system:serviceaccount:ns:sa" cannot list )"
                          R"(resource "rabbitmqvhosts" in API group "c5c3.io" at the cluster scope)");
  BOOST_TEST(e.group == "c5c3.io");
  e = rbac::forbidden(resource(sa, {}, "patch", "c5c3.io", "rabbitmqvhosts", "a", "v", "status"), "");
  BOOST_TEST(e.message == R"(rabbitmqvhosts.c5c3.io "v" is forbidden: User "system:serviceaccount:ns:sa" cannot )"
                          R"(patch resource "rabbitmqvhosts/status" in API group "c5c3.io" in the namespace "a")");
  rbac::attributes url;
  url.user = {"u<b>", {}};
  url.verb = "get";
  url.path = "/apis";
  e = rbac::forbidden(url, "");
  BOOST_TEST(e.message == R"(forbidden: User "u&lt;b&gt;" cannot get path "/apis")");
  BOOST_TEST(e.kind == "");
}

BOOST_AUTO_TEST_CASE(bootstrap_policy_lets_authenticated_users_discover_only) {
  objects cluster_roles, cluster_bindings;
  for (auto& d : rbac::bootstrap_policy()) {
    k8s::object o(std::move(d));
    (o.kind() == "ClusterRole" ? cluster_roles : cluster_bindings)[o.key()] = o;
  }
  BOOST_TEST(cluster_roles.size() == 4u);
  BOOST_TEST(cluster_bindings.size() == 4u);
  rbac::policy p{nullptr, &cluster_roles, nullptr, &cluster_bindings};
  rbac::attributes disc;
  disc.user = {"someone", {"system:authenticated"}};
  disc.verb = "get";
  disc.path = "/apis/c5c3.io/v1alpha1";
  BOOST_TEST(rbac::authorize(disc, p).allowed);
  disc.path = "/sim/faults";
  BOOST_TEST(!rbac::authorize(disc, p).allowed);
  BOOST_TEST(!rbac::authorize(resource("someone", {"system:authenticated"}, "list", "", "secrets", ""), p).allowed);
  // cluster-admin through its binding, not only through the short cut.
  auto d = rbac::authorize(resource("x", {"system:masters"}, "get", "", "secrets", "a", "b"), p);
  BOOST_TEST(d.allowed);
}

BOOST_AUTO_TEST_CASE(service_account_tokens_verify_only_while_valid) {
  const auto key = sim::service_account_signing_key("admin-token");
  sim::service_account_claims c{"ns", "sa", "uid-1", {std::string(sim::service_account_issuer)}, 1000, 5000};
  auto tok = sim::issue_service_account_token(key, c);
  BOOST_TEST(std::count(tok.begin(), tok.end(), '.') == 2);
  auto v = sim::verify_service_account_token(key, tok, 2000);
  BOOST_REQUIRE(v.has_value());
  BOOST_TEST(v->namespace_ == "ns");
  BOOST_TEST(v->name == "sa");
  BOOST_TEST(v->uid == "uid-1");
  BOOST_TEST(!sim::verify_service_account_token(key, tok, 5000).has_value());  // expired
  BOOST_TEST(!sim::verify_service_account_token(key, tok, 999).has_value());   // not yet valid
  BOOST_TEST(!sim::verify_service_account_token(sim::service_account_signing_key("other"), tok, 2000).has_value());
  auto tampered = tok;
  tampered[tok.find('.') + 3] ^= 1;
  BOOST_TEST(!sim::verify_service_account_token(key, tampered, 2000).has_value());
  for (const char* junk : {"", ".", "..", "a.b.c", "a.b", "x.y.z.w", "===.===.==="})
    BOOST_TEST(!sim::verify_service_account_token(key, junk, 2000).has_value());
  c.audiences = {"vault"};
  BOOST_TEST(!sim::verify_service_account_token(key, sim::issue_service_account_token(key, c), 2000).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
