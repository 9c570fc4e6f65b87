// The monitoring controllers against the in-process emulator and the backend
// stand-in (monitoring_fixture.hpp): activation by CRDs (one that appears
// after start included), the PrometheusReconciler's registration, AppBindings
// and teardown, the backend's failures retried without a second registration,
// the AlertmanagerReconciler woken by the inbox APIService, the ServiceMonitor
// controllers woken by Prometheus and Service changes, and the federated
// copies on a Rancher cluster.
#include "tests/monitoring/monitoring_fixture.hpp"

namespace c5c3::testing::mon {

using namespace ::c5c3::monitoring;

namespace {

const char* const demo_yaml = R"(apiVersion: v1
kind: Namespace
metadata: {name: demo}
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: api, namespace: demo, labels: {monitoring.appscode.com/prometheus: auto}}
spec: {selector: {matchLabels: {app: api}}, endpoints: [{port: metrics}]}
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: api-fed, namespace: demo, labels: {monitoring.appscode.com/prometheus: federated}}
spec: {selector: {matchLabels: {app: api}}, namespaceSelector: {matchNames: [demo]}, endpoints: [{port: metrics}]}
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: plain, namespace: demo}
spec: {selector: {matchLabels: {app: api}}, endpoints: [{port: metrics}]}
)";


}  // namespace

BOOST_AUTO_TEST_SUITE(monitoring_integration)

BOOST_AUTO_TEST_CASE(a_crd_that_appears_after_start_activates_its_controllers_once) {
  fixture_options o;
  o.crd_dirs = {source_dir() + "/deploy/crds"};  // no monitoring.coreos.com kinds yet
  mon_fixture f(o);
  BOOST_TEST(f.activated().empty());
  // The Prometheus CRD appears: the Prometheus group starts without a restart.
  f.create(read_text(source_dir() + "/sim/crds/monitoring.coreos.com_prometheuses.yaml"));
  BOOST_TEST_REQUIRE(eventually([&] { return f.activated() == std::vector<std::string>{"monitoring.coreos.com/Prometheus"}; }));
  for (const auto* crd : {"charts.x-helm.dev_clusterchartpresets.yaml", "charts.x-helm.dev_chartpresets.yaml"})
    f.create(read_text(source_dir() + "/sim/crds/" + crd));
  f.create(prometheus_yaml);
  BOOST_TEST_REQUIRE(eventually([&] { return registered(f); }));
  BOOST_TEST(f.get("prometheuses.monitoring.coreos.com", "monitoring", "k8s").has_finalizer(prometheus_finalizer));
  // The ServiceMonitor CRD starts its own group, the Prometheus one stays as it was.
  f.create(read_text(source_dir() + "/sim/crds/monitoring.coreos.com_servicemonitors.yaml"));
  BOOST_TEST_REQUIRE(eventually([&] { return f.activated().size() == 2u; }));
  BOOST_TEST((f.activated() == std::vector<std::string>{"monitoring.coreos.com/Prometheus", "monitoring.coreos.com/ServiceMonitor"}));
}

BOOST_AUTO_TEST_CASE(existing_crds_activate_every_group_and_a_recreated_crd_changes_nothing) {
  mon_fixture f;
  const std::vector<std::string> all{"monitoring.coreos.com/Prometheus", "monitoring.coreos.com/Alertmanager",
                                     "monitoring.coreos.com/ServiceMonitor"};
  BOOST_TEST_REQUIRE(eventually([&] {
    auto a = f.activated();
    std::sort(a.begin(), a.end());
    auto want = all;
    std::sort(want.begin(), want.end());
    return a == want;
  }));
  auto crd = read_text(source_dir() + "/sim/crds/monitoring.coreos.com_alertmanagers.yaml");
  f.remove(crd_gvk, "", "alertmanagers.monitoring.coreos.com");
  BOOST_TEST_REQUIRE(eventually([&] { return !f.get("customresourcedefinitions.apiextensions.k8s.io", "", "alertmanagers.monitoring.coreos.com"); }));
  f.create(crd);
  BOOST_TEST_REQUIRE(eventually([&] { return static_cast<bool>(f.get("customresourcedefinitions.apiextensions.k8s.io", "", "alertmanagers.monitoring.coreos.com")); }));
  BOOST_TEST(f.activated().size() == 3u);
}

