// The grafana controller group against the in-process emulator and the
// in-process Grafana stand-in (TLS, token auth): a GrafanaDashboard created
// becomes Ready and is held by the stand-in, an edit updates it, a delete
// removes it (a 404 is success); the stand-in down, slow, 401 and 412 each
// give phase Failed with its reason, the Failed condition and a Warning Event
// (aggregated: one Event whose count grows), and recovery once the fault
// stops; a GrafanaDatasource created, updated and deleted.
#include "actors/monitoring/constants.hpp"
#include "tests/monitoring/grafana_fixture.hpp"
#include "tests/require_eventually.hpp"

#include <boost/test/unit_test.hpp>

namespace c5c3::testing::mon {

namespace {

using namespace ::c5c3::monitoring;

std::string dashboard_yaml(const std::string& name, const std::string& title) {
  return "apiVersion: openviz.dev/v1alpha1\nkind: GrafanaDashboard\nmetadata: {name: " + name +
         ", namespace: team-a}\nspec:\n  model: {title: \"" + title + "\", panels: [{type: graph, title: cpu}]}\n";
}

bool ready(const k8s::object& d) {
  auto c = d ? d.find_condition(condition_ready) : std::nullopt;
  return c && c->is_true() && phase_of(d) == phase_current &&
         k8s::get_int(d.json(), {"status", "observedGeneration"}).value_or(0) == d.generation();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(grafana_integration)

BOOST_AUTO_TEST_CASE(dashboard_created_edited_deleted) {
  grafana_fixture f;
  f.create(dashboard_yaml("overview", "Overview"));
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return ready(f.dashboard("overview")); }), f.dashboard("overview").to_json());
  auto d = f.dashboard("overview");
  BOOST_TEST(d.has_finalizer(grafanadashboard_finalizer));
  auto uid = std::string(d.get_string({"status", "dashboard", "uid"}));
  BOOST_TEST_REQUIRE(!uid.empty());
  auto held = f.held(uid);
  BOOST_TEST_REQUIRE(held.has_value());
  BOOST_TEST(held->first == "Overview");
  BOOST_TEST(k8s::get_int(d.json(), {"status", "dashboard", "version"}).value_or(-1) == held->second);
  BOOST_TEST(k8s::get_int(d.json(), {"status", "dashboard", "orgID"}).value_or(0) == 1);
  BOOST_TEST(!d.get_string({"status", "dashboard", "state"}).empty());

  f.patch(grafanadashboard_gvk, "team-a", "overview", R"({"spec":{"model":{"title":"Overview v2"}}})");
  BOOST_TEST_REQUIRE(eventually([&] {
    auto h = f.held(uid);
    return h && h->first == "Overview v2" && ready(f.dashboard("overview"));
  }));
  BOOST_TEST(f.held(uid)->second > held->second);
  BOOST_TEST(f.held_dashboards() == 1u);  // updated by uid, not a second dashboard

  f.remove(grafanadashboard_gvk, "team-a", "overview");
  BOOST_TEST_REQUIRE(eventually([&] { return !f.dashboard("overview"); }));
  BOOST_TEST(!f.held(uid).has_value());
  std::string why;
  for (const auto& e : f.warnings("team-a", "overview"))
    why += std::string(e.get_string({"reason"})) + ": " + std::string(e.get_string({"message"})) + "; ";
  BOOST_TEST(why.empty(), "Warning events on the happy path: " << why);
}

BOOST_AUTO_TEST_CASE(a_404_on_delete_is_success) {
  grafana_fixture f;
  f.create(dashboard_yaml("gone", "Gone"));
  BOOST_TEST_REQUIRE(eventually([&] { return ready(f.dashboard("gone")); }));
  f.grafana.faults().add({"", "DELETE", "/api/dashboards/uid/", 404, "Dashboard not found", {}, false, -1});
  f.remove(grafanadashboard_gvk, "team-a", "gone");
  BOOST_TEST_REQUIRE(eventually([&] { return !f.dashboard("gone"); }));
  BOOST_TEST(f.grafana.faults().fired().size() == 1u);
}

