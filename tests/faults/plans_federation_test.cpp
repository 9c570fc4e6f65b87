// Generated perturbation plans for servicemonitor-federation (the
// FederationReconciler, issue 18; spawn_monitoring, as the operator runs it,
// monitoring_scenario.hpp's backend_scenario) on a Rancher-managed cluster
// with rancher-monitoring (the federated flavour), beside the
// PrometheusReconciler of both Prometheus objects, against the emulator and
// the backend stand-in. Its order is a ServiceMonitor labelled
// monitoring.appscode.com/prometheus=federated; for each project Prometheus
// its children are the ServiceMonitor's copy in the Prometheus's namespace
// (owned by the Prometheus) and the copies of the source Service, Endpoints
// and CA Secret (owned by that copy). The scenario: rancher-monitoring's
// Prometheus there from the start; the project Prometheus p and the federated
// ServiceMonitor shop/api created and converged (the source labelled for
// rancher-monitoring, the four copies made); the source Service's port
// changed (the Service watch wakes the ServiceMonitor: the copied Service and
// Endpoints follow); p deleted (its teardown; the copies garbage collected).
// Oracle: the end state equals the reference's (the source's labels; which
// copies exist, their ports and the copy's relabeling; both Prometheus
// objects' finalizers; the backend's registered and unregistered contexts)
// and so do the operator's successful creates and deletes per resource.
//
// C5C3_FAULT_PLANS picks the plans (plan_runner.hpp); the default is what CI runs.
#include "tests/faults/monitoring_scenario.hpp"

namespace c5c3::testing {
namespace {

namespace mon = ::c5c3::monitoring;

const std::string servicemonitor_resource = "servicemonitors.monitoring.coreos.com";
const std::string prometheus_resource = "prometheuses.monitoring.coreos.com";
const std::string project_ns = "cattle-project-p-abc-monitoring";

// A Prometheus and its Service (the PrometheusReconciler's ServiceKey).
std::string prometheus_yaml(const std::string& name, const std::string& ns, const std::string& release,
                            const std::string& namespace_selector) {
  return "apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: " + name + ", namespace: " + ns +
         "}\nspec: {serviceMonitorSelector: {matchLabels: {release: " + release +
         "}}, serviceMonitorNamespaceSelector: " + namespace_selector + "}\n---\n"
         "apiVersion: v1\nkind: Service\nmetadata: {name: " + name + ", namespace: " + ns +
         "}\nspec: {ports: [{name: http-web, port: 9090, targetPort: 9090}]}\n";
}

struct federation_scenario : faults::backend_scenario {
  explicit federation_scenario(bool start) {
    // Rancher: its Cluster kind served (the detectors' RESTMapper check), the
    // system project, rancher-monitoring, and project p-abc with its workload
    // namespace shop (the source Service, Endpoints and CA Secret).
    create_file("sim/monitoring/fixtures/rancher/crds.yaml");
    BOOST_TEST_REQUIRE(eventually([&] {
      auto crd = server.get_object("customresourcedefinitions.apiextensions.k8s.io", "", "clusters.management.cattle.io");
      return crd && crd.find_condition("Established") && crd.find_condition("Established")->is_true();
    }));
    patch(mon::namespace_gvk, "", "kube-system", R"({"metadata":{"labels":{"field.cattle.io/projectId":"p-system"}}})");
    create("apiVersion: v1\nkind: Namespace\nmetadata: {name: cattle-monitoring-system, labels: "
           "{field.cattle.io/projectId: p-system}}\n");
    create_file("sim/monitoring/fixtures/rancher/project.yaml");
    // There before the operator, so the detector's first list finds it (the flavour is latched).
    create(prometheus_yaml(mon::rancher_monitoring_prometheus, mon::rancher_monitoring_namespace, "rancher-monitoring", "{}"));
    if (start) start_operator();
  }

  k8s::object get(const std::string& resource, const std::string& ns, const std::string& name) const {
    return server.get_object(resource, ns, name);
  }

  // The copies in the project Prometheus's namespace: which exist, the
  // copied Service's port, the Endpoints' address and port, the copy's first relabeling.
  std::string copies() const {
    std::string out;
    auto smc = get(servicemonitor_resource, project_ns, "api");
    if (smc) {
      const auto* r = smc.get({"spec", "endpoints"});
      const auto* mr = r && r->IsArray() && !r->Empty() ? k8s::find((*r)[0], {"metricRelabelings"}) : nullptr;
      out += fmt::format("servicemonitor(release {}, {}) ", smc.label("release").value_or(""),
                         mr && mr->IsArray() && !mr->Empty() ? k8s::to_json((*mr)[0]) : "");
    }
    if (auto svc = get("services", project_ns, "api")) {
      const auto* ports = svc.get({"spec", "ports"});
      out += fmt::format("service(port {}) ", ports && ports->IsArray() && !ports->Empty()
                                                  ? k8s::get_int((*ports)[0], {"port"}).value_or(0)
                                                  : 0);
    }
    if (auto ep = get("endpoints", project_ns, "api")) out += "endpoints(" + k8s::to_json(*ep.get({"subsets"})) + ") ";
    if (get("secrets", project_ns, "api-ca")) out += "secret ";
    return out;
  }
  std::string copied_port() const {
    auto svc = get("services", project_ns, "api");
    const auto* ports = svc ? svc.get({"spec", "ports"}) : nullptr;
    auto ep = get("endpoints", project_ns, "api");
    const auto* subsets = ep ? ep.get({"subsets"}) : nullptr;
    if (!ports || !ports->IsArray() || ports->Empty() || !subsets || !subsets->IsArray() || subsets->Empty()) return "";
    const auto* ep_ports = k8s::find((*subsets)[0], {"ports"});
    return fmt::format("{}/{}", k8s::get_int((*ports)[0], {"port"}).value_or(0),
                       ep_ports && ep_ports->IsArray() && !ep_ports->Empty() ? k8s::get_int((*ep_ports)[0], {"port"}).value_or(0) : 0);
  }