BOOST_AUTO_TEST_CASE(the_default_prometheus_registers_once_is_bound_and_unregisters_on_deletion) {
  mon_fixture f;
  f.create(prometheus_yaml);
  BOOST_TEST_REQUIRE(eventually([&] { return registered(f) && f.get("secrets", "monitoring", "default-grafana-auth"); }));
  auto prom = f.get("prometheuses.monitoring.coreos.com", "monitoring", "k8s");
  BOOST_TEST(prom.get_string({"spec", "externalLabels", "cluster_uid"}) == f.kube_system_uid());
  BOOST_TEST(static_cast<bool>(f.get("serviceaccounts", "monitoring", "trickster")));
  BOOST_TEST(static_cast<bool>(f.get("clusterroles.rbac.authorization.k8s.io", "", "appscode:trickster:proxy")));
  BOOST_TEST(static_cast<bool>(f.get("clusterchartpresets.charts.x-helm.dev", "", "monitoring-presets")));
  auto abp = f.get("appbindings.appcatalog.appscode.com", "monitoring", "default-prometheus");
  BOOST_TEST_REQUIRE(static_cast<bool>(abp));
  BOOST_TEST(abp.get_string({"spec", "clientConfig", "service", "name"}) == "k8s");
  auto abg = f.get("appbindings.appcatalog.appscode.com", "monitoring", "default-grafana");
  BOOST_TEST(abg.get_string({"spec", "clientConfig", "url"}) == "https://grafana.example");
  const auto key = "prometheus|" + f.kube_system_uid() + "||default|";
  BOOST_TEST((f.registrations() == std::map<std::string, int>{{key, 1}}));
  // Wake-ups that change nothing register nothing more: a label on the
  // Prometheus, and ConfigMap kube-public/ace-info (which wakes every
  // Prometheus; without a valid MAC the state stays the kube-system one).
  f.patch(prometheus_gvk, "monitoring", "k8s", R"({"metadata":{"labels":{"touched":"1"}}})");
  f.create("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ace-info, namespace: kube-public}\ndata: {uid: x}\n");
  BOOST_TEST_REQUIRE(eventually([&] { return f.probe(prometheus_controller, "monitoring", "k8s").passes_finished >= 3u; }));
  BOOST_TEST(f.register_calls() == 1);
  // Deletion: the preset removed, the context unregistered, the object gone.
  f.remove(prometheus_gvk, "monitoring", "k8s");
  BOOST_TEST_REQUIRE(eventually([&] { return !f.get("prometheuses.monitoring.coreos.com", "monitoring", "k8s"); }));
  BOOST_TEST(!f.get("clusterchartpresets.charts.x-helm.dev", "", "monitoring-presets"));
  BOOST_TEST((f.unregistered() == std::vector<std::string>{key}));
  BOOST_TEST(f.registrations().empty());
}

// The Rancher auth Secret wakes every Prometheus through a watch of that one
// Secret (fieldSelector metadata.name): another Secret of the operator's
// namespace reaches no watch stream of the operator.
BOOST_AUTO_TEST_CASE(the_rancher_auth_secret_is_watched_by_name_and_wakes_the_prometheus) {
  auto o = all_crds();
  o.rancher_auth_secret = "ra";
  o.watch_log = true;
  mon_fixture f{o};
  f.create("apiVersion: v1\nkind: Namespace\nmetadata: {name: monitoring-operator}\n");
  f.create(prometheus_yaml);
  BOOST_TEST_REQUIRE(eventually([&] { return registered(f); }));
  BOOST_TEST_REQUIRE(eventually([&] { return f.probe(prometheus_controller, "monitoring", "k8s").passes_finished >= 1u; }));
  const auto before = f.probe(prometheus_controller, "monitoring", "k8s").passes_finished;
  f.create("apiVersion: v1\nkind: Secret\nmetadata: {name: other, namespace: monitoring-operator}\n"
           "stringData: {token: not-for-the-operator}\n");
  f.create("apiVersion: v1\nkind: Secret\nmetadata: {name: ra, namespace: monitoring-operator}\n"
           "stringData: {baseURL: https://rancher.example/v3}\n");
  auto delivered = [&](const std::string& name) {
    for (const auto& r : f.server.watch_log())
      if (r.resource == "secrets" && r.namespace_ == "monitoring-operator" && r.name == name) return true;
    return false;
  };
  BOOST_TEST_REQUIRE(eventually([&] { return delivered("ra"); }));
  BOOST_TEST_REQUIRE(eventually([&] { return f.probe(prometheus_controller, "monitoring", "k8s").passes_finished > before; }));
  BOOST_TEST(!delivered("other"), "a Secret other than the Rancher auth Secret reached a watch of the operator");
}

