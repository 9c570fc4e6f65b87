#include "sim/openapi/resources.hpp"

#include "tests/openapi/sample_crd.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace c5c3;
using namespace c5c3::sim::openapi;

namespace {
bool has(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}
}  // namespace

BOOST_AUTO_TEST_SUITE(openapi_resources)

BOOST_AUTO_TEST_CASE(builtin_resources_match_kube) {
  struct row {
    std::string group, plural, kind, list_kind, singular;
    bool namespaced;
    std::vector<std::string> short_names;
    bool deletecollection;
    bool status;
  };
  const std::vector<row> rows = {
      {"", "namespaces", "Namespace", "NamespaceList", "namespace", false, {"ns"}, false, true},
      {"", "secrets", "Secret", "SecretList", "secret", true, {}, true, false},
      {"", "configmaps", "ConfigMap", "ConfigMapList", "configmap", true, {"cm"}, true, false},
      {"", "services", "Service", "ServiceList", "service", true, {"svc"}, true, true},
      {"", "endpoints", "Endpoints", "EndpointsList", "endpoints", true, {"ep"}, true, false},
      {"", "serviceaccounts", "ServiceAccount", "ServiceAccountList", "serviceaccount", true, {"sa"}, true, false},
      {"", "events", "Event", "EventList", "event", true, {"ev"}, true, false},
      {"events.k8s.io", "events", "Event", "EventList", "event", true, {"ev"}, true, false},
      {"coordination.k8s.io", "leases", "Lease", "LeaseList", "lease", true, {}, true, false},
      {"apps", "deployments", "Deployment", "DeploymentList", "deployment", true, {"deploy"}, true, true},
      {"policy", "poddisruptionbudgets", "PodDisruptionBudget", "PodDisruptionBudgetList", "poddisruptionbudget",
       true, {"pdb"}, true, true},
      {"rbac.authorization.k8s.io", "roles", "Role", "RoleList", "role", true, {}, true, false},
      {"rbac.authorization.k8s.io", "clusterroles", "ClusterRole", "ClusterRoleList", "clusterrole", false, {}, true, false},
      {"rbac.authorization.k8s.io", "rolebindings", "RoleBinding", "RoleBindingList", "rolebinding", true, {}, true, false},
      {"rbac.authorization.k8s.io", "clusterrolebindings", "ClusterRoleBinding", "ClusterRoleBindingList",
       "clusterrolebinding", false, {}, true, false},
      {"apiextensions.k8s.io", "customresourcedefinitions", "CustomResourceDefinition",
       "CustomResourceDefinitionList", "customresourcedefinition", false, {"crd", "crds"}, true, true},
  };
  BOOST_TEST(builtin_resources().size() == rows.size());
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.group << "/" << r.plural) {
      const auto* got = find_resource(builtin_resources(), r.group, "v1", r.plural);
      BOOST_REQUIRE(got != nullptr);
      BOOST_TEST(got->kind == r.kind);
      BOOST_TEST(got->list_kind == r.list_kind);
      BOOST_TEST(got->singular == r.singular);
      BOOST_TEST(got->namespaced == r.namespaced);
      BOOST_TEST(got->short_names == r.short_names, boost::test_tools::per_element());
      BOOST_TEST(has(got->verbs, "deletecollection") == r.deletecollection);
      BOOST_TEST(got->status_subresource == r.status);
      for (const char* v : {"create", "delete", "get", "list", "patch", "update", "watch"})
        BOOST_TEST(has(got->verbs, v));
    }
  }
  BOOST_TEST(find_resource(builtin_resources(), "", "v1", "services")->categories ==
                 std::vector<std::string>{"all"}, boost::test_tools::per_element());
  BOOST_TEST(find_resource(builtin_resources(), "apps", "v1", "deployments")->categories ==
                 std::vector<std::string>{"all"}, boost::test_tools::per_element());
  BOOST_TEST(find_resource(builtin_resources(), "apiextensions.k8s.io", "v1", "customresourcedefinitions")
                 ->categories == std::vector<std::string>{"api-extensions"},
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(crd_yields_one_resource_per_served_version) {
  auto rs = resources_from_crd(c5c3::test::sample_crd());
  BOOST_REQUIRE(rs.size() == 2u);
  const auto& v1 = rs[0];
  BOOST_TEST(v1.group == "c5c3.io");
  BOOST_TEST(v1.version == "v1alpha1");
  BOOST_TEST(v1.kind == "RabbitMQVhost");
  BOOST_TEST(v1.list_kind == "RabbitMQVhostList");
  BOOST_TEST(v1.plural == "rabbitmqvhosts");
  BOOST_TEST(v1.singular == "rabbitmqvhost");
  BOOST_TEST(v1.namespaced);
  BOOST_TEST(v1.storage_version);
  BOOST_TEST(v1.status_subresource);
  BOOST_TEST(!v1.scale_subresource);
  BOOST_TEST(v1.short_names == std::vector<std::string>{"rmqvhost"}, boost::test_tools::per_element());
  BOOST_TEST(v1.categories == (std::vector<std::string>{"c5c3", "c5c3-orders"}),
             boost::test_tools::per_element());
  BOOST_TEST(v1.verbs == (std::vector<std::string>{"delete", "deletecollection", "get", "list", "patch",
                                                   "create", "update", "watch"}),
             boost::test_tools::per_element());
  BOOST_REQUIRE(v1.schema);
  BOOST_TEST(k8s::get_string(*v1.schema, {"properties", "spec", "description"}) ==
             "Desired state of the RabbitMQVhost.");
  BOOST_REQUIRE(v1.printer_columns.size() == 6u);
  BOOST_TEST(v1.printer_columns[0].name == "Ready");
  BOOST_TEST(v1.printer_columns[0].json_path == ".status.conditions[?(@.type=='Ready')].status");
  BOOST_TEST(v1.printer_columns[2].priority == 1);
  BOOST_TEST(v1.printer_columns[3].type == "integer");
  BOOST_TEST(v1.printer_columns[4].description == "When the password rotates next.");
  const auto& v2 = rs[1];
  BOOST_TEST(v2.version == "v1alpha2");
  BOOST_TEST(!v2.storage_version);
  BOOST_TEST(!v2.status_subresource);
  BOOST_TEST(v2.printer_columns.empty());
}

BOOST_AUTO_TEST_CASE(crd_defaults_and_malformed) {
  auto crd = k8s::object::parse(R"({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.example.com"},
    "spec": {"group": "example.com", "names": {"kind": "Widget", "plural": "widgets"}, "scope": "Cluster",
             "versions": [{"name": "v1", "served": true, "storage": true,
                           "subresources": {"scale": {"specReplicasPath": ".spec.replicas",
                                                       "statusReplicasPath": ".status.replicas"}}}]}})");
  BOOST_REQUIRE(crd);
  auto rs = resources_from_crd(*crd);
  BOOST_REQUIRE(rs.size() == 1u);
  BOOST_TEST(rs[0].singular == "widget");
  BOOST_TEST(rs[0].list_kind == "WidgetList");
  BOOST_TEST(!rs[0].namespaced);
  BOOST_TEST(rs[0].scale_subresource);
  BOOST_TEST(!rs[0].schema);

  auto broken = k8s::object::parse(R"({"kind": "CustomResourceDefinition", "spec": {"group": "x.io",
    "names": {"kind": "X"}, "versions": [{"name": "v1", "served": true}]}})");
  BOOST_REQUIRE(broken);
  BOOST_TEST(resources_from_crd(*broken).empty());
}

BOOST_AUTO_TEST_CASE(kube_version_priority) {
  // The order of version.CompareKubeAwareVersionStrings' documentation.
  std::vector<std::string> expected = {"v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1",
                                       "v12alpha1", "v11alpha2", "foo1", "foo10"};
  std::vector<std::string> shuffled = {"foo10", "v1", "v11alpha2", "v3beta1", "v10", "foo1",
                                       "v12alpha1", "v2", "v10beta3", "v11beta2"};
  std::sort(shuffled.begin(), shuffled.end(),
            [](const auto& a, const auto& b) { return kube_version_less(a, b); });
  BOOST_TEST(shuffled == expected, boost::test_tools::per_element());
  BOOST_TEST(!kube_version_less("v1", "v1"));
  BOOST_TEST(kube_version_less("v1beta1", "v01"));  // "v01" is not a Kubernetes version
}

BOOST_AUTO_TEST_SUITE_END()
