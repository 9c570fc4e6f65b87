// servicemonitor.AutoReconciler and servicemonitor.FederationReconciler
// (monitoring-controllers.txt; apis-monitoring.md sections 7 and 8): one row
// per behaviour, against a pure world (world.hpp).
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/servicemonitor.hpp"
#include "k8s/base64.hpp"
#include "tests/monitoring/world.hpp"

namespace c5c3::testing::mon {

using namespace ::c5c3::monitoring;

namespace {

k8s::object prometheus(const std::string& ns, const std::string& name, const std::string& spec) {
  return yaml("apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: " + name + ", namespace: " + ns +
              ", uid: " + name + "-uid}\nspec: " + spec + "\n");
}

k8s::object ns_object(const std::string& name, const std::string& labels = "{}") {
  return yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + name + ", labels: " + labels + "}\n");
}

k8s::object smon(const std::string& ns, const std::string& name, const std::string& value, const std::string& spec = "{}") {
  return yaml("apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata:\n  name: " + name +
              "\n  namespace: " + ns + "\n  labels: {monitoring.appscode.com/prometheus: " + value + ", app: api}\nspec: " +
              spec + "\n");
}

void detector_says(world& w, flavour f) {
  w.services = [f](const rt::service_call& c) -> std::optional<rt::service_answer> {
    if (c.service == prometheus_detector_service) return ready_answer(f);
    return std::nullopt;
  };
}


std::map<std::string, std::string> labels_of(const world& w, const std::string& ns, const std::string& name) {
  return w.find("ServiceMonitor", ns, name)->labels();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(servicemonitor_auto)

BOOST_AUTO_TEST_CASE(each_behaviour_of_the_auto_reconciler) {
  auto k = auto_declaration();
  const std::map<std::string, std::string> untouched{{"monitoring.appscode.com/prometheus", "auto"}, {"app", "api"}};
  struct row {
    const char* name;
    flavour f;
    std::vector<k8s::object> objects;
    std::map<std::string, std::string> labels;  // the ServiceMonitor's afterwards
    std::string error;
  };
  auto a = prometheus("monitoring-a", "a", "{serviceMonitorSelector: {matchLabels: {release: a}}, serviceMonitorNamespaceSelector: {}}");
  auto b = prometheus("monitoring-b", "b", "{serviceMonitorSelector: {matchLabels: {release: b}}, serviceMonitorNamespaceSelector: {}}");
  auto selects_api = prometheus("monitoring-c", "c", "{serviceMonitorSelector: {matchLabels: {app: api}}, serviceMonitorNamespaceSelector: {}}");
  auto nil_ns = prometheus("monitoring-c", "c", "{serviceMonitorSelector: {matchLabels: {app: api}}}");
  auto uwm = prometheus("openshift-user-workload-monitoring", "user-workload", "{serviceMonitorSelector: {matchLabels: {uwm: 'true'}}}");
  auto system = prometheus("cattle-monitoring-system", "rancher-monitoring-prometheus", "{serviceMonitorSelector: {matchLabels: {release: rancher-monitoring}}}");
  auto project = prometheus("cattle-project-p-abc-monitoring", "p", "{serviceMonitorSelector: {matchLabels: {release: p}}, serviceMonitorNamespaceSelector: {matchLabels: {helm.cattle.io/projectId: p-abc}}}");
  auto with = [&](std::map<std::string, std::string> m) {
    auto out = untouched;
    for (auto& [x, y] : m) out[x] = y;
    return out;
  };
  const auto kube_system = ns_object("kube-system", "{field.cattle.io/projectId: p-system}");
  const row rows[] = {
      {"no Prometheus: nothing", standalone(), {ns_object("demo")}, untouched, ""},
      {"a Prometheus already selects it: nothing", standalone(false), {ns_object("demo"), a, selects_api}, untouched, ""},
      {"none selects it: the first by namespace and name", standalone(false), {ns_object("demo"), b, a}, with({{"release", "a"}}), ""},
      {"a nil serviceMonitorNamespaceSelector selects nothing", standalone(false), {ns_object("demo"), nil_ns}, with({{"app", "api"}}), ""},
      {"OpenShift: the default Prometheus, not the first", openshift_flavour(), {ns_object("demo"), a, uwm}, with({{"uwm", "true"}}), ""},
      {"Rancher, a namespace outside any project: the system Prometheus", rancher_flavour(),
       {ns_object("demo"), kube_system, system, project}, with({{"release", "rancher-monitoring"}}), ""},
      {"Rancher, a namespace of the system project: the system Prometheus", rancher_flavour(),
       {ns_object("demo", "{field.cattle.io/projectId: p-system}"), kube_system, system, project},
       with({{"release", "rancher-monitoring"}}), ""},
      {"Rancher, a project namespace: its project's Prometheus", rancher_flavour(),
       {ns_object("demo", "{field.cattle.io/projectId: p-abc, helm.cattle.io/projectId: p-abc}"), kube_system, system, project},
       with({{"release", "p"}}), ""},
      {"Rancher, a project without project monitoring: nothing", rancher_flavour(),
       {ns_object("demo", "{field.cattle.io/projectId: p-abc}"), kube_system, system, project}, untouched, ""},
      {"the namespace is missing: an error", standalone(), {a}, untouched, "namespaces \"demo\" not found"},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      world w;
      detector_says(w, r.f);
      for (const auto& o : r.objects) w.put(o);
      w.put(smon("demo", "api", "auto"));
      auto p = w.converge(*k, "demo", "api");
      BOOST_TEST(p.error == r.error);
      BOOST_TEST((labels_of(w, "demo", "api") == r.labels));
      BOOST_TEST(writes_of(w).size() == (r.labels == untouched ? 0u : 1u));
    }
  }
  // The detector gates first: with no Prometheus at all its "unknown" error.
  auto p = plan_auto(snapshot_builder(smon("demo", "api", "auto")).answer(prometheus_detector_service, unknown_answer()).get());
  BOOST_TEST(p.error == "unknown");
  auto rules = rt::wake_rules_of(*k);
  BOOST_TEST_REQUIRE(rules.size() == 1u);
  BOOST_TEST(rules[0].gvk.kind == "Prometheus");
  BOOST_TEST(rules[0].relates(a, smon("x", "y", "auto")));
  BOOST_TEST(k->order_selector == "monitoring.appscode.com/prometheus=auto");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(servicemonitor_federation)

namespace {

// A Rancher cluster (the fixtures' rancher/ flavour): rancher-monitoring, a
// project p-abc with its Prometheus, and a federated ServiceMonitor in the
// project's workload namespace `shop` selecting Service api there.
world rancher_world(const std::string& smon_ns = "shop") {
  world w;
  detector_says(w, rancher_flavour());
  w.put(ns_object("kube-system", "{field.cattle.io/projectId: p-system}"));
  w.put(ns_object("shop", "{field.cattle.io/projectId: p-abc, helm.cattle.io/projectId: p-abc}"));
  w.put(ns_object("cattle-project-p-abc", "{field.cattle.io/projectId: p-abc, helm.cattle.io/projectId: p-abc}"));
  w.put(prometheus("cattle-monitoring-system", "rancher-monitoring-prometheus",
                   "{serviceMonitorSelector: {matchLabels: {release: rancher-monitoring}}, serviceMonitorNamespaceSelector: {}}"));
  w.put(prometheus("cattle-project-p-abc-monitoring", "p",
                   "{serviceMonitorSelector: {matchLabels: {release: p}}, serviceMonitorNamespaceSelector: {matchLabels: {helm.cattle.io/projectId: p-abc}}}"));
  w.put(yaml("apiVersion: v1\nkind: Service\nmetadata: {name: api, namespace: shop, labels: {app: api}, annotations: {a: b}}\n"
             "spec: {clusterIP: 10.96.0.42, ports: [{name: metrics, port: 8080, targetPort: 8081}]}\n"));
  w.put(yaml("apiVersion: v1\nkind: Endpoints\nmetadata: {name: api, namespace: shop, labels: {app: api}}\n"
             "subsets: [{addresses: [{ip: 10.244.1.7}], ports: [{name: metrics, port: 8081}]}]\n"));
  w.put(yaml("apiVersion: v1\nkind: Secret\nmetadata: {name: api-ca, namespace: " + smon_ns + "}\ntype: Opaque\ndata: {ca.crt: " +
             k8s::base64_encode("CA") + "}\n"));
  w.put(smon(smon_ns, "api", "federated",
             "{selector: {matchLabels: {app: api}}, namespaceSelector: {matchNames: [shop]}, endpoints: [{port: metrics, "
             "tlsConfig: {ca: {secret: {name: api-ca, key: ca.crt}}}, metricRelabelings: [{sourceLabels: [__name__], "
             "regex: 'go_.*', action: drop}]}]}"));
  return w;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_project_prometheus_gets_copies_the_default_one_the_labels) {
  auto k = federation_declaration();
  auto w = rancher_world();
  auto p = w.converge(*k, "shop", "api");
  BOOST_TEST(p.error.empty(), p.error);
  const std::vector<std::string> want{
      "patch ServiceMonitor shop/api",                                     // the default Prometheus's labels
      "create ServiceMonitor cattle-project-p-abc-monitoring/api",         // the copy first
      "create Service cattle-project-p-abc-monitoring/api",                // then what it owns
      "create Endpoints cattle-project-p-abc-monitoring/api",
      "apply Secret cattle-project-p-abc-monitoring/api-ca",
  };
  BOOST_TEST(writes_of(w) == want, boost::test_tools::per_element());
  BOOST_TEST(labels_of(w, "shop", "api").at("release") == "rancher-monitoring");
  const auto& copy = *w.find("ServiceMonitor", "cattle-project-p-abc-monitoring", "api");
  BOOST_TEST(copy.controller_reference()->name == "p");
  // The copy's own labels plus the selector's (a new copy has none of its own).
  BOOST_TEST((copy.labels() == std::map<std::string, std::string>{{"release", "p"}}));
  BOOST_TEST(same_json(copy.get({"spec", "endpoints"}), R"j([{"port":"metrics","tlsConfig":{"ca":{"secret":{"name":"api-ca","key":"ca.crt"}}},"metricRelabelings":)j"
             R"j([{"action":"keep","sourceLabels":["namespace"],"regex":"(|shop)"},{"sourceLabels":["__name__"],)j"
             R"j("regex":"go_.*","action":"drop"}],"honorLabels":true}])j"));
  const auto& svc = *w.find("Service", "cattle-project-p-abc-monitoring", "api");
  BOOST_TEST(svc.controller_reference()->kind == "ServiceMonitor");
  BOOST_TEST(svc.annotation("a").value_or("") == "b");
  BOOST_TEST(same_json(svc.get({"spec"}), R"({"type":"ClusterIP","ports":[{"name":"metrics","port":8080,"targetPort":8080}]})"));
  const auto& ep = *w.find("Endpoints", "cattle-project-p-abc-monitoring", "api");
  BOOST_TEST(same_json(ep.get({"subsets"}), R"([{"addresses":[{"ip":"10.96.0.42"}],"ports":[{"name":"metrics","port":8080}]}])"));
  const auto& sec = *w.find("Secret", "cattle-project-p-abc-monitoring", "api-ca");
  BOOST_TEST(sec.get_string({"type"}) == "Opaque");
  BOOST_TEST(*k8s::base64_decode(sec.get_string({"data", "ca.crt"})) == "CA");
  BOOST_TEST(sec.controller_reference()->name == "api");
  // Settled: only the Secrets, applied again (their copies are not read).
  w.log.clear();
  w.converge(*k, "shop", "api");
  const std::vector<std::string> again{"apply Secret cattle-project-p-abc-monitoring/api-ca"};
  BOOST_TEST(writes_of(w) == again, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(each_behaviour_of_the_federation_reconciler) {
  auto k = federation_declaration();
  BOOST_TEST_CONTEXT("no Prometheus: nothing, and the detector is not even asked") {
    world w;
    w.put(smon("shop", "api", "federated"));
    w.converge(*k, "shop", "api");
    BOOST_TEST(w.log.empty());
  }
  BOOST_TEST_CONTEXT("a cluster that is not federated: the default Prometheus's labels") {
    world w;
    detector_says(w, standalone(false));
    w.put(prometheus("monitoring", "b", "{serviceMonitorSelector: {matchLabels: {release: b}}}"));
    w.put(prometheus("monitoring", "a", "{serviceMonitorSelector: {matchLabels: {release: a}}}"));
    w.put(smon("shop", "api", "federated"));
    w.converge(*k, "shop", "api");
    BOOST_TEST(labels_of(w, "shop", "api").at("release") == "a");
    BOOST_TEST(writes_of(w).size() == 1u);
  }
  BOOST_TEST_CONTEXT("in the project Prometheus's own namespace: the default's labels (sorted first), no copy, no retry") {
    auto w = rancher_world("cattle-project-p-abc-monitoring");
    auto p = w.converge(*k, "cattle-project-p-abc-monitoring", "api");
    BOOST_TEST(p.error.empty());
    const std::vector<std::string> want{"patch ServiceMonitor cattle-project-p-abc-monitoring/api"};
    BOOST_TEST(writes_of(w) == want, boost::test_tools::per_element());
    BOOST_TEST(labels_of(w, "cattle-project-p-abc-monitoring", "api").at("release") == "rancher-monitoring");
  }
  BOOST_TEST_CONTEXT("a TLS CA Secret that is missing: an error at once") {
    auto w = rancher_world();
    w.remove("Secret", "shop", "api-ca");
    auto p = w.converge(*k, "shop", "api");
    BOOST_TEST(p.error == "secrets \"api-ca\" not found");
    BOOST_TEST(writes_of(w).empty());
  }
  BOOST_TEST_CONTEXT("missing Endpoints and a refused copy: the others are made, the errors aggregated") {
    auto w = rancher_world();
    w.remove("Endpoints", "shop", "api");
    w.fails = [](const rt::child_write& wr) -> std::optional<std::string> {
      if (wr.kind() == "Service") return "services \"api\" is forbidden";
      return std::nullopt;
    };
    auto p = w.converge(*k, "shop", "api");
    BOOST_TEST(p.error == "[services \"api\" is forbidden, endpoints \"api\" not found]");
    BOOST_TEST(static_cast<bool>(w.find("ServiceMonitor", "cattle-project-p-abc-monitoring", "api")));
    BOOST_TEST(static_cast<bool>(w.find("Secret", "cattle-project-p-abc-monitoring", "api-ca")));
    BOOST_TEST(!w.find("Service", "cattle-project-p-abc-monitoring", "api"));
  }
  BOOST_TEST_CONTEXT("the keep rule already at the head of the source is not added twice") {
    auto w = rancher_world();
    w.put(smon("shop", "api", "federated",
               "{selector: {matchLabels: {app: api}}, endpoints: [{port: metrics, metricRelabelings: "
               "[{action: keep, sourceLabels: [namespace], regex: '(|shop)'}]}]}"));
    w.converge(*k, "shop", "api");
    const auto& copy = *w.find("ServiceMonitor", "cattle-project-p-abc-monitoring", "api");
    BOOST_TEST(copy.get({"spec", "endpoints"})->GetArray()[0]["metricRelabelings"].Size() == 1u);
  }
}

// Found by fault_plans_federation_test: a copy the cache does not show yet
// (a stale Service informer) met AlreadyExists on every round ("the plan did
// not settle within 50 rounds; it still asks to create Service ..."), and a
// Secret copied into a Prometheus being deleted outlived it.
BOOST_AUTO_TEST_CASE(a_copy_the_cache_misses_is_patched_and_a_deleting_prometheus_gets_none) {
  auto k = federation_declaration();
  BOOST_TEST_CONTEXT("the copied Service there already: patched, not created again") {
    auto w = rancher_world();
    w.after_sense = [](world& w) {
      w.put(yaml("apiVersion: v1\nkind: Service\nmetadata: {name: api, namespace: cattle-project-p-abc-monitoring}\n"
                 "spec: {type: ClusterIP, ports: [{name: metrics, port: 1, targetPort: 1}]}\n"));
    };
    w.converge(*k, "shop", "api");
    const std::vector<std::string> want{
        "patch ServiceMonitor shop/api", "create ServiceMonitor cattle-project-p-abc-monitoring/api",
        "create Service cattle-project-p-abc-monitoring/api", "patch Service cattle-project-p-abc-monitoring/api",
        "create Endpoints cattle-project-p-abc-monitoring/api", "apply Secret cattle-project-p-abc-monitoring/api-ca"};
    BOOST_TEST(writes_of(w) == want, boost::test_tools::per_element());
    const auto& svc = *w.find("Service", "cattle-project-p-abc-monitoring", "api");
    BOOST_TEST(svc.controller_reference()->kind == "ServiceMonitor");
  }
  BOOST_TEST_CONTEXT("the project Prometheus being deleted: the default's labels only") {
    auto w = rancher_world();
    auto b = w.find("Prometheus", "cattle-project-p-abc-monitoring", "p")->edit();
    b.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
    w.put(std::move(b).freeze());
    w.converge(*k, "shop", "api");
    const std::vector<std::string> want{"patch ServiceMonitor shop/api"};
    BOOST_TEST(writes_of(w) == want, boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(services_and_prometheus_objects_wake_the_federated_servicemonitors) {
  auto k = federation_declaration();
  BOOST_TEST(k->order_selector == "monitoring.appscode.com/prometheus=federated");
  auto rules = rt::wake_rules_of(*k);
  BOOST_TEST_REQUIRE(rules.size() == 2u);
  const rt::wake_rule* services = rules[0].gvk.kind == "Service" ? &rules[0] : &rules[1];
  const rt::wake_rule* proms = rules[0].gvk.kind == "Service" ? &rules[1] : &rules[0];
  auto svc = [](const std::string& ns, const std::string& labels) {
    return yaml("apiVersion: v1\nkind: Service\nmetadata: {name: api, namespace: " + ns + ", labels: " + labels + "}\n");
  };
  auto names = smon("shop", "api", "federated", "{selector: {matchLabels: {app: api}}, namespaceSelector: {matchNames: [shop]}}");
  auto any = smon("shop", "api", "federated", "{selector: {matchLabels: {app: api}}, namespaceSelector: {any: true}}");
  BOOST_TEST(services->relates(svc("shop", "{app: api}"), names));
  BOOST_TEST(!services->relates(svc("other", "{app: api}"), names));
  BOOST_TEST(services->relates(svc("other", "{app: api}"), any));
  BOOST_TEST(!services->relates(svc("shop", "{app: web}"), names));
  BOOST_TEST(proms->relates(prometheus("m", "p", "{}"), names));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing::mon