BOOST_AUTO_TEST_CASE(backend_5xx_and_401_are_retried_and_register_once) {
  for (int status : {503, 401}) {
    BOOST_TEST_CONTEXT("status " << status) {
      mon_fixture f;
      sim::monitoring::fault_rule rule;
      rule.method = "POST";
      rule.path = "/api/v1/trickster/register";
      rule.status = status;
      rule.times = 3;
      auto id = f.backend.faults().add(rule);
      f.create(prometheus_yaml);
      BOOST_TEST_REQUIRE(eventually([&] {
        return f.probe(prometheus_controller, "monitoring", "k8s").last_error.find("backend register: HTTP " + std::to_string(status)) !=
               std::string::npos;
      }));
      BOOST_TEST_REQUIRE(eventually([&] { return registered(f); }));
      BOOST_TEST(f.backend.faults().fired()[id] == 3);
      BOOST_TEST(f.register_calls() == 1);  // the refused ones never reached it
      // Settled: no further registration.
      f.patch(prometheus_gvk, "monitoring", "k8s", R"({"metadata":{"labels":{"again":"1"}}})");
      BOOST_TEST_REQUIRE(eventually([&] { return f.probe(prometheus_controller, "monitoring", "k8s").failures == 0u; }));
      BOOST_TEST(f.register_calls() == 1);
      BOOST_TEST(f.probe(prometheus_controller, "monitoring", "k8s").last_error.find("platform-token") == std::string::npos);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_backend_timeout_is_retried_and_the_markers_stop_any_further_registration) {
  fixture_options o = all_crds();
  o.service_timeout = 300ms;
  mon_fixture f(o);
  sim::monitoring::fault_rule slow;
  slow.path = "/api/v1/trickster/register";
  slow.latency = 1500ms;  // then let through: the stand-in registers what the client gave up on
  slow.times = 1;
  f.backend.faults().add(slow);
  f.create(prometheus_yaml);
  BOOST_TEST_REQUIRE(eventually([&] { return registered(f); }));
  BOOST_TEST_REQUIRE(eventually([&] { return f.register_calls() == 2; }));
  // One registration (the stand-in keys them by context), registered twice:
  // the timed-out call and its retry. Nothing after the markers.
  BOOST_TEST(f.registrations().size() == 1u);
  f.patch(prometheus_gvk, "monitoring", "k8s", R"({"metadata":{"labels":{"again":"1"}}})");
  BOOST_TEST_REQUIRE(eventually([&] { return f.probe(prometheus_controller, "monitoring", "k8s").passes_finished >= 4u; }));
  BOOST_TEST(f.register_calls() == 2);
}

BOOST_AUTO_TEST_CASE(each_controller_has_its_own_limiter_so_a_slow_prometheus_pass_holds_up_no_servicemonitor) {
  fixture_options o = all_crds();
  o.limit = true;  // one token per controller
  o.service_timeout = 30s;
  mon_fixture f(o);
  sim::monitoring::fault_rule slow;
  slow.path = "/api/v1/trickster/register";
  slow.latency = 10s;  // the Prometheus pass holds its token while the backend is slow
  slow.times = 1;
  const auto id = f.backend.faults().add(slow);
  f.create(prometheus_yaml);
  BOOST_TEST_REQUIRE(eventually([&] { return f.backend.faults().fired()[id] == 1; }));
  f.create(demo_yaml);
  // Labelled while that pass is still in the registration: the AutoReconciler's
  // pass took a token of its own limiter (with one shared token it would wait
  // for the Prometheus pass to end).
  auto labelled = [&] {
    return f.get("servicemonitors.monitoring.coreos.com", "demo", "api").label("release").value_or("") == "a";
  };
  auto registering = [&] {
    auto p = f.probe(prometheus_controller, "monitoring", "k8s");
    return p.passes_started > p.passes_finished && f.register_calls() == 0;
  };
  BOOST_TEST_REQUIRE(eventually([&] { return labelled() || !registering(); }));
  BOOST_TEST(registering(), "the Prometheus pass ended before the ServiceMonitor was labelled");
  BOOST_TEST(labelled());
}

BOOST_AUTO_TEST_CASE(the_alertmanager_gets_its_config_when_the_inbox_apiservice_appears) {
  mon_fixture f;
  f.create(prometheus_yaml);  // the namespace
  f.create("apiVersion: monitoring.coreos.com/v1\nkind: Alertmanager\nmetadata: {name: main, namespace: monitoring}\nspec: {replicas: 1}\n");
  BOOST_TEST_REQUIRE(eventually([&] { return f.probe(alertmanager_controller, "monitoring", "main").passes_finished >= 1u; }));
  BOOST_TEST(!f.get("alertmanagerconfigs.monitoring.coreos.com", "monitoring", "inbox-agent"));
  f.create(R"(apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1alpha1.inbox.monitoring.appscode.com}
spec: {group: inbox.monitoring.appscode.com, version: v1alpha1, groupPriorityMinimum: 10000, versionPriority: 15,
       insecureSkipTLSVerify: true, service: {namespace: monitoring, name: inbox-agent}}
)");
  BOOST_TEST_REQUIRE(eventually([&] { return static_cast<bool>(f.get("alertmanagerconfigs.monitoring.coreos.com", "monitoring", "inbox-agent")); }));
  auto am = f.get("alertmanagers.monitoring.coreos.com", "monitoring", "main");
  BOOST_TEST(am.get_string({"spec", "alertmanagerConfigSelector", "matchLabels", "app.kubernetes.io/name"}) == "inbox-agent");
  BOOST_TEST(am.get_string({"spec", "alertmanagerConfigMatcherStrategy", "type"}) == "None");
  auto cfg = f.get("alertmanagerconfigs.monitoring.coreos.com", "monitoring", "inbox-agent");
  BOOST_TEST(cfg.get_string({"spec", "route", "receiver"}) == "webhook");
}

BOOST_AUTO_TEST_CASE(servicemonitors_get_the_labels_and_a_prometheus_change_wakes_them_all) {
  mon_fixture f;
  f.create(prometheus_yaml);
  f.create(demo_yaml);
  auto release = [&](const char* name) {
    auto sm = f.get("servicemonitors.monitoring.coreos.com", "demo", name);
    return std::string(sm.label("release").value_or(""));
  };
  BOOST_TEST_REQUIRE(eventually([&] { return release("api") == "a" && release("api-fed") == "a"; }));
  BOOST_TEST(release("plain").empty());  // neither auto nor federated: no controller's
  // The Prometheus now selects release=b: every auto ServiceMonitor is
  // woken and relabelled (it no longer matches).
  f.patch(prometheus_gvk, "monitoring", "k8s", R"({"spec":{"serviceMonitorSelector":{"matchLabels":{"release":"b"}}}})");
  BOOST_TEST_REQUIRE(eventually([&] { return release("api") == "b" && release("api-fed") == "b"; }));
  BOOST_TEST(f.probe(auto_controller, "demo", "plain").passes_started == 0u);
}

BOOST_AUTO_TEST_CASE(a_federated_servicemonitor_is_copied_for_each_project_prometheus) {
  mon_fixture f;
  // Rancher: its Cluster kind served, rancher-monitoring and a project.
  f.create(read_text(source_dir() + "/sim/monitoring/fixtures/rancher/crds.yaml"));
  BOOST_TEST_REQUIRE(eventually([&] {
    auto crd = f.get("customresourcedefinitions.apiextensions.k8s.io", "", "clusters.management.cattle.io");
    return crd && crd.find_condition("Established") && crd.find_condition("Established")->is_true();
  }));
  f.create(read_text(source_dir() + "/sim/monitoring/fixtures/rancher/project.yaml"));
  f.create(R"(apiVersion: v1
kind: Namespace
metadata: {name: cattle-monitoring-system}
---
apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: rancher-monitoring-prometheus, namespace: cattle-monitoring-system}
spec: {serviceMonitorSelector: {matchLabels: {release: rancher-monitoring}}, serviceMonitorNamespaceSelector: {}}
---
apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: p, namespace: cattle-project-p-abc-monitoring}
spec: {serviceMonitorSelector: {matchLabels: {release: p}}, serviceMonitorNamespaceSelector: {matchLabels: {helm.cattle.io/projectId: p-abc}}}
)");
  f.create(read_text(source_dir() + "/sim/monitoring/fixtures/rancher/federated.yaml"));
  const std::string copies = "cattle-project-p-abc-monitoring";
  BOOST_TEST_REQUIRE(eventually([&] {
    return f.get("servicemonitors.monitoring.coreos.com", copies, "api") && f.get("services", copies, "api") &&
           f.get("endpoints", copies, "api") && f.get("secrets", copies, "api-ca");
  }));
  auto copy = f.get("servicemonitors.monitoring.coreos.com", copies, "api");
  BOOST_TEST(copy.label("release").value_or("") == "p");
  BOOST_TEST(copy.controller_reference()->name == "p");
  BOOST_TEST(f.get("servicemonitors.monitoring.coreos.com", "shop", "api").label("release").value_or("") == "rancher-monitoring");
  BOOST_TEST(f.get("endpoints", copies, "api").get({"subsets"})->GetArray()[0]["addresses"][0]["ip"].GetString() ==
             std::string("10.96.0.42"));
  // The source Service changes its port: the Service watch wakes the
  // ServiceMonitor and the copy follows.
  f.patch(service_gvk, "shop", "api", R"({"spec":{"ports":[{"name":"metrics","port":9100,"targetPort":9100}]}})");
  BOOST_TEST_REQUIRE(eventually([&] {
    auto svc = f.get("services", copies, "api");
    return svc && svc.get({"spec", "ports"})->GetArray()[0]["port"].GetInt() == 9100;
  }));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing::mon
