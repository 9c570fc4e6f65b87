// sim/apiserver/rbac_escalation as pure functions: kube's guard on granting
// RBAC (no Role or ClusterRole with rules the writer does not hold, no
// binding to one, unless it has `escalate` or `bind`), with kube's wording.
#include "sim/apiserver/rbac_escalation.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <optional>
#include <string>

using namespace c5c3;
namespace rbac = c5c3::sim::rbac;

namespace {

using objects = std::map<k8s::object_key, k8s::object>;

k8s::object obj(const std::string& json) {
  auto o = k8s::object::parse(json);
  BOOST_REQUIRE(o.has_value());
  return *o;
}

std::string cluster_role(const std::string& name, const std::string& rules, const std::string& extra = "") {
  return R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":")" + name +
         R"("},"rules":)" + rules + extra + "}";
}
std::string binding(const std::string& name, const std::string& role, const std::string& user) {
  return R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":")" + name +
         R"("},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":")" + role +
         R"("},"subjects":[{"kind":"User","name":")" + user + R"("}]})";
}

struct world {
  objects roles, cluster_roles, bindings, cluster_bindings;
  world() {
    auto put = [](objects& m, const std::string& json) {
      auto o = obj(json);
      m[o.key()] = o;
    };
    put(cluster_roles, cluster_role("writer", R"([
      {"apiGroups":["rbac.authorization.k8s.io"],"resources":["clusterroles","clusterrolebindings"],"verbs":["create","update"]},
      {"apiGroups":[""],"resources":["secrets"],"verbs":["get","list"]},
      {"apiGroups":[""],"resources":["services/proxy"],"resourceNames":["x"],"verbs":["get"]}])"));
    put(cluster_roles, cluster_role("reader", R"([{"apiGroups":[""],"resources":["secrets"],"verbs":["get"]}])"));
    put(cluster_roles, cluster_role("big", R"([{"apiGroups":[""],"resources":["secrets"],"verbs":["get","delete"]}])"));
    put(cluster_roles, cluster_role("escalator", R"([{"apiGroups":["rbac.authorization.k8s.io"],"resources":["clusterroles"],"verbs":["escalate"]}])"));
    put(cluster_roles, cluster_role("binder", R"([{"apiGroups":["rbac.authorization.k8s.io"],"resources":["clusterroles"],"resourceNames":["big"],"verbs":["bind"]}])"));
    for (auto u : {"u", "e", "b"}) put(cluster_bindings, binding(std::string("writer-") + u, "writer", u));
    put(cluster_bindings, binding("escalator-e", "escalator", "e"));
    put(cluster_bindings, binding("binder-b", "binder", "b"));
  }
  rbac::policy policy() const { return {&roles, &cluster_roles, &bindings, &cluster_bindings}; }

  // The 403's message of writing `json` (of `plural`) as `user`, or "" when allowed.
  std::string refusal(const std::string& user, const std::string& plural, const std::string& json,
                      const std::string& old = "") const {
    auto next = obj(json);
    std::optional<k8s::object> before;
    if (!old.empty()) before = obj(old);
    auto e = rbac::check_grant({user, {"g"}}, plural, "", before ? &before->json() : nullptr, next.json(), policy());
    if (e) BOOST_TEST((e->code == 403 || e->code == 404));
    return e ? e->message : "";
  }
};

const std::string held = "user \"u\" (groups=[\"g\"]) is attempting to grant RBAC permissions not currently held:\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(rbac_escalation)

