// Generated perturbation plans for the client-org Namespace controller
// (namespace.ClientOrgReconciler, issue 18; spawn_monitoring, as the
// operator runs it, monitoring_scenario.hpp's backend_scenario) beside the
// PrometheusReconciler whose registration it waits for, against the emulator
// and the backend stand-in (trickster). Its order is a Namespace labelled
// ace.appscode.com/client-org=true; its children are the Namespace
// <ns>-monitoring (with the registration marker), the RoleBinding
// appscode:client-org:monitoring, the AppBinding grafana with its Secret
// grafana-auth, and the copies of every source GrafanaDashboard. The
// scenario: the default Prometheus and two client orgs (acme, org 42; beta,
// org 7) created and converged (finalizer, registered, bound, copied); the
// source dashboard's title edited (both copies follow); beta deleted (its
// context unregistered, its copies and its monitoring namespace deleted, its
// finalizer released). Oracle: the end state equals the reference's (each
// org's existence, finalizer, monitoring namespace and marker, RoleBinding
// group, AppBinding, Secret and copy title; the backend's registered and
// unregistered contexts; the Prometheus's finalizer) and so do the
// operator's successful creates and deletes per resource.
//
// C5C3_FAULT_PLANS picks the plans (plan_runner.hpp); the default is what CI runs.
#include "actors/monitoring/clientorg.hpp"
#include "tests/faults/monitoring_scenario.hpp"

namespace c5c3::testing {
namespace {

namespace mon = ::c5c3::monitoring;

const std::string dashboard_resource = "grafanadashboards.openviz.dev";
const std::vector<std::pair<std::string, std::string>> plan_orgs{{"acme", "42"}, {"beta", "7"}};

std::string org_yaml(const std::string& name, const std::string& org_id) {
  return "apiVersion: v1\nkind: Namespace\nmetadata: {name: " + name + ", labels: {ace.appscode.com/client-org: \"true\"}, "
         "annotations: {ace.appscode.com/org-id: \"" + org_id + "\"}}\n";
}

struct clientorg_scenario : faults::backend_scenario {
  explicit clientorg_scenario(bool start) {
    create("apiVersion: v1\nkind: Service\nmetadata: {name: k8s, namespace: monitoring}\n"
           "spec: {ports: [{name: http-web, port: 9090, targetPort: 9090}]}\n");
    // The source dashboard apps/overview, and team-monitoring/local that is never copied.
    create_file("sim/monitoring/fixtures/clientorg/sources.yaml");
    if (start) start_operator();
  }

  k8s::object get(const std::string& resource, const std::string& ns, const std::string& name) const {
    return server.get_object(resource, ns, name);
  }
  std::string copy_title(const std::string& org) const {
    auto c = get(dashboard_resource, mon::monitoring_namespace(org), "overview");
    return c ? std::string(c.get_string({"spec", "model", "title"})) : "";
  }

  // "" once every org in `orgs` is converged with copies titled `title`.
  std::string not_converged(const std::string& title) {
    std::string out;
    for (const auto& [org, id] : plan_orgs) {
      auto ns = get("namespaces", "", org);
      auto mns = get("namespaces", "", mon::monitoring_namespace(org));
      if (!ns.has_finalizer(mon::prometheus_finalizer)) out += org + "(no finalizer) ";
      if (!mns || !mns.annotation(mon::registered_key)) out += org + "-monitoring(not registered) ";
      if (!get("appbindings.appcatalog.appscode.com", mon::monitoring_namespace(org), "grafana")) out += org + "(no grafana) ";
      if (copy_title(org) != title) out += org + "(copy titled '" + copy_title(org) + "') ";
    }
    return out;
  }

  std::vector<faults::scenario_step> steps() {
    return {{"create",
             [this] {
               create("apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: k8s, namespace: monitoring}\n"
                      "spec:\n  serviceMonitorSelector: {matchLabels: {release: a}}\n  serviceMonitorNamespaceSelector: {}\n");
               for (const auto& [org, id] : plan_orgs) create(org_yaml(org, id));
             },
             [this] { return not_converged("Overview"); }},
            {"change",
             [this] { patch(mon::grafanadashboard_gvk, "apps", "overview", R"({"spec":{"model":{"title":"KubeDB / Pods"}}})"); },
             [this] { return not_converged("Pods"); }},
            {"delete", [this] { remove(mon::namespace_gvk, "", "beta"); },
             [this] {
               return get("namespaces", "", "beta") || get("namespaces", "", "beta-monitoring")
                          ? std::string("beta or beta-monitoring still there ")
                          : "";
             }}};
  }

  std::vector<std::string> order_names() const { return {"acme", "beta", "backend", "k8s"}; }

  std::string order_state(const std::string& name) {
    if (name == "backend") return backend_state();
    if (name == "k8s")
      return fmt::format("finalizer={}", get("prometheuses.monitoring.coreos.com", "monitoring", "k8s")
                                             .has_finalizer(mon::prometheus_finalizer));
    const auto mns = mon::monitoring_namespace(name);
    auto ns = get("namespaces", "", name);
    auto m = get("namespaces", "", mns);
    auto rb = get("rolebindings.rbac.authorization.k8s.io", mns, mon::client_org_monitoring_role);
    const auto* subjects = rb ? rb.get({"subjects"}) : nullptr;
    return fmt::format("exists={} finalizer={} monitoring={} marker={} group={} grafana={} auth={} copy={}",
                       static_cast<bool>(ns), ns.has_finalizer(mon::prometheus_finalizer), static_cast<bool>(m),
                       m && m.annotation(mon::registered_key).has_value(),
                       subjects && subjects->IsArray() && !subjects->Empty()
                           ? std::string(k8s::get_string((*subjects)[0], {"name"}))
                           : "",
                       static_cast<bool>(get("appbindings.appcatalog.appscode.com", mns, "grafana")),
                       static_cast<bool>(get("secrets", mns, "grafana-auth")), copy_title(name));
  }

  void expect_reference() {
    BOOST_TEST(order_state("acme") ==
               "exists=true finalizer=true monitoring=true marker=true group=ace.org.42 grafana=true auth=true copy=Pods");
    BOOST_TEST(order_state("beta") ==
               "exists=false finalizer=false monitoring=false marker=false group= grafana=false auth=false copy=");
    BOOST_TEST(order_state("k8s") == "finalizer=true");
    // The default Prometheus and acme registered; beta registered, then unregistered.
    auto b = backend_state();
    BOOST_TEST(b.find("prometheus|<cluster>||default|") < b.find(" unregistered:"), b);
    BOOST_TEST(b.find("|42") < b.find(" unregistered:"), b);
    BOOST_TEST(b.find("|7") > b.find(" unregistered:"), b);
    BOOST_TEST(b.find("|7") != std::string::npos, b);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans_clientorg)

BOOST_AUTO_TEST_CASE(every_chosen_plan_ends_as_the_reference_run) {
  faults::every_chosen_plan_ends_as_the_reference_run<clientorg_scenario>(3, "namespaces");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
