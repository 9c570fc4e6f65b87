// Generated perturbation plans for the monitoring group (issue 18;
// spawn_monitoring, as the operator runs it): the PrometheusReconciler, whose
// orders have children in the cluster (the trickster ServiceAccount and its
// token Secret, the proxy ClusterRole and RoleBinding, the ClusterChartPreset,
// the default AppBindings and the Grafana Secret), and the servicemonitor
// AutoReconciler beside it, against the emulator and the backend stand-in
// (trickster) on loopback. The scenario: the default Prometheus and two auto
// ServiceMonitors created and converged (registered, bound, labelled); the
// Prometheus's serviceMonitorSelector changed (the preset and both
// ServiceMonitors follow); the Prometheus deleted (the preset gone, the
// context unregistered). Oracle: the end state equals the reference's (each
// object's existence, finalizer and labels, the children, the backend's
// registered and unregistered contexts) and so do the operator's successful
// creates and deletes per resource.
//
// C5C3_FAULT_PLANS picks the plans (plan_runner.hpp); the default is what CI runs.
#include "tests/faults/monitoring_scenario.hpp"

namespace c5c3::testing {
namespace {

namespace mon = ::c5c3::monitoring;

const std::string prometheus_resource = "prometheuses.monitoring.coreos.com";
const std::string servicemonitor_resource = "servicemonitors.monitoring.coreos.com";

std::string servicemonitor_yaml(const std::string& name) {
  return "apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: " + name +
         ", namespace: team-a, labels: {monitoring.appscode.com/prometheus: auto}}\n"
         "spec: {selector: {matchLabels: {app: " + name + "}}, endpoints: [{port: http}]}\n";
}

// The children of the default Prometheus: resource, namespace, name.
const std::vector<std::array<std::string, 3>> prometheus_children{
    {"serviceaccounts", "monitoring", "trickster"},
    {"clusterroles.rbac.authorization.k8s.io", "", "appscode:trickster:proxy"},
    {"rolebindings.rbac.authorization.k8s.io", "monitoring", "appscode:trickster:proxy"},
    {"clusterchartpresets.charts.x-helm.dev", "", "monitoring-presets"},
    {"appbindings.appcatalog.appscode.com", "monitoring", "default-prometheus"},
    {"appbindings.appcatalog.appscode.com", "monitoring", "default-grafana"},
    {"secrets", "monitoring", "default-grafana-auth"}};

struct prometheus_scenario : faults::backend_scenario {
  explicit prometheus_scenario(bool start) {
    create("apiVersion: v1\nkind: Service\nmetadata: {name: k8s, namespace: monitoring}\n"
           "spec: {ports: [{name: http-web, port: 9090, targetPort: 9090}]}\n");
    if (start) start_operator();
  }

  k8s::object prometheus() const { return server.get_object(prometheus_resource, "monitoring", "k8s"); }

  std::string children() const {
    std::string out;
    for (const auto& [resource, ns, name] : prometheus_children)
      if (server.get_object(resource, ns, name)) out += name + "(" + resource.substr(0, resource.find('.')) + ") ";
    return out;
  }

  // "" once `name` carries release=`value`.
  std::string not_labelled(const std::string& value) const {
    std::string out;
    for (const auto* name : {"api", "web"})
      if (auto o = object(servicemonitor_resource, name); !o || o.label("release").value_or("") != value)
        out += std::string(name) + "(release " + std::string(o.label("release").value_or("none")) + ") ";
    return out;
  }

  std::string preset_release() const {
    auto p = server.get_object("clusterchartpresets.charts.x-helm.dev", "", "monitoring-presets");
    const auto* v = p ? p.get({"spec", "values"}) : nullptr;
    return v ? k8s::to_json(*v) : "";
  }

  std::vector<faults::scenario_step> steps() {
    return {{"create",
             [this] {
               create("apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: k8s, namespace: monitoring}\n"
                      "spec:\n  serviceMonitorSelector: {matchLabels: {release: a}}\n  serviceMonitorNamespaceSelector: {}\n");
               create(servicemonitor_yaml("api"));
               create(servicemonitor_yaml("web"));
             },
             [this] {
               auto p = prometheus();
               std::string out = not_labelled("a");
               if (!p.has_finalizer(mon::prometheus_finalizer)) out += "k8s(no finalizer) ";
               if (!registered()) out += "backend(not registered) ";
               if (!server.get_object("secrets", "monitoring", "default-grafana-auth")) out += "default-grafana-auth(none) ";
               return out;
             }},
            {"change",
             [this] {
               write(protocol::patch_request{{mon::prometheus_gvk, "monitoring", "k8s"}, protocol::patch_type::merge,
                                             R"({"spec":{"serviceMonitorSelector":{"matchLabels":{"release":"b"}}}})", "", {}},
                     "the selector of k8s");
             },
             [this] {
               auto out = not_labelled("b");
               if (preset_release().find(R"("release":"b")") == std::string::npos) out += "preset(release not b) ";
               return out;
             }},
            {"delete",
             [this] {
               write(protocol::delete_request{{mon::prometheus_gvk, "monitoring", "k8s"}, "", "",
                                              protocol::propagation::background},
                     "the delete of k8s");
             },
             [this] { return prometheus() || !preset_release().empty() ? std::string("k8s or its preset still there ") : ""; }}};
  }

  std::vector<std::string> order_names() const { return {"k8s", "api", "web", "children", "backend"}; }

  std::string order_state(const std::string& name) {
    if (name == "children") return children();
    if (name == "backend") return backend_state();
    if (name == "k8s") {
      auto p = prometheus();
      return fmt::format("exists={} finalizer={}", static_cast<bool>(p), p.has_finalizer(mon::prometheus_finalizer));
    }
    auto o = object(servicemonitor_resource, name);
    const auto* labels = o ? o.get({"metadata", "labels"}) : nullptr;
    return fmt::format("exists={} labels={}", static_cast<bool>(o), labels ? k8s::to_json(*labels) : "");
  }

  void expect_reference() {
    BOOST_TEST(order_state("k8s") == "exists=false finalizer=false");
    BOOST_TEST(order_state("api").find(R"("release":"b")") != std::string::npos);
    BOOST_TEST(order_state("web").find(R"("release":"b")") != std::string::npos);
    // What the Prometheus owned went with it (garbage collected); the cluster-wide RBAC stays.
    BOOST_TEST(children() == "appscode:trickster:proxy(clusterroles) appscode:trickster:proxy(rolebindings) ");
    BOOST_TEST(backend_state() == "registered: unregistered: prometheus|<cluster>||default|");
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans_prometheus)

BOOST_AUTO_TEST_CASE(every_chosen_plan_ends_as_the_reference_run) {
  faults::every_chosen_plan_ends_as_the_reference_run<prometheus_scenario>(2, prometheus_resource);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
