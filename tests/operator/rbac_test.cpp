// Offline checks of deploy/rbac/ and deploy/operator.yaml: every file parses,
// the ClusterRoles (management and target cluster) grant exactly the tables below (what the operator does,
// rule for rule), no wildcard, orders are never created or deleted, and the
// binding, the ServiceAccount and the Deployment name one another.
#include "k8s/yaml.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace {

using c5c3::k8s::json_document;
using c5c3::k8s::json_value;

std::string source_dir() {
  const char* p = std::getenv("C5C3_SOURCE_DIR");
  BOOST_REQUIRE_MESSAGE(p && *p, "C5C3_SOURCE_DIR is not set");
  return p;
}

std::vector<json_document> read(const std::string& rel) {
  std::string error;
  auto docs = c5c3::k8s::read_yaml_file(source_dir() + "/" + rel, &error);
  BOOST_REQUIRE_MESSAGE(docs.has_value(), rel << ": " << error);
  return std::move(*docs);
}

std::string str(const json_value& v, const char* key) {
  if (!v.IsObject() || !v.HasMember(key) || !v[key].IsString()) return {};
  return v[key].GetString();
}

const json_value* find_doc(const std::vector<json_document>& docs, const std::string& kind) {
  for (const auto& d : docs)
    if (str(d, "kind") == kind) return &d;
  return nullptr;
}

using grant = std::tuple<std::string, std::string, std::string>;  // group, resource, verb

// Every (group, resource, verb) the ClusterRole's rules grant.
std::set<grant> grants(const json_value& role) {
  std::set<grant> out;
  BOOST_REQUIRE(role.HasMember("rules") && role["rules"].IsArray());
  for (const auto& r : role["rules"].GetArray()) {
    BOOST_REQUIRE(r.HasMember("apiGroups") && r.HasMember("resources") && r.HasMember("verbs"));
    for (const auto& g : r["apiGroups"].GetArray())
      for (const auto& res : r["resources"].GetArray())
        for (const auto& v : r["verbs"].GetArray()) out.emplace(g.GetString(), res.GetString(), v.GetString());
  }
  return out;
}

void add(std::set<grant>& s, const std::string& group, const std::vector<std::string>& resources,
         const std::vector<std::string>& verbs) {
  for (const auto& r : resources)
    for (const auto& v : verbs) s.emplace(group, r, v);
}

// What the operator does on the management cluster.
std::set<grant> expected_grants() {
  const std::vector<std::string> read{"get", "list", "watch"};
  const std::vector<std::string> write{"get", "list", "watch", "create", "update", "patch", "delete"};
  std::set<grant> s;
  add(s, "c5c3.io", {"rabbitmqvhosts"}, {"get", "list", "watch", "update", "patch"});
  add(s, "c5c3.io", {"rabbitmqvhosts/status"}, {"get", "update", "patch"});
  add(s, "c5c3.io", {"rabbitmqvhosts/finalizers"}, {"update"});
  add(s, "c5c3.io",
      {"keystoneusers", "keystoneprojects", "keystoneroleassignments", "keystonecatalogentries",
       "keystoneapplicationcredentials"},
      {"get", "list", "watch", "update", "patch"});
  add(s, "c5c3.io",
      {"keystoneusers/status", "keystoneprojects/status", "keystoneroleassignments/status",
       "keystonecatalogentries/status", "keystoneapplicationcredentials/status"},
      {"get", "update", "patch"});
  add(s, "c5c3.io",
      {"keystoneusers/finalizers", "keystoneprojects/finalizers", "keystoneroleassignments/finalizers",
       "keystonecatalogentries/finalizers", "keystoneapplicationcredentials/finalizers"},
      {"update"});
  add(s, "openstack.k-orc.cloud",
      {"users", "projects", "roles", "roleassignments", "services", "endpoints", "regions", "applicationcredentials"},
      {"get", "list", "watch", "create", "patch", "delete"});
  add(s, "openstack.k-orc.cloud",
      {"users/status", "projects/status", "services/status", "endpoints/status", "regions/status",
       "applicationcredentials/status"},
      {"patch"});
  add(s, "c5c3.io", {"controlplanes"}, read);
  add(s, "rabbitmq.com", {"vhosts", "users", "permissions"}, write);
  add(s, "rabbitmq.com", {"rabbitmqclusters"}, read);
  add(s, "", {"secrets"}, write);
  add(s, "external-secrets.io", {"pushsecrets"}, write);
  add(s, "external-secrets.io", {"secretstores", "clustersecretstores"}, read);
  add(s, "apiextensions.k8s.io", {"customresourcedefinitions"}, read);
  // Sharded replicas: their own Lease (server-side apply, creating it) and the ring's watch.
  add(s, "coordination.k8s.io", {"leases"}, {"list", "watch", "create", "patch"});
  return s;
}