  std::string not_converged(const std::string& port) {
    std::string out;
    if (get(servicemonitor_resource, "shop", "api").label("release").value_or("") != "rancher-monitoring")
      out += "shop/api(not labelled) ";
    for (const auto& [ns, name] : {std::pair<std::string, std::string>{mon::rancher_monitoring_namespace,
                                                                        mon::rancher_monitoring_prometheus},
                                   {project_ns, "p"}})
      if (!get(prometheus_resource, ns, name).has_finalizer(mon::prometheus_finalizer)) out += name + "(no finalizer) ";
    if (!get(servicemonitor_resource, project_ns, "api") || !get("secrets", project_ns, "api-ca")) out += "copies(" + copies() + ") ";
    if (copied_port() != port) out += "copied port(" + copied_port() + ") ";
    return out;
  }

  // The watch events of p the operator was sent ("MODIFIED@rv").
  std::string events_of_p() const {
    std::string out;
    for (const auto& e : server.watch_log())
      if (e.client == operator_user && e.resource == "prometheuses" && e.namespace_ == project_ns && e.name == "p")
        out += " " + e.type + "@" + e.resource_version;
    return out;
  }

  std::vector<faults::scenario_step> steps() {
    return {{"create",
             [this] {
               create(prometheus_yaml("p", project_ns, "p", "{matchLabels: {helm.cattle.io/projectId: p-abc}}"));
               create_file("sim/monitoring/fixtures/rancher/federated.yaml");
             },
             [this] { return not_converged("8080/8080"); }},
            {"change",
             [this] {
               patch(mon::service_gvk, "shop", "api", R"({"spec":{"ports":[{"name":"metrics","port":9100,"targetPort":9100}]}})");
             },
             [this] { return not_converged("9100/9100"); }},
            {"delete", [this] { remove(mon::prometheus_gvk, project_ns, "p"); },
             [this] {
               auto p = get(prometheus_resource, project_ns, "p");
               const auto* finalizers = p ? p.get({"metadata", "finalizers"}) : nullptr;
               return p || !copies().empty()
                          ? fmt::format("p(exists={} rv={} finalizers={}; {}; events to the operator:{}) copies({}) ",
                                        static_cast<bool>(p), p.resource_version(),
                                        finalizers ? k8s::to_json(*finalizers) : "",
                                        probe(mon::prometheus_controller, project_ns, "p"), events_of_p(), copies())
                          : std::string();
             }}};
  }

  std::vector<std::string> order_names() const { return {"api", "copies", "prometheus", "backend"}; }

  std::string order_state(const std::string& name) {
    if (name == "copies") return copies();
    if (name == "backend") return backend_state();
    if (name == "prometheus") {
      auto r = get(prometheus_resource, mon::rancher_monitoring_namespace, mon::rancher_monitoring_prometheus);
      auto p = get(prometheus_resource, project_ns, "p");
      return fmt::format("rancher-monitoring finalizer={} p exists={}", r.has_finalizer(mon::prometheus_finalizer),
                         static_cast<bool>(p));
    }
    auto o = get(servicemonitor_resource, "shop", name);
    const auto* labels = o ? o.get({"metadata", "labels"}) : nullptr;
    return fmt::format("exists={} labels={}", static_cast<bool>(o), labels ? k8s::to_json(*labels) : "");
  }

  void expect_reference() {
    BOOST_TEST(order_state("api").find(R"("release":"rancher-monitoring")") != std::string::npos);
    BOOST_TEST(copies() == "");  // garbage collected with p
    BOOST_TEST(order_state("prometheus") == "rancher-monitoring finalizer=true p exists=false");
    auto b = backend_state();
    BOOST_TEST(b.find("p-abc") > b.find(" unregistered:"), b);  // p's context unregistered
    BOOST_TEST(b.find("p-abc") != std::string::npos, b);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans_federation)

BOOST_AUTO_TEST_CASE(every_chosen_plan_ends_as_the_reference_run) {
  faults::every_chosen_plan_ends_as_the_reference_run<federation_scenario>(3, servicemonitor_resource);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
