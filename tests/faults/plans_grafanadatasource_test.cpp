// Generated perturbation plans for the GrafanaDatasource reconciler (issue
// 18; spawn_grafana, as the operator runs it) on the shared runner
// (plan_runner.hpp, monitoring_scenario.hpp) against the emulator and the
// in-process Grafana stand-in over TLS. The scenario: two datasources
// created and converged (Current, each with its Grafana id); one's url
// changed (generation 2, observed, Grafana holding the new url under the
// same id); the other deleted. Oracle: the end state equals the
// reference's (the kept datasource Current for its generation with its
// finalizer, Grafana holding exactly it under the id its status names: no
// duplicate, no orphan, no lost update; the deleted one gone from both) and
// so do the operator's successful creates and deletes per resource.
//
// C5C3_FAULT_PLANS picks the plans (plan_runner.hpp); the default is what CI runs.
#include "tests/faults/monitoring_scenario.hpp"

#include <algorithm>

namespace c5c3::testing {
namespace {

namespace mon = ::c5c3::monitoring;

const std::string datasource_resource = "grafanadatasources.openviz.dev";
const std::vector<std::string> plan_datasources{"prom", "loki"};

std::string datasource_yaml(const std::string& name, const std::string& type, const std::string& url) {
  return "apiVersion: openviz.dev/v1alpha1\nkind: GrafanaDatasource\nmetadata: {name: " + name +
         ", namespace: team-a}\nspec: {grafanaRef: {name: default-grafana, namespace: monitoring}, orgId: 1, name: " +
         name + ", type: " + type + ", access: proxy, url: \"" + url + "\"}\n";
}

struct grafanadatasource_scenario : faults::grafana_scenario {
  explicit grafanadatasource_scenario(bool start) : grafana_scenario(start) {}

  k8s::object datasource(const std::string& name) const { return object(datasource_resource, name); }

  // What Grafana holds (org 1): "name=url" sorted.
  std::vector<std::string> held() {
    return grafana.with_core([&](sim::monitoring::standin_core&) {
      std::vector<std::string> out;
      for (const auto* d : grafana_core->datasources(1)) out.push_back(d->name + "=" + d->url);
      std::sort(out.begin(), out.end());
      return out;
    });
  }
  // The url Grafana holds under the id `name`'s status names ("" when none).
  std::string held_url(const std::string& name) {
    auto id = k8s::get_int(datasource(name).json(), {"status", "grafanadatasourceId"});
    if (!id) return "";
    return grafana.with_core([&](sim::monitoring::standin_core&) {
      const auto* d = grafana_core->datasource(1, *id);
      return d && d->name == name ? d->url : std::string();
    });
  }

  std::string all_current() const { return not_done(datasource_resource, plan_datasources, current); }

  std::vector<faults::scenario_step> steps() {
    return {{"create",
             [this] {
               create(datasource_yaml("prom", "prometheus", "http://prom:9090"));
               create(datasource_yaml("loki", "loki", "http://loki:3100"));
             },
             [this] { return all_current(); }},
            {"change", [this] { patch(mon::grafanadatasource_gvk, "prom", R"({"spec":{"url":"http://prom-v2:9090"}})"); },
             [this] {
               auto o = datasource("prom");
               return o.generation() == 2 && current(o) && held_url("prom") == "http://prom-v2:9090"
                          ? ""
                          : "prom(generation 2 not held) " + all_current();
             }},
            {"delete", [this] { remove(mon::grafanadatasource_gvk, "loki"); },
             [this] {
               auto h = held();
               return datasource("loki") || std::find(h.begin(), h.end(), "loki=http://loki:3100") != h.end()
                          ? std::string("loki still there ")
                          : "";
             }}};
  }

  // The datasources, and what Grafana holds as a pseudo-order of its own.
  std::vector<std::string> order_names() const { return with_grafana(plan_datasources); }

  std::string order_state(const std::string& name) {
    if (name == "grafana") return held_state(held());
    auto o = datasource(name);
    return order_summary(o, current(o), mon::grafanadatasource_finalizer) + " held=" + held_url(name);
  }

  void expect_reference() {
    BOOST_TEST(order_state("prom") == "exists=true ready=true generation=2 finalizer=true held=http://prom-v2:9090");
    BOOST_TEST(order_state("loki") == "exists=false ready=false generation=0 finalizer=false held=");
    BOOST_TEST(order_state("grafana") == "held: prom=http://prom-v2:9090");
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans_grafanadatasource)

BOOST_AUTO_TEST_CASE(every_chosen_plan_ends_as_the_reference_run) {
  // A datasource has no children in the cluster (its pass writes Grafana and the order): no midpass plans.
  faults::every_chosen_plan_ends_as_the_reference_run<grafanadatasource_scenario>(3, datasource_resource, false);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