// What the operator does on a target cluster.
std::set<grant> expected_target_grants() {
  std::set<grant> s;
  add(s, "c5c3.io", {"rabbitmqvhosts"}, {"get", "list", "watch", "update", "patch"});
  add(s, "c5c3.io", {"rabbitmqvhosts/status"}, {"get", "update", "patch"});
  add(s, "c5c3.io", {"rabbitmqvhosts/finalizers"}, {"update"});
  add(s, "c5c3.io",
      {"keystoneusers", "keystoneprojects", "keystoneroleassignments", "keystonecatalogentries",
       "keystoneapplicationcredentials"},
      {"get", "list", "watch", "update", "patch"});
  add(s, "c5c3.io",
      {"keystoneusers/status", "keystoneprojects/status", "keystoneroleassignments/status",
       "keystonecatalogentries/status", "keystoneapplicationcredentials/status"},
      {"get", "update", "patch"});
  add(s, "c5c3.io",
      {"keystoneusers/finalizers", "keystoneprojects/finalizers", "keystoneroleassignments/finalizers",
       "keystonecatalogentries/finalizers", "keystoneapplicationcredentials/finalizers"},
      {"update"});
  add(s, "", {"secrets"}, {"get", "list", "watch", "create", "update", "patch", "delete"});
  add(s, "apiextensions.k8s.io", {"customresourcedefinitions"}, {"get", "list", "watch"});
  return s;
}