BOOST_AUTO_TEST_CASE(faults_fail_with_a_warning_event_and_recover) {
  grafana_fixture f;
  struct row {
    std::string name;
    sim::monitoring::fault_rule rule;  // empty method: the stand-in is stopped instead
    std::string reason;                // the status reason ("" any)
  };
  const std::vector<row> rows = {
      {"down", {}, ""},
      {"slow", {"", "POST", "/api/dashboards/db", 0, "", std::chrono::milliseconds(4000), false, -1}, ""},
      {"unauthorized", {"", "POST", "/api/dashboards/db", 401, "invalid API key", {}, false, -1},
       "failed to set dashboard, reason: invalid API key"},
      {"conflict", {"", "POST", "/api/dashboards/db", 412, "The dashboard has been changed by someone else", {}, false, -1},
       "failed to set dashboard, reason: The dashboard has been changed by someone else"},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      std::string id;
      if (r.rule.method.empty())
        f.grafana.stop();
      else
        id = f.grafana.faults().add(r.rule);
      f.create(dashboard_yaml("d-" + r.name, "D " + r.name));
      auto failed = [&] {
        auto d = f.dashboard("d-" + r.name);
        auto c = d.find_condition(condition_failed);
        return phase_of(d) == phase_failed && c && c->is_true();
      };
      C5C3_REQUIRE_EVENTUALLY(eventually(failed), f.dashboard("d-" + r.name).to_json());
      auto d = f.dashboard("d-" + r.name);
      auto reason = std::string(d.get_string({"status", "reason"}));
      if (!r.reason.empty()) BOOST_TEST(reason == r.reason);
      BOOST_TEST(!reason.empty());
      BOOST_TEST(reason.find(grafana_key) == std::string::npos);
      // The failure retried every --requeue-after-duration: one Event, its count growing.
      auto seen = [&] {
        std::string out;
        for (const auto& w : f.warnings("team-a", "d-" + r.name))
          out += std::string(w.get_string({"reason"})) + " (count " +
                 std::to_string(k8s::get_int(w.json(), {"count"}).value_or(0)) + "); ";
        return out;
      };
      C5C3_REQUIRE_EVENTUALLY(eventually([&] {
                                auto w = f.warnings("team-a", "d-" + r.name);
                                return w.size() == 1 && k8s::get_int(w[0].json(), {"count"}).value_or(0) >= 2;
                              }),
                              "Warning events: " << seen());
      auto ev = f.warnings("team-a", "d-" + r.name).front();
      BOOST_TEST(ev.get_string({"involvedObject", "kind"}) == "GrafanaDashboard");
      BOOST_TEST(ev.get_string({"involvedObject", "uid"}) == d.uid());
      BOOST_TEST(ev.get_string({"source", "component"}) == "c5c3-operator");
      BOOST_TEST(std::string(ev.get_string({"message"})).find("Failed to complete operation for GrafanaDashboard: \"d-" +
                                                             r.name + "\"") == 0u);
      BOOST_TEST(std::string(ev.get_string({"message"})).find(grafana_key) == std::string::npos);
      BOOST_TEST(ev.get_string({"firstTimestamp"}) <= ev.get_string({"lastTimestamp"}));

      // The fault stops: the next retry makes it Ready.
      if (r.rule.method.empty())
        f.grafana.start();
      else
        f.grafana.faults().remove(id);
      C5C3_REQUIRE_EVENTUALLY(eventually([&] { return ready(f.dashboard("d-" + r.name)); }), f.dashboard("d-" + r.name).to_json());
      auto ok = f.dashboard("d-" + r.name);
      BOOST_TEST(!ok.find_condition(condition_failed).has_value());
      BOOST_TEST(f.held(std::string(ok.get_string({"status", "dashboard", "uid"}))).has_value());
    }
  }
}

BOOST_AUTO_TEST_CASE(datasource_created_updated_deleted) {
  grafana_fixture f;
  f.create(R"(apiVersion: openviz.dev/v1alpha1
kind: GrafanaDatasource
metadata: {name: prom, namespace: monitoring}
spec: {grafanaRef: {name: default-grafana}, orgId: 1, name: prom, type: prometheus, access: proxy, url: "http://p:9090"}
)");
  auto current = [&] {
    auto d = f.datasource("prom");
    return phase_of(d) == phase_current &&
           k8s::get_int(d.json(), {"status", "observedGeneration"}).value_or(0) == d.generation();
  };
  C5C3_REQUIRE_EVENTUALLY(eventually(current), f.datasource("prom").to_json());
  auto id = k8s::get_int(f.datasource("prom").json(), {"status", "grafanadatasourceId"});
  BOOST_TEST_REQUIRE(id.has_value());
  BOOST_TEST(f.datasource_url(*id).value_or("") == "http://p:9090");
  BOOST_TEST(f.datasource("prom").has_finalizer(grafanadatasource_finalizer));

  f.patch(grafanadatasource_gvk, "monitoring", "prom", R"({"spec":{"url":"http://p2:9090"}})");
  BOOST_TEST_REQUIRE(eventually([&] { return current() && f.datasource_url(*id) == std::optional<std::string>("http://p2:9090"); }));
  BOOST_TEST(f.datasource("prom").get_string({"status", "reason"}) == "Successfully updated GrafanaDatasource");

  f.remove(grafanadatasource_gvk, "monitoring", "prom");
  BOOST_TEST_REQUIRE(eventually([&] { return !f.datasource("prom"); }));
  BOOST_TEST(!f.datasource_url(*id).has_value());
}

BOOST_AUTO_TEST_CASE(a_duplicate_datasource_name_fails_with_an_event) {
  grafana_fixture f;
  f.grafana.with_core([&](sim::monitoring::standin_core&) {
    return f.grafana_core->ensure_datasource(1, "taken", "prometheus", "http://x");
  });
  f.create(R"(apiVersion: openviz.dev/v1alpha1
kind: GrafanaDatasource
metadata: {name: taken, namespace: monitoring}
spec: {grafanaRef: {name: default-grafana}, orgId: 1, name: taken, type: prometheus, access: proxy, url: "http://p:9090"}
)");
  BOOST_TEST_REQUIRE(eventually([&] { return phase_of(f.datasource("taken")) == phase_failed; }));
  BOOST_TEST(std::string(f.datasource("taken").get_string({"status", "reason"})).find("failed to create Datasource, reason: ") == 0u);
  BOOST_TEST_REQUIRE(eventually([&] { return !f.warnings("monitoring", "taken").empty(); }));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing::mon
