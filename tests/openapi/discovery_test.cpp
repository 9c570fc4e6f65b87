#include "sim/openapi/discovery.hpp"
#include "sim/openapi/resources.hpp"

#include "tests/openapi/sample_crd.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3;
using namespace c5c3::sim::openapi;

namespace {

resource_list served() {
  resource_list all = builtin_resources();
  for (auto& r : resources_from_crd(c5c3::test::sample_crd())) all.push_back(std::move(r));
  return all;
}

// The JSON text of `v` compared with a literal (member order included).
void expect_json(const k8s::json_value& v, std::string_view literal) {
  auto want = k8s::parse_json(literal);
  BOOST_REQUIRE(want);
  BOOST_TEST(k8s::to_json(v) == k8s::to_json(*want));
}

const k8s::json_value* find_named(const k8s::json_value& array, std::string_view key,
                                  std::string_view name) {
  for (const auto& e : array.GetArray())
    if (k8s::get_string(e, {key}) == name) return &e;
  return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(openapi_discovery)

BOOST_AUTO_TEST_CASE(storage_version_hash_is_kubes) {
  // Values kube-apiserver reports for these kinds.
  BOOST_TEST(storage_version_hash("", "v1", "ConfigMap") == "qFsyl6wFWjQ=");
  BOOST_TEST(storage_version_hash("", "v1", "Secret") == "S6u1pOWzb84=");
  BOOST_TEST(storage_version_hash("apiextensions.k8s.io", "v1", "CustomResourceDefinition") ==
             "M5uH+AlWATY=");
  BOOST_TEST(storage_version_hash("", "v1", "") == "");
}

BOOST_AUTO_TEST_CASE(api_versions_document) {
  expect_json(api_versions("127.0.0.1:6443"),
              R"({"kind": "APIVersions", "versions": ["v1"],
                  "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:6443"}]})");
}

BOOST_AUTO_TEST_CASE(group_list_has_preferred_versions) {
  auto d = api_group_list(served());
  BOOST_TEST(k8s::get_string(d, {"kind"}) == "APIGroupList");
  BOOST_TEST(k8s::get_string(d, {"apiVersion"}) == "v1");
  const auto& groups = *k8s::member(d, "groups");
  BOOST_REQUIRE(groups.Size() == 7u);
  std::vector<std::string> names;
  for (const auto& g : groups.GetArray()) names.emplace_back(k8s::get_string(g, {"name"}));
  BOOST_TEST(names == (std::vector<std::string>{"apps", "events.k8s.io", "policy",
                                                "rbac.authorization.k8s.io", "apiextensions.k8s.io",
                                                "coordination.k8s.io", "c5c3.io"}),
             boost::test_tools::per_element());
  expect_json(*find_named(groups, "name", "c5c3.io"),
              R"({"name": "c5c3.io",
                  "versions": [{"groupVersion": "c5c3.io/v1alpha2", "version": "v1alpha2"},
                               {"groupVersion": "c5c3.io/v1alpha1", "version": "v1alpha1"}],
                  "preferredVersion": {"groupVersion": "c5c3.io/v1alpha2", "version": "v1alpha2"}})");
  auto g = api_group(served(), "coordination.k8s.io");
  BOOST_REQUIRE(g);
  expect_json(*g, R"({"kind": "APIGroup", "apiVersion": "v1", "name": "coordination.k8s.io",
                      "versions": [{"groupVersion": "coordination.k8s.io/v1", "version": "v1"}],
                      "preferredVersion": {"groupVersion": "coordination.k8s.io/v1", "version": "v1"}})");
  BOOST_TEST(!api_group(served(), "batch"));
  BOOST_TEST(!api_group(served(), ""));
}

BOOST_AUTO_TEST_CASE(core_resource_list) {
  auto d = api_resource_list(served(), "", "v1");
  BOOST_REQUIRE(d);
  BOOST_TEST(k8s::member(*d, "apiVersion") == nullptr);  // the legacy list has none
  BOOST_TEST(k8s::get_string(*d, {"kind"}) == "APIResourceList");
  BOOST_TEST(k8s::get_string(*d, {"groupVersion"}) == "v1");
  std::vector<std::string> names;
  for (const auto& r : k8s::member(*d, "resources")->GetArray())
    names.emplace_back(k8s::get_string(r, {"name"}));
  BOOST_TEST(names == (std::vector<std::string>{"configmaps", "endpoints", "events", "namespaces",
                                                "namespaces/status", "secrets", "serviceaccounts",
                                                "services", "services/status"}),
             boost::test_tools::per_element());
  const auto& resources = *k8s::member(*d, "resources");
  expect_json(*find_named(resources, "name", "configmaps"),
              R"({"name": "configmaps", "singularName": "configmap", "namespaced": true, "kind": "ConfigMap",
                  "verbs": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
                  "shortNames": ["cm"], "storageVersionHash": "qFsyl6wFWjQ="})");
  expect_json(*find_named(resources, "name", "namespaces/status"),
              R"({"name": "namespaces/status", "singularName": "", "namespaced": false, "kind": "Namespace",
                  "verbs": ["get", "patch", "update"]})");
  BOOST_TEST(!api_resource_list(served(), "", "v2"));
  BOOST_TEST(!api_resource_list(served(), "batch", "v1"));
}