BOOST_AUTO_TEST_CASE(missing_rights_are_listed_as_kube_compacts_them) {
  world w;
  auto rules = obj(R"({"r":[{"apiGroups":[""],"resources":["secrets","configmaps"],"verbs":["get","list","delete"]},
                          {"nonResourceURLs":["/metrics"],"verbs":["get"]}]})");
  auto missing = rbac::missing_rights({"u", {"g"}}, "", *rules.get({"r"}), w.policy());
  std::vector<std::string> want = {R"({APIGroups:[""], Resources:["configmaps"], Verbs:["get" "list" "delete"]})",
                                   R"({APIGroups:[""], Resources:["secrets"], Verbs:["delete"]})",
                                   R"({NonResourceURLs:["/metrics"], Verbs:["get"]})"};
  BOOST_TEST(missing == want, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_role_grants_only_what_its_writer_holds_or_may_escalate) {
  world w;
  const auto reads = cluster_role("new", R"([{"apiGroups":[""],"resources":["secrets"],"verbs":["get","list"]}])");
  const auto deletes = cluster_role("new", R"([{"apiGroups":[""],"resources":["secrets"],"verbs":["get","delete"]}])");
  BOOST_TEST(w.refusal("u", "clusterroles", reads) == "");
  BOOST_TEST(w.refusal("u", "clusterroles", deletes) ==
             "clusterroles.rbac.authorization.k8s.io \"new\" is forbidden: " + held +
                 R"({APIGroups:[""], Resources:["secrets"], Verbs:["delete"]})");
  BOOST_TEST(w.refusal("e", "clusterroles", deletes) == "");  // escalate
  // A subresource and a resource name are held only as granted.
  const auto proxy_x = cluster_role("p", R"([{"apiGroups":[""],"resources":["services/proxy"],"resourceNames":["x"],"verbs":["get"]}])");
  const auto proxy_any = cluster_role("p", R"([{"apiGroups":[""],"resources":["services/proxy"],"verbs":["get"]}])");
  BOOST_TEST(w.refusal("u", "clusterroles", proxy_x) == "");
  BOOST_TEST(w.refusal("u", "clusterroles", proxy_any) ==
             "clusterroles.rbac.authorization.k8s.io \"p\" is forbidden: " + held +
                 R"({APIGroups:[""], Resources:["services/proxy"], Verbs:["get"]})");
  // An update that only sets owners or finalizers passes; one that changes the rules is checked.
  auto with_finalizer = deletes;
  with_finalizer.replace(with_finalizer.find(R"("name":"new")"), 12, R"("name":"new","finalizers":["f"])");
  BOOST_TEST(w.refusal("u", "clusterroles", with_finalizer, deletes) == "");
  BOOST_TEST(w.refusal("u", "clusterroles", deletes, reads) != "");
  // An aggregationRule needs every right; system:masters needs no check.
  BOOST_TEST(w.refusal("u", "clusterroles", cluster_role("agg", "[]", R"(,"aggregationRule":{"clusterRoleSelectors":[]})")) ==
             "clusterroles.rbac.authorization.k8s.io \"agg\" is forbidden: must have cluster-admin privileges to use "
             "the aggregationRule");
  auto masters = rbac::check_grant({"admin", {"system:masters"}}, "clusterroles", "", nullptr, obj(deletes).json(), w.policy());
  BOOST_TEST(!masters.has_value());
}

BOOST_AUTO_TEST_CASE(a_binding_grants_only_a_role_its_writer_holds_or_may_bind) {
  world w;
  BOOST_TEST(w.refusal("u", "clusterrolebindings", binding("x", "reader", "v")) == "");
  BOOST_TEST(w.refusal("u", "clusterrolebindings", binding("x", "big", "v")) ==
             "clusterrolebindings.rbac.authorization.k8s.io \"x\" is forbidden: " + held +
                 R"({APIGroups:[""], Resources:["secrets"], Verbs:["delete"]})");
  BOOST_TEST(w.refusal("b", "clusterrolebindings", binding("x", "big", "v")) == "");  // bind on big
  // A missing role: kube's 404, the role's name under the binding's resource.
  BOOST_TEST(w.refusal("u", "clusterrolebindings", binding("x", "nope", "v")) ==
             "clusterrolebindings.rbac.authorization.k8s.io \"nope\" not found");
}

BOOST_AUTO_TEST_SUITE_END()