void check_exact(const std::set<grant>& got, const std::set<grant>& want) {
  for (const auto& g : want)
    BOOST_TEST(got.count(g) == 1u, "missing: " << std::get<0>(g) << " " << std::get<1>(g) << " " << std::get<2>(g));
  for (const auto& g : got) {
    BOOST_TEST(want.count(g) == 1u, "extra: " << std::get<0>(g) << " " << std::get<1>(g) << " " << std::get<2>(g));
    BOOST_TEST(std::get<0>(g) != "*");
    BOOST_TEST(std::get<1>(g) != "*");
    BOOST_TEST(std::get<2>(g) != "*");
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rbac)

BOOST_AUTO_TEST_CASE(cluster_role_grants_exactly_what_the_operator_does) {
  auto docs = read("deploy/rbac/role.yaml");
  const auto* role = find_doc(docs, "ClusterRole");
  BOOST_REQUIRE(role != nullptr);
  BOOST_TEST(str(*role, "apiVersion") == "rbac.authorization.k8s.io/v1");
  auto got = grants(*role);
  check_exact(got, expected_grants());
  // It never creates or deletes an order.
  BOOST_TEST(got.count({"c5c3.io", "rabbitmqvhosts", "create"}) == 0u);
  BOOST_TEST(got.count({"c5c3.io", "rabbitmqvhosts", "delete"}) == 0u);
}

// What the monitoring controllers do (actors/monitoring; deploy/rbac/monitoring_role.yaml).
std::set<grant> expected_monitoring_grants() {
  const std::vector<std::string> read{"get", "list", "watch"};
  std::set<grant> s;
  // The CRD watch, and the grafana group's CRD bootstrap (create or update, then read).
  add(s, "apiextensions.k8s.io", {"customresourcedefinitions"}, {"get", "list", "watch"});
  add(s, "monitoring.coreos.com", {"prometheuses", "alertmanagers"}, {"get", "list", "watch", "patch"});
  add(s, "monitoring.coreos.com", {"servicemonitors", "alertmanagerconfigs"}, {"get", "list", "watch", "create", "patch"});
  add(s, "monitoring.coreos.com", {"prometheuses/finalizers", "servicemonitors/finalizers"}, {"update"});
  add(s, "", {"services/finalizers", "serviceaccounts/finalizers"}, {"update"});
  add(s, "appcatalog.appscode.com", {"appbindings/finalizers"}, {"update"});
  add(s, "apiregistration.k8s.io", {"apiservices"}, read);
  add(s, "appcatalog.appscode.com", {"appbindings"}, {"get", "list", "watch", "create", "patch"});
  add(s, "charts.x-helm.dev", {"clusterchartpresets", "chartpresets"}, {"get", "list", "watch", "create", "patch", "delete"});
  add(s, "", {"namespaces", "configmaps"}, read);
  add(s, "", {"namespaces"}, {"create", "patch", "delete"});  // the ClientOrgReconciler
  add(s, "openviz.dev", {"grafanadashboards"}, {"get", "list", "watch", "create", "patch", "delete"});
  add(s, "", {"services", "endpoints", "secrets"}, {"get", "list", "watch", "create", "patch"});
  add(s, "", {"serviceaccounts"}, {"get", "list", "watch", "create", "patch"});
  add(s, "rbac.authorization.k8s.io", {"clusterroles", "rolebindings"}, {"get", "create", "patch"});
  add(s, "rbac.authorization.k8s.io", {"clusterroles"}, {"bind"});
  add(s, "operator.openshift.io", {"ingresscontrollers"}, read);
  add(s, "operator.open-cluster-management.io", {"klusterlets"}, read);
  add(s, "cluster.open-cluster-management.io", {"clusterclaims"}, read);
  // Sharded replicas: the ring "monitoring"'s own Lease and its watch.
  add(s, "coordination.k8s.io", {"leases"}, {"list", "watch", "create", "patch"});
  return s;
}

BOOST_AUTO_TEST_CASE(the_monitoring_cluster_role_grants_exactly_what_its_controllers_do) {
  auto docs = read("deploy/rbac/monitoring_role.yaml");
  const auto* role = find_doc(docs, "ClusterRole");
  BOOST_REQUIRE(role != nullptr);
  auto got = grants(*role);
  // The one wildcard: the ClusterRole appscode:trickster:proxy grants
  // services/proxy "*", and only a holder of a permission may grant it.
  BOOST_TEST(got.erase({"", "services/proxy", "*"}) == 1u);
  check_exact(got, expected_monitoring_grants());
  for (const auto& r : (*role)["rules"].GetArray())
    for (const auto& v : r["verbs"].GetArray())
      if (std::string(v.GetString()) == "bind") {
        BOOST_REQUIRE(r.HasMember("resourceNames"));
        BOOST_TEST(r["resourceNames"].Size() == 1u);
        BOOST_TEST(std::string(r["resourceNames"][0].GetString()) == "cluster-monitoring-view");
      }
  const auto* binding = find_doc(docs, "ClusterRoleBinding");
  BOOST_REQUIRE(binding != nullptr);
  BOOST_TEST(str((*binding)["roleRef"], "name") == str((*role)["metadata"], "name"));
  BOOST_TEST(str((*binding)["subjects"][0], "name") == "c5c3-operator");
}

// What the grafana controllers do (actors/monitoring/grafana_*; deploy/rbac/grafana_role.yaml).
BOOST_AUTO_TEST_CASE(the_grafana_cluster_role_grants_exactly_what_its_controllers_do) {
  const std::vector<std::string> read_verbs{"get", "list", "watch"};
  std::set<grant> want;
  // The activation's watch, and the CRD bootstrap's create or update.
  add(want, "apiextensions.k8s.io", {"customresourcedefinitions"}, {"get", "list", "watch", "create", "update"});
  add(want, "openviz.dev", {"grafanadashboards", "grafanadatasources"}, {"get", "list", "watch", "patch"});
  add(want, "openviz.dev", {"grafanadashboards/status", "grafanadatasources/status"}, {"get", "update", "patch"});
  add(want, "appcatalog.appscode.com", {"appbindings"}, read_verbs);
  add(want, "", {"secrets"}, {"get"});
  add(want, "", {"events"}, {"create", "patch"});
  add(want, "coordination.k8s.io", {"leases"}, {"list", "watch", "create", "patch"});  // sharded: the ring's Lease
  auto docs = read("deploy/rbac/grafana_role.yaml");
  const auto* role = find_doc(docs, "ClusterRole");
  BOOST_REQUIRE(role != nullptr);
  check_exact(grants(*role), want);
  const auto* binding = find_doc(docs, "ClusterRoleBinding");
  BOOST_REQUIRE(binding != nullptr);
  BOOST_TEST(str((*binding)["roleRef"], "name") == str((*role)["metadata"], "name"));
  BOOST_TEST(str((*binding)["subjects"][0], "name") == "c5c3-operator");
}

BOOST_AUTO_TEST_CASE(binding_service_account_and_deployment_agree) {
  auto sa_docs = read("deploy/rbac/service_account.yaml");
  const auto* sa = find_doc(sa_docs, "ServiceAccount");
  BOOST_REQUIRE(sa != nullptr);
  std::string sa_name = str((*sa)["metadata"], "name");
  std::string sa_ns = str((*sa)["metadata"], "namespace");
  BOOST_TEST(!sa_name.empty());
  BOOST_TEST(!sa_ns.empty());
  const auto* ns = find_doc(sa_docs, "Namespace");
  BOOST_REQUIRE(ns != nullptr);
  BOOST_TEST(str((*ns)["metadata"], "name") == sa_ns);

  auto role_docs = read("deploy/rbac/role.yaml");
  std::string role_name = str((*find_doc(role_docs, "ClusterRole"))["metadata"], "name");

  auto b_docs = read("deploy/rbac/role_binding.yaml");
  const auto* b = find_doc(b_docs, "ClusterRoleBinding");
  BOOST_REQUIRE(b != nullptr);
  BOOST_TEST(str((*b)["roleRef"], "kind") == "ClusterRole");
  BOOST_TEST(str((*b)["roleRef"], "name") == role_name);
  BOOST_TEST(str((*b)["roleRef"], "apiGroup") == "rbac.authorization.k8s.io");
  BOOST_REQUIRE((*b)["subjects"].IsArray());
  BOOST_REQUIRE((*b)["subjects"].Size() == 1u);
  const auto& subject = (*b)["subjects"][0];
  BOOST_TEST(str(subject, "kind") == "ServiceAccount");
  BOOST_TEST(str(subject, "name") == sa_name);
  BOOST_TEST(str(subject, "namespace") == sa_ns);

  auto d_docs = read("deploy/operator.yaml");
  const auto* d = find_doc(d_docs, "Deployment");
  BOOST_REQUIRE(d != nullptr);
  BOOST_TEST(str((*d)["metadata"], "namespace") == sa_ns);
  const auto& pod = (*d)["spec"]["template"]["spec"];
  BOOST_TEST(str(pod, "serviceAccountName") == sa_name);
  const auto& c = pod["containers"][0];
  std::set<std::string> args;
  for (const auto& a : c["args"].GetArray()) args.insert(a.GetString());
  BOOST_TEST(args.count("--metrics-bind-address=:8080") == 1u);
  BOOST_TEST(args.count("--health-probe-bind-address=:8081") == 1u);
  BOOST_TEST(str(c["livenessProbe"]["httpGet"], "path") == "/livez");
  BOOST_TEST(str(c["readinessProbe"]["httpGet"], "path") == "/readyz");
  std::set<std::pair<std::string, int>> ports;
  for (const auto& p : c["ports"].GetArray()) ports.emplace(str(p, "name"), p["containerPort"].GetInt());
  BOOST_TEST(ports.count({"metrics", 8080}) == 1u);
  BOOST_TEST(ports.count({"probes", 8081}) == 1u);
  BOOST_TEST(str(c["livenessProbe"]["httpGet"], "port") == "probes");
  // The pod's namespace reaches the operator as its own namespace.
  bool pod_namespace = false;
  for (const auto& e : c["env"].GetArray())
    pod_namespace = pod_namespace || (str(e, "name") == "POD_NAMESPACE" &&
                                      str(e["valueFrom"]["fieldRef"], "fieldPath") == "metadata.namespace");
  BOOST_TEST(pod_namespace);
  const auto* svc = find_doc(d_docs, "Service");
  BOOST_REQUIRE(svc != nullptr);
  BOOST_TEST(str((*svc)["spec"]["ports"][0], "targetPort") == "metrics");
}

BOOST_AUTO_TEST_CASE(target_cluster_role_grants_exactly_what_the_operator_does_there) {
  auto docs = read("deploy/rbac/target_cluster.yaml");
  const auto* role = find_doc(docs, "ClusterRole");
  BOOST_REQUIRE(role != nullptr);
  auto got = grants(*role);
  check_exact(got, expected_target_grants());
  BOOST_TEST(got.count({"c5c3.io", "rabbitmqvhosts", "create"}) == 0u);
  const auto* sa = find_doc(docs, "ServiceAccount");
  const auto* b = find_doc(docs, "ClusterRoleBinding");
  BOOST_REQUIRE(sa != nullptr);
  BOOST_REQUIRE(b != nullptr);
  BOOST_TEST(str((*b)["roleRef"], "name") == str((*role)["metadata"], "name"));
  BOOST_REQUIRE((*b)["subjects"].IsArray());
  BOOST_REQUIRE((*b)["subjects"].Size() == 1u);
  BOOST_TEST(str((*b)["subjects"][0], "name") == str((*sa)["metadata"], "name"));
  BOOST_TEST(str((*b)["subjects"][0], "namespace") == str((*sa)["metadata"], "namespace"));
}

BOOST_AUTO_TEST_SUITE_END()
