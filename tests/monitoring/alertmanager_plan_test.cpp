// alertmanager.AlertmanagerReconciler's plan (monitoring-controllers.txt,
// apis-monitoring.md section 6 with the document's names: AlertmanagerConfig
// inbox-agent, selector app.kubernetes.io/name=inbox-agent).
#include "actors/monitoring/alertmanager.hpp"
#include "actors/monitoring/constants.hpp"
#include "tests/monitoring/world.hpp"

namespace c5c3::testing::mon {

using namespace ::c5c3::monitoring;

namespace {

world am_world(bool apiservice = true) {
  world w;
  w.put(yaml("apiVersion: monitoring.coreos.com/v1\nkind: Alertmanager\nmetadata: {name: main, namespace: monitoring}\n"
             "spec: {replicas: 1, alertmanagerConfigSelector: {matchLabels: {team: ops}}}\n"));
  w.put(yaml("apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata: {name: v1.metrics.k8s.io}\n"
             "spec: {group: metrics.k8s.io, service: {name: metrics-server, namespace: kube-system}}\n"));
  if (apiservice)
    w.put(yaml("apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata: {name: v1alpha1.inbox.monitoring.appscode.com}\n"
               "spec: {group: inbox.monitoring.appscode.com, service: {name: inbox-agent, namespace: monitoring}}\n"));
  w.services = [](const rt::service_call& c) -> std::optional<rt::service_answer> {
    if (c.service == alertmanager_detector_service) {
      flavour f;
      f.detector = detector_kind::alertmanager;
      f.singleton = true;
      return ready_answer(f);
    }
    return std::nullopt;
  };
  return w;
}


}  // namespace

BOOST_AUTO_TEST_SUITE(alertmanager_plan)

BOOST_AUTO_TEST_CASE(each_behaviour_of_the_reconciler) {
  auto k = alertmanager_declaration();
  {
    BOOST_TEST_CONTEXT("detector readiness first") {
      auto p = plan_alertmanager(snapshot_builder(am_world().objects.front()).get());
      BOOST_TEST_REQUIRE(p.calls.size() == 1u);
      BOOST_TEST(p.calls.front().service == alertmanager_detector_service);
      auto e = plan_alertmanager(snapshot_builder(am_world().objects.front())
                                     .answer(alertmanager_detector_service, unknown_answer())
                                     .get());
      BOOST_TEST(e.error == "unknown");
    }
  }
  BOOST_TEST_CONTEXT("no inbox APIService: nothing") {
    auto w = am_world(false);
    w.converge(*k, "monitoring", "main");
    BOOST_TEST(writes_of(w).empty());
  }
  BOOST_TEST_CONTEXT("a deleted Alertmanager is skipped") {
    auto w = am_world();
    auto b = w.find("Alertmanager", "monitoring", "main")->edit();
    b.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
    w.put(std::move(b).freeze());
    w.converge(*k, "monitoring", "main");
    BOOST_TEST(writes_of(w).empty());
  }
  BOOST_TEST_CONTEXT("the selector patch, then the AlertmanagerConfig inbox-agent") {
    auto w = am_world();
    w.converge(*k, "monitoring", "main");
    const std::vector<std::string> want{"patch Alertmanager monitoring/main",
                                        "create AlertmanagerConfig monitoring/inbox-agent"};
    BOOST_TEST(writes_of(w) == want, boost::test_tools::per_element());
    const auto& am = *w.find("Alertmanager", "monitoring", "main");
    BOOST_TEST(same_json(am.get({"spec", "alertmanagerConfigSelector"}), R"({"matchLabels":{"team":"ops","app.kubernetes.io/name":"inbox-agent"}})"));
    BOOST_TEST(am.get_string({"spec", "alertmanagerConfigMatcherStrategy", "type"}) == "None");
    const auto& cfg = *w.find("AlertmanagerConfig", "monitoring", "inbox-agent");
    BOOST_TEST(cfg.label("app.kubernetes.io/name").value_or("") == "inbox-agent");
    BOOST_TEST(same_json(cfg.get({"spec", "receivers"}), R"([{"name":"webhook","webhookConfigs":[{"sendResolved":true,"url":"https://inbox-agent.monitoring.svc:443/alerts",)"
               R"("httpConfig":{"tlsConfig":{"insecureSkipVerify":true}}}]}])"));
    BOOST_TEST(same_json(cfg.get({"spec", "route"}), R"({"receiver":"webhook","groupBy":["job"],"groupWait":"10s","groupInterval":"1m","repeatInterval":"1h"})"));
    // Settled: nothing more.
    w.log.clear();
    w.converge(*k, "monitoring", "main");
    BOOST_TEST(writes_of(w).empty());
    // A changed route is put back whole, other spec fields kept.
    auto b = cfg.edit();
    b.set_string({"spec", "route", "groupWait"}, "5m");
    b.set_bool({"spec", "route", "continue"}, true);
    b.set_string({"spec", "inhibitRules"}, "kept");
    w.put(std::move(b).freeze());
    w.log.clear();
    w.converge(*k, "monitoring", "main");
    const std::vector<std::string> patched{"patch AlertmanagerConfig monitoring/inbox-agent"};
    BOOST_TEST(writes_of(w) == patched, boost::test_tools::per_element());
    const auto& again = *w.find("AlertmanagerConfig", "monitoring", "inbox-agent");
    BOOST_TEST(again.get_string({"spec", "route", "groupWait"}) == "10s");
    BOOST_TEST(!again.get({"spec", "route", "continue"}));
    BOOST_TEST(again.get_string({"spec", "inhibitRules"}) == "kept");
  }
}

// Two Alertmanagers of one namespace share the AlertmanagerConfig
// inbox-agent: the pass whose create meets the one the other made
// (AlreadyExists, read by name) patches it instead of creating it again until
// its rounds run out. Found by fault_plans_federation_test on the ClusterRole
// every Prometheus shares (prometheus_access.cpp: "the plan did not settle
// within 30 rounds; it still asks to create ClusterRole
// appscode:trickster:proxy"); both go through create_or_patch.
BOOST_AUTO_TEST_CASE(a_create_that_meets_what_another_pass_made_patches_it) {
  auto k = alertmanager_declaration();
  auto w = am_world();
  w.after_sense = [](world& w) {
    w.put(yaml("apiVersion: monitoring.coreos.com/v1alpha1\nkind: AlertmanagerConfig\n"
               "metadata: {name: inbox-agent, namespace: monitoring}\nspec: {receivers: [{name: other}]}\n"));
  };
  w.converge(*k, "monitoring", "main");
  const std::vector<std::string> want{"patch Alertmanager monitoring/main", "create AlertmanagerConfig monitoring/inbox-agent",
                                      "patch AlertmanagerConfig monitoring/inbox-agent"};
  BOOST_TEST(writes_of(w) == want, boost::test_tools::per_element());
  const auto& cfg = *w.find("AlertmanagerConfig", "monitoring", "inbox-agent");
  BOOST_TEST(cfg.label("app.kubernetes.io/name").value_or("") == "inbox-agent");
  BOOST_TEST(cfg.get_string({"spec", "route", "receiver"}) == "webhook");
}

BOOST_AUTO_TEST_CASE(inbox_apiservices_wake_every_alertmanager) {
  auto rules = rt::wake_rules_of(*alertmanager_declaration());
  BOOST_TEST_REQUIRE(rules.size() == 1u);
  auto w = am_world();
  const auto& am = *w.find("Alertmanager", "monitoring", "main");
  BOOST_TEST(rules[0].relates(*w.find("APIService", "", "v1alpha1.inbox.monitoring.appscode.com"), am));
  BOOST_TEST(!rules[0].relates(*w.find("APIService", "", "v1.metrics.k8s.io"), am));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing::mon
