// Generated perturbation plans for a monitoring controller (issue 18): the
// GrafanaDashboard reconciler (spawn_grafana, as the operator runs it) on the
// shared runner (plan_runner.hpp, monitoring_scenario.hpp) against the
// emulator and the in-process Grafana stand-in over TLS. The scenario: two
// dashboards created and converged; one edited (a new title: generation 2,
// observed); the other deleted. Oracle: the end state equals the
// reference's (the kept dashboard Ready for its generation with its
// finalizer and held by Grafana under the new title, the deleted one gone
// from the cluster and from Grafana, no other dashboard in Grafana) and so
// do the operator's successful creates and deletes per resource.
//
// C5C3_FAULT_PLANS picks the plans (plan_runner.hpp); the default is what CI runs.
#include "tests/faults/monitoring_scenario.hpp"

#include <algorithm>

namespace c5c3::testing {
namespace {

namespace mon = ::c5c3::monitoring;

const std::string dashboard_resource = "grafanadashboards.openviz.dev";
const std::vector<std::string> plan_dashboards{"overview", "latency"};

std::string dashboard_yaml(const std::string& name, const std::string& title) {
  return "apiVersion: openviz.dev/v1alpha1\nkind: GrafanaDashboard\nmetadata: {name: " + name +
         ", namespace: team-a}\nspec:\n  model: {title: \"" + title + "\", panels: [{type: graph, title: cpu}]}\n";
}

struct grafanadashboard_scenario : faults::grafana_scenario {
  explicit grafanadashboard_scenario(bool start) : grafana_scenario(start) {}

  k8s::object dashboard(const std::string& name) const { return object(dashboard_resource, name); }

  static bool ready(const k8s::object& d) {
    auto c = d ? d.find_condition(mon::condition_ready) : std::nullopt;
    return c && c->is_true() && current(d);
  }

  // The titles Grafana holds (org 1), sorted.
  std::vector<std::string> held_titles() {
    return grafana.with_core([&](sim::monitoring::standin_core&) {
      std::vector<std::string> out;
      for (const auto* d : grafana_core->dashboards(1)) out.push_back(d->title);
      std::sort(out.begin(), out.end());
      return out;
    });
  }
  bool held(const std::string& title) {
    auto t = held_titles();
    return std::find(t.begin(), t.end(), title) != t.end();
  }

  std::string all_ready() const { return not_done(dashboard_resource, plan_dashboards, ready); }

  std::vector<faults::scenario_step> steps() {
    return {{"create",
             [this] {
               create(dashboard_yaml("overview", "Overview"));
               create(dashboard_yaml("latency", "Latency"));
             },
             [this] { return all_ready(); }},
            {"change", [this] { patch(mon::grafanadashboard_gvk, "overview", R"({"spec":{"model":{"title":"Overview v2"}}})"); },
             [this] {
               auto o = dashboard("overview");
               return o.generation() == 2 && ready(o) && held("Overview v2") ? ""
                                                                              : "overview(generation 2 not held) " + all_ready();
             }},
            {"delete", [this] { remove(mon::grafanadashboard_gvk, "latency"); },
             [this] { return dashboard("latency") || held("Latency") ? std::string("latency still there ") : ""; }}};
  }

  // The dashboards, and what Grafana holds as a pseudo-order of its own.
  std::vector<std::string> order_names() const { return with_grafana(plan_dashboards); }

  std::string order_state(const std::string& name) {
    if (name == "grafana") return held_state(held_titles());
    auto o = dashboard(name);
    return order_summary(o, ready(o), mon::grafanadashboard_finalizer);
  }

  void expect_reference() {
    BOOST_TEST(order_state("overview") == "exists=true ready=true generation=2 finalizer=true");
    BOOST_TEST(order_state("latency") == "exists=false ready=false generation=0 finalizer=false");
    BOOST_TEST(order_state("grafana") == "held: Overview v2");
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans_grafanadashboard)

BOOST_AUTO_TEST_CASE(every_chosen_plan_ends_as_the_reference_run) {
  // A dashboard has no children in the cluster (its pass writes Grafana, then the order): no midpass plans.
  faults::every_chosen_plan_ends_as_the_reference_run<grafanadashboard_scenario>(3, dashboard_resource, false);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