BOOST_AUTO_TEST_CASE(crd_resource_list) {
  auto d = api_resource_list(served(), "c5c3.io", "v1alpha1");
  BOOST_REQUIRE(d);
  expect_json(*d, R"({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": "c5c3.io/v1alpha1",
    "resources": [
      {"name": "rabbitmqvhosts", "singularName": "rabbitmqvhost", "namespaced": true, "kind": "RabbitMQVhost",
       "verbs": ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"],
       "shortNames": ["rmqvhost"], "categories": ["c5c3", "c5c3-orders"], "storageVersionHash": "/IIJUv/WEZY="},
      {"name": "rabbitmqvhosts/status", "singularName": "", "namespaced": true, "kind": "RabbitMQVhost",
       "verbs": ["get", "patch", "update"]}]})");
  // v1alpha2 objects are stored as v1alpha1: the hash names the storage version.
  auto d2 = api_resource_list(served(), "c5c3.io", "v1alpha2");
  BOOST_REQUIRE(d2);
  BOOST_TEST(k8s::get_string((*k8s::member(*d2, "resources"))[0], {"storageVersionHash"}) ==
             "/IIJUv/WEZY=");
  BOOST_TEST(!api_resource_list(served(), "c5c3.io", "v1alpha0"));  // not served
}

BOOST_AUTO_TEST_CASE(aggregated_discovery_for_apis) {
  auto d = aggregated_discovery(served(), false, discovery_version::v2);
  BOOST_TEST(k8s::get_string(d, {"kind"}) == "APIGroupDiscoveryList");
  BOOST_TEST(k8s::get_string(d, {"apiVersion"}) == "apidiscovery.k8s.io/v2");
  const auto& items = *k8s::member(d, "items");
  BOOST_REQUIRE(items.Size() == 7u);
  const k8s::json_value* c5c3 = nullptr;
  for (const auto& i : items.GetArray())
    if (k8s::get_string(i, {"metadata", "name"}) == "c5c3.io") c5c3 = &i;
  BOOST_REQUIRE(c5c3);
  expect_json(*c5c3, R"({"metadata": {"name": "c5c3.io", "creationTimestamp": null}, "versions": [
    {"version": "v1alpha2", "resources": [
      {"resource": "rabbitmqvhosts", "responseKind": {"group": "c5c3.io", "version": "v1alpha2", "kind": "RabbitMQVhost"},
       "scope": "Namespaced", "singularResource": "rabbitmqvhost",
       "verbs": ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"],
       "shortNames": ["rmqvhost"], "categories": ["c5c3", "c5c3-orders"]}], "freshness": "Current"},
    {"version": "v1alpha1", "resources": [
      {"resource": "rabbitmqvhosts", "responseKind": {"group": "c5c3.io", "version": "v1alpha1", "kind": "RabbitMQVhost"},
       "scope": "Namespaced", "singularResource": "rabbitmqvhost",
       "verbs": ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"],
       "shortNames": ["rmqvhost"], "categories": ["c5c3", "c5c3-orders"],
       "subresources": [{"subresource": "status",
                         "responseKind": {"group": "c5c3.io", "version": "v1alpha1", "kind": "RabbitMQVhost"},
                         "verbs": ["get", "patch", "update"]}]}], "freshness": "Current"}]})");
  auto beta = aggregated_discovery(served(), false, discovery_version::v2beta1);
  BOOST_TEST(k8s::get_string(beta, {"apiVersion"}) == "apidiscovery.k8s.io/v2beta1");
  BOOST_TEST(aggregated_discovery_content_type(discovery_version::v2) ==
             "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
}

BOOST_AUTO_TEST_CASE(aggregated_discovery_for_core) {
  auto d = aggregated_discovery(served(), true);
  const auto& items = *k8s::member(d, "items");
  BOOST_REQUIRE(items.Size() == 1u);
  const auto& item = items[0];
  BOOST_TEST(k8s::member(*k8s::member(item, "metadata"), "name") == nullptr);
  const auto& versions = *k8s::member(item, "versions");
  BOOST_REQUIRE(versions.Size() == 1u);
  BOOST_TEST(k8s::get_string(versions[0], {"version"}) == "v1");
  const auto& resources = *k8s::member(versions[0], "resources");
  expect_json(*find_named(resources, "resource", "namespaces"),
              R"({"resource": "namespaces", "responseKind": {"group": "", "version": "v1", "kind": "Namespace"},
                  "scope": "Cluster", "singularResource": "namespace",
                  "verbs": ["create", "delete", "get", "list", "patch", "update", "watch"], "shortNames": ["ns"],
                  "subresources": [{"subresource": "status",
                                    "responseKind": {"group": "", "version": "v1", "kind": "Namespace"},
                                    "verbs": ["get", "patch", "update"]}]})");
  BOOST_TEST(resources.Size() == 7u);
}

BOOST_AUTO_TEST_SUITE_END()
