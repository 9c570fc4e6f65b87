// The openviz reconcilers' plans (monitoring-controllers.txt "openviz.*";
// apis.md 5.2, 5.3; the Grafana calls of apis-monitoring.md 13) against the
// pure world, with a fake Grafana answering the calls.
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/grafana.hpp"
#include "actors/monitoring/grafana_client.hpp"
#include "k8s/base64.hpp"
#include "tests/monitoring/world.hpp"

namespace c5c3::testing::mon {

using namespace ::c5c3::monitoring;

namespace {

const char* const default_ab = R"(apiVersion: appcatalog.appscode.com/v1alpha1
kind: AppBinding
metadata: {name: default-grafana, namespace: monitoring, annotations: {monitoring.appscode.com/is-default-grafana: "true"}}
spec:
  type: Grafana
  clientConfig: {url: "https://grafana.example/base/"}
  secret: {name: default-grafana-auth}
  parameters: {apiVersion: openviz.dev/v1alpha1, kind: GrafanaConfiguration, datasource: ds-1, folderID: 7}
)";

const char* const token_secret = R"(apiVersion: v1
kind: Secret
metadata: {name: default-grafana-auth, namespace: monitoring}
data: {token: Z3JhZmFuYS1rZXk=}
)";

const char* const dashboard_yaml = R"(apiVersion: openviz.dev/v1alpha1
kind: GrafanaDashboard
metadata: {name: overview, namespace: team-a, generation: 1}
spec:
  model: {title: Overview, panels: [{type: graph, title: cpu}]}
)";

// A fake Grafana: the status and body per call id ("set", "org", "delete",
// "create", "update"), and the requests it saw.
struct fake_grafana {
  std::map<std::string, rt::service_answer> answers{
      {"set", {200, R"({"id":11,"uid":"u-1","url":"/d/u-1/overview","status":"success","version":3,"slug":"overview"})", ""}},
      {"org", {200, R"({"id":1,"name":"Main Org."})", ""}},
      {"delete", {200, R"({"title":"Overview","message":"Dashboard Overview deleted","id":11})", ""}},
      {"create", {200, R"({"datasource":{"id":5},"id":5,"message":"Datasource added","name":"prom"})", ""}},
      {"update", {200, R"({"datasource":{"id":5},"id":5,"message":"Datasource updated","name":"prom"})", ""}},
      {"lookup", {404, R"({"message":"Data source not found"})", ""}},
  };
  std::vector<rt::service_call> seen;
  void install(world& w) {
    w.services = [this](const rt::service_call& c) -> std::optional<rt::service_answer> {
      seen.push_back(c);
      BOOST_TEST(c.service == grafana_service);
      auto it = answers.find(c.id);
      if (it == answers.end()) return std::nullopt;
      return it->second;
    };
  }
};

world dashboard_world(fake_grafana& g, const std::string& dashboard = dashboard_yaml) {
  world w;
  w.put(yaml(default_ab));
  w.put(yaml(token_secret));
  w.put(yaml(dashboard));
  g.install(w);
  return w;
}

const k8s::object& stored(const world& w, std::string_view kind, std::string_view ns, std::string_view name) {
  const auto* o = w.find(kind, ns, name);
  BOOST_TEST_REQUIRE(o);
  return *o;
}

k8s::object deleting(const k8s::object& o) {
  auto b = o.edit();
  b.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
  return std::move(b).freeze();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(grafana_dashboard_plan)

BOOST_AUTO_TEST_CASE(created_dashboard_is_upserted_and_current) {
  fake_grafana g;
  auto w = dashboard_world(g);
  auto k = grafanadashboard_declaration();
  auto p = w.converge(*k, "team-a", "overview");
  BOOST_TEST(w.log == (std::vector<std::string>{"finalizer add", "patch GrafanaDashboard team-a/overview (status)",
                                                "call grafana POST https://grafana.example/base/api/dashboards/db",
                                                "call grafana GET https://grafana.example/base/api/org"}),
             boost::test_tools::per_element());
  BOOST_TEST_REQUIRE(g.seen.size() == 2u);
  BOOST_TEST(g.seen[0].request.authorization == "Bearer grafana-key");
  auto sent = k8s::parse_json(g.seen[0].request.body);
  BOOST_TEST_REQUIRE(sent.has_value());
  BOOST_TEST(same_json(&*sent,
                       R"({"dashboard":{"title":"Overview","panels":[{"type":"graph","title":"cpu"}]},"folderId":7,"overwrite":true})"));
  const auto& d = stored(w, "GrafanaDashboard", "team-a", "overview");
  BOOST_TEST(d.get_string({"status", "phase"}) == phase_current);
  BOOST_TEST(d.get_string({"status", "reason"}) == "Dashboard is successfully created");
  BOOST_TEST(k8s::get_int(d.json(), {"status", "observedGeneration"}).value_or(0) == 1);
  BOOST_TEST(k8s::get_int(d.json(), {"status", "dashboard", "id"}).value_or(0) == 11);
  BOOST_TEST(d.get_string({"status", "dashboard", "uid"}) == "u-1");
  BOOST_TEST(k8s::get_int(d.json(), {"status", "dashboard", "version"}).value_or(0) == 3);
  BOOST_TEST(k8s::get_int(d.json(), {"status", "dashboard", "orgID"}).value_or(0) == 1);
  BOOST_TEST(d.get_string({"status", "dashboard", "state"}) == grafana_state(stored(w, "AppBinding", "monitoring", "default-grafana")));
  auto ready = d.find_condition(condition_ready);
  BOOST_TEST_REQUIRE(ready.has_value());
  BOOST_TEST(ready->status == "True");
  BOOST_TEST(p.events.empty());
  BOOST_TEST(!p.requeue.has_value());

  // Steady state: nothing to call, nothing to read (the Secret's slot is not located).
  w.log.clear();
  auto s = w.sense(*k, d);
  BOOST_TEST(!s.slots[grafana_secret_slot].read);
  auto again = k->plan(s);
  BOOST_TEST(again.calls.empty());
  BOOST_TEST(again.writes.empty());
  BOOST_TEST(!again.status.has_value());

  // An edit (a new generation) upserts again with the stored id and uid.
  auto b = d.edit();
  b.set_int({"metadata", "generation"}, 2);
  b.set_string({"spec", "model", "title"}, "Overview 2");
  w.put(std::move(b).freeze());
  g.seen.clear();
  w.converge(*k, "team-a", "overview");
  BOOST_TEST_REQUIRE(!g.seen.empty());
  auto body = k8s::parse_json(g.seen[0].request.body);
  BOOST_TEST(k8s::get_string(*body, {"dashboard", "uid"}) == "u-1");
  BOOST_TEST(k8s::get_int(*body, {"dashboard", "id"}).value_or(0) == 11);
  BOOST_TEST(k8s::get_string(*body, {"dashboard", "title"}) == "Overview 2");
  BOOST_TEST(k8s::get_int(stored(w, "GrafanaDashboard", "team-a", "overview").json(), {"status", "observedGeneration"})
                 .value_or(0) == 2);
}

struct failure_row {
  const char* name;
  std::function<void(world&, fake_grafana&)> arrange;
  std::string reason;
  bool observed;  // observedGeneration set (HTTP 400 only)
};

BOOST_AUTO_TEST_CASE(failures_mark_failed_record_an_event_and_requeue) {
  const std::vector<failure_row> rows = {
      {"412 version conflict",
       [](world&, fake_grafana& g) {
         g.answers["set"] = {412, R"({"message":"The dashboard has been changed by someone else","status":"version-mismatch"})", ""};
       },
       "failed to set dashboard, reason: The dashboard has been changed by someone else", false},
      {"401", [](world&, fake_grafana& g) { g.answers["set"] = {401, R"({"message":"invalid API key"})", ""}; },
       "failed to set dashboard, reason: invalid API key", false},
      {"400 invalid JSON", [](world&, fake_grafana& g) { g.answers["set"] = {400, R"({"message":"bad request data"})", ""}; },
       "failed to set dashboard, reason: bad request data", true},
      {"down", [](world&, fake_grafana& g) { g.answers["set"] = {0, "", "POST https://grafana.example/base/api/dashboards/db: connection refused"}; },
       "POST https://grafana.example/base/api/dashboards/db: connection refused", false},
      {"not JSON", [](world&, fake_grafana& g) { g.answers["set"] = {502, "<html>bad gateway</html>", ""}; }, "", false},
      {"org fails", [](world&, fake_grafana& g) { g.answers["org"] = {500, R"({"message":"boom"})", ""}; },
       "failed to get current org, Status Code: 500", false},
      {"no default AppBinding", [](world& w, fake_grafana&) { w.remove("AppBinding", "monitoring", "default-grafana"); },
       "no default Grafana appbinding found.", false},
      {"two defaults",
       [](world& w, fake_grafana&) {
         auto b = yaml(default_ab).edit();
         b.set_namespace("other");
         w.put(std::move(b).freeze());
       },
       "multiple Grafana appbindings monitoring/default-grafana, other/default-grafana are marked default", false},
      {"the Secret missing", [](world& w, fake_grafana&) { w.remove("Secret", "monitoring", "default-grafana-auth"); },
       "secrets \"default-grafana-auth\" not found", false},
  };
  for (const auto& row : rows) {
    BOOST_TEST_CONTEXT(row.name) {
      fake_grafana g;
      auto w = dashboard_world(g);
      row.arrange(w, g);
      grafana_settings gs;
      gs.requeue_after = std::chrono::seconds(7);
      auto k = grafanadashboard_declaration(gs);
      auto p = w.converge(*k, "team-a", "overview");
      const auto& d = stored(w, "GrafanaDashboard", "team-a", "overview");
      BOOST_TEST(d.get_string({"status", "phase"}) == phase_failed);
      auto reason = std::string(d.get_string({"status", "reason"}));
      if (!row.reason.empty()) BOOST_TEST(reason == row.reason);
      BOOST_TEST(!reason.empty());
      BOOST_TEST(k8s::get_int(d.json(), {"status", "observedGeneration"}).has_value() == row.observed);
      auto failed = d.find_condition(condition_failed);
      BOOST_TEST_REQUIRE(failed.has_value());
      BOOST_TEST(failed->status == "True");
      BOOST_TEST(failed->message == reason);
      BOOST_TEST_REQUIRE(p.events.size() == 1u);
      BOOST_TEST(p.events[0].type == "Warning");
      BOOST_TEST(p.events[0].reason == reason);
      BOOST_TEST(p.events[0].message ==
                 "Failed to complete operation for GrafanaDashboard: \"overview\", Reason: \"" + reason + "\"");
      BOOST_TEST(p.events[0].message.find("grafana-key") == std::string::npos);
      BOOST_TEST((p.requeue == std::optional<std::chrono::nanoseconds>(std::chrono::seconds(7))));
      BOOST_TEST(p.error.empty());  // a requeue after the duration, not the error backoff

      // Recovery: the fault gone, the timer's pass makes it Current.
      g.answers = fake_grafana{}.answers;
      if (!w.find("AppBinding", "monitoring", "default-grafana") || !w.find("Secret", "monitoring", "default-grafana-auth")) {
        w.put(yaml(default_ab));
        w.put(yaml(token_secret));
      }
      w.remove("AppBinding", "other", "default-grafana");
      w.converge(*k, "team-a", "overview");
      const auto& ok = stored(w, "GrafanaDashboard", "team-a", "overview");
      BOOST_TEST(ok.get_string({"status", "phase"}) == phase_current);
      BOOST_TEST(!ok.find_condition(condition_failed).has_value());
      BOOST_TEST(ok.find_condition(condition_ready)->status == "True");
    }
  }
}

BOOST_AUTO_TEST_CASE(deletion_deletes_by_uid_and_treats_404_and_a_gone_appbinding_as_done) {
  struct row {
    const char* name;
    std::optional<rt::service_answer> answer;  // nullopt: no call expected
    bool remove_appbinding;
    bool released;
  };
  const std::vector<row> rows = {
      {"200", rt::service_answer{200, R"({"title":"Overview","message":"Dashboard Overview deleted","id":11})", ""}, false, true},
      {"404", rt::service_answer{404, R"({"message":"Dashboard not found"})", ""}, false, true},
      {"500", rt::service_answer{500, R"({"message":"database is locked"})", ""}, false, false},
      {"AppBinding gone", std::nullopt, true, true},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      fake_grafana g;
      auto w = dashboard_world(g);
      auto k = grafanadashboard_declaration();
      w.converge(*k, "team-a", "overview");
      if (r.answer) g.answers["delete"] = *r.answer;
      if (r.remove_appbinding) w.remove("AppBinding", "monitoring", "default-grafana");
      w.put(deleting(stored(w, "GrafanaDashboard", "team-a", "overview")));
      g.seen.clear();
      w.log.clear();
      auto p = w.converge(*k, "team-a", "overview");
      const auto& d = stored(w, "GrafanaDashboard", "team-a", "overview");
      BOOST_TEST(d.get_string({"status", "phase"}) == phase_terminating);
      BOOST_TEST(d.has_finalizer(grafanadashboard_finalizer) == !r.released);
      if (r.answer) {
        BOOST_TEST_REQUIRE(g.seen.size() == 1u);
        BOOST_TEST(g.seen[0].request.method == "DELETE");
        BOOST_TEST(g.seen[0].request.url == "https://grafana.example/base/api/dashboards/uid/u-1");
      } else {
        BOOST_TEST(g.seen.empty());
      }
      if (!r.released) {
        BOOST_TEST(p.error == "failed to delete dashboard, reason: database is locked");
        BOOST_TEST(p.events.size() == 1u);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(templatize_datasource_needs_the_appbinding_parameters) {
  fake_grafana g;
  auto w = dashboard_world(g, std::string(dashboard_yaml) + "  templatize: {datasource: true}\n");
  auto k = grafanadashboard_declaration();
  w.converge(*k, "team-a", "overview");
  BOOST_TEST_REQUIRE(!g.seen.empty());
  auto body = k8s::parse_json(g.seen[0].request.body);
  BOOST_TEST(k8s::get_string((*body)["dashboard"]["panels"][0], {"datasource"}) == "ds-1");

  fake_grafana g2;
  auto w2 = dashboard_world(g2, std::string(dashboard_yaml) + "  templatize: {datasource: true}\n");
  auto ab = w2.find("AppBinding", "monitoring", "default-grafana")->edit();
  ab.remove({"spec", "parameters"});
  w2.put(std::move(ab).freeze());
  w2.converge(*k, "team-a", "overview");
  BOOST_TEST(stored(w2, "GrafanaDashboard", "team-a", "overview").get_string({"status", "reason"}) ==
             "failed to templatize dashboard, reason: datasource parameter is not provided in app binding "
             "monitoring/default-grafana");
  BOOST_TEST(g2.seen.empty());
}

BOOST_AUTO_TEST_CASE(templatize_replaces_panels_rows_and_drops_datasource_variables) {
  auto model = k8s::parse_json(R"({"panels":[{"datasource":"old"},{"type":"row","panels":[{"datasource":{"uid":"x"}}]}],
    "templating":{"list":[{"type":"datasource","name":"ds"},{"type":"query","name":"ns","datasource":"$ds"}]}})");
  auto out = templatize_datasource(*model, "prom");
  BOOST_TEST(same_json(&out, R"({"panels":[{"datasource":"prom"},{"type":"row","datasource":"prom","panels":[{"datasource":"prom"}]}],
    "templating":{"list":[{"type":"query","name":"ns","datasource":"prom"}]}})"));
}

BOOST_AUTO_TEST_CASE(a_changed_grafana_state_drops_the_stored_ids_and_wakes_the_dashboard) {
  fake_grafana g;
  auto w = dashboard_world(g);
  auto k = grafanadashboard_declaration();
  w.converge(*k, "team-a", "overview");
  const auto d = stored(w, "GrafanaDashboard", "team-a", "overview");
  auto ab = stored(w, "AppBinding", "monitoring", "default-grafana");
  BOOST_TEST(!appbinding_wakes_dashboard(ab, d));  // same state, not failed
  auto moved = ab.edit();
  moved.set_string({"spec", "clientConfig", "url"}, "https://grafana-2.example");
  w.put(std::move(moved).freeze());
  const auto& ab2 = stored(w, "AppBinding", "monitoring", "default-grafana");
  BOOST_TEST(appbinding_wakes_dashboard(ab2, d));
  auto other = yaml("apiVersion: appcatalog.appscode.com/v1alpha1\nkind: AppBinding\nmetadata: {name: x, namespace: monitoring}\n"
                    "spec: {clientConfig: {url: 'https://x'}}\n");
  BOOST_TEST(!appbinding_wakes_dashboard(other, d));  // not the dashboard's
  g.seen.clear();
  w.converge(*k, "team-a", "overview");
  BOOST_TEST_REQUIRE(!g.seen.empty());
  BOOST_TEST(g.seen[0].request.url == "https://grafana-2.example/api/dashboards/db");
  auto body = k8s::parse_json(g.seen[0].request.body);
  BOOST_TEST(!k8s::find(*body, {"dashboard", "uid"}));  // a new Grafana: no stored uid
  BOOST_TEST(stored(w, "GrafanaDashboard", "team-a", "overview").get_string({"status", "dashboard", "state"}) ==
             grafana_state(ab2));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(grafana_client)

BOOST_AUTO_TEST_CASE(auth_url_and_tls_from_the_appbinding) {
  struct row {
    const char* name;
    std::string appbinding;
    std::string secret;  // "" none
    std::string url, authorization;
    bool insecure;
    std::string error;
  };
  const std::string basic = "Basic " + k8s::base64_encode("admin:s3cret");
  const std::vector<row> rows = {
      {"token", "spec: {clientConfig: {url: 'https://grafana.example/'}, secret: {name: s}}", "data: {token: dG9r}",
       "https://grafana.example", "Bearer tok", false, ""},
      {"basic", "spec: {clientConfig: {url: 'http://grafana.example/g'}, secret: {name: s}}",
       "data: {username: YWRtaW4=, password: czNjcmV0}", "http://grafana.example/g", basic, false, ""},
      {"no secret", "spec: {clientConfig: {url: 'https://10.0.0.1:3000'}}", "", "https://10.0.0.1:3000", "", true, ""},
      {"service", "spec: {clientConfig: {service: {scheme: http, name: grafana, port: 3000, path: /x}}}", "",
       "http://grafana.monitoring.svc:3000/x", "", false, ""},
      {"no url", "spec: {type: Grafana}", "", "", "", false, "connection url is missing"},
      {"secret missing", "spec: {clientConfig: {url: 'https://g'}, secret: {name: s}}", "-", "", "", false,
       "secrets \"s\" not found"},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      auto ab = yaml("apiVersion: appcatalog.appscode.com/v1alpha1\nkind: AppBinding\nmetadata: {name: g, namespace: monitoring}\n" +
                     r.appbinding + "\n");
      std::optional<k8s::object> sec;
      if (!r.secret.empty() && r.secret != "-")
        sec = yaml("apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: monitoring}\n" + r.secret + "\n");
      std::string error;
      auto t = grafana_target_of(ab, sec ? &*sec : nullptr, &error);
      BOOST_TEST(error == r.error);
      if (!r.error.empty()) {
        BOOST_TEST(!t.has_value());
        continue;
      }
      BOOST_TEST_REQUIRE(t.has_value());
      BOOST_TEST(t->url == r.url);
      BOOST_TEST(t->authorization == r.authorization);
      BOOST_TEST(t->insecure == r.insecure);
    }
  }
}

BOOST_AUTO_TEST_CASE(answers_and_error_texts) {
  auto ok = parse_grafana({200, R"({"id":3,"uid":"u","version":2,"slug":"s","url":"/d/u/s","status":"success"})", ""}, "set dashboard");
  BOOST_TEST(ok.ok);
  BOOST_TEST(ok.id.value_or(0) == 3);
  BOOST_TEST(ok.version.value_or(0) == 2);
  auto conflict = parse_grafana({412, R"({"message":"name exists","status":"name-exists"})", ""}, "set dashboard");
  BOOST_TEST(!conflict.ok);
  BOOST_TEST(conflict.status_word == "name-exists");
  BOOST_TEST(conflict.error == "failed to set dashboard, reason: name exists");
  auto html = parse_grafana({502, "<html>", ""}, "set dashboard");
  BOOST_TEST(!html.ok);
  BOOST_TEST(html.error.find("failed to set dashboard") == std::string::npos);  // the decode error alone
  BOOST_TEST(parse_current_org({403, "{}", ""}).error == "failed to get current org, Status Code: 403");
  BOOST_TEST(parse_current_org({200, R"({"id":4,"name":"o"})", ""}).org_id.value_or(0) == 4);
  datasource_spec d{0, 1, "prom", "prometheus", "proxy", "http://p:9090", true, ""};
  BOOST_TEST(datasource_body(d) == R"({"id":0,"orgId":1,"name":"prom","type":"prometheus","access":"proxy",)"
                                   R"("url":"http://p:9090","isDefault":true,"jsonData":null,"secureJsonData":null})");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(grafana_datasource_plan)

const char* const datasource_yaml = R"(apiVersion: openviz.dev/v1alpha1
kind: GrafanaDatasource
metadata: {name: prom, namespace: monitoring, generation: 1}
spec: {grafanaRef: {name: default-grafana}, orgId: 1, name: prom, type: prometheus, access: proxy, url: "http://p:9090", password: hunter2}
)";

BOOST_AUTO_TEST_CASE(create_then_update_then_delete) {
  fake_grafana g;
  auto w = dashboard_world(g);
  w.put(yaml(datasource_yaml));
  auto k = grafanadatasource_declaration();
  w.converge(*k, "monitoring", "prom");
  BOOST_TEST_REQUIRE(g.seen.size() == 1u);
  BOOST_TEST(g.seen[0].request.method == "POST");
  BOOST_TEST(g.seen[0].request.url == "https://grafana.example/base/api/datasources");
  BOOST_TEST(g.seen[0].request.body.find("hunter2") == std::string::npos);  // the spec's password is not sent
  const auto& d = stored(w, "GrafanaDatasource", "monitoring", "prom");
  BOOST_TEST(d.has_finalizer(grafanadatasource_finalizer));
  BOOST_TEST(d.get_string({"status", "phase"}) == phase_current);
  BOOST_TEST(d.get_string({"status", "reason"}) == "Successfully created Grafana Datasource");
  BOOST_TEST(k8s::get_int(d.json(), {"status", "grafanadatasourceId"}).value_or(0) == 5);
  BOOST_TEST(k8s::get_int(d.json(), {"status", "observedGeneration"}).value_or(0) == 1);

  // Converged: nothing.
  g.seen.clear();
  w.converge(*k, "monitoring", "prom");
  BOOST_TEST(g.seen.empty());

  auto b = d.edit();
  b.set_int({"metadata", "generation"}, 2);
  b.set_string({"spec", "url"}, "http://p2:9090");
  w.put(std::move(b).freeze());
  w.converge(*k, "monitoring", "prom");
  BOOST_TEST_REQUIRE(g.seen.size() == 1u);
  BOOST_TEST(g.seen[0].request.method == "PUT");
  BOOST_TEST(g.seen[0].request.url == "https://grafana.example/base/api/datasources/5");
  BOOST_TEST(g.seen[0].request.body.find("\"id\":5") != std::string::npos);
  BOOST_TEST(stored(w, "GrafanaDatasource", "monitoring", "prom").get_string({"status", "reason"}) ==
             "Successfully updated GrafanaDatasource");

  g.seen.clear();
  w.put(deleting(stored(w, "GrafanaDatasource", "monitoring", "prom")));
  w.converge(*k, "monitoring", "prom");
  BOOST_TEST_REQUIRE(g.seen.size() == 1u);
  BOOST_TEST(g.seen[0].request.method == "DELETE");
  BOOST_TEST(g.seen[0].request.url == "https://grafana.example/base/api/datasources/5");
  const auto& gone = stored(w, "GrafanaDatasource", "monitoring", "prom");
  BOOST_TEST(!gone.has_finalizer(grafanadatasource_finalizer));
  BOOST_TEST(gone.get_string({"status", "phase"}) == phase_terminating);
}

BOOST_AUTO_TEST_CASE(a_failed_create_is_reported_and_retried) {
  fake_grafana g;
  g.answers["create"] = {409, R"({"message":"data source with the same name already exists"})", ""};
  auto w = dashboard_world(g);
  w.put(yaml(datasource_yaml));
  auto k = grafanadatasource_declaration();
  auto p = w.converge(*k, "monitoring", "prom");
  const std::string why =
      "failed to create Datasource, reason: failed to create datasource, reason: data source with the same name already exists";
  BOOST_TEST(p.error == why);
  BOOST_TEST_REQUIRE(p.events.size() == 1u);
  BOOST_TEST(p.events[0].type == "Warning");
  const auto& d = stored(w, "GrafanaDatasource", "monitoring", "prom");
  BOOST_TEST(d.get_string({"status", "phase"}) == phase_failed);
  BOOST_TEST(d.get_string({"status", "reason"}) == why);
  BOOST_TEST(d.find_condition(condition_failed)->status == "True");
  g.answers["create"] = fake_grafana{}.answers["create"];
  g.seen.clear();
  p = w.converge(*k, "monitoring", "prom");
  BOOST_TEST(p.error.empty());
  BOOST_TEST(g.seen.size() == 1u);
  BOOST_TEST(stored(w, "GrafanaDatasource", "monitoring", "prom").get_string({"status", "phase"}) == phase_current);
}

// A restart between Grafana's create and the status write that names its id
// (fault plan crash@N after the Processing patch): the next pass's create
// meets its own datasource's name. It finds it by the object's uid, which the
// create carried, takes its id and updates it; no second create, no Failed.
BOOST_AUTO_TEST_CASE(a_restart_after_the_create_adopts_the_datasource_it_made) {
  fake_grafana g;
  g.answers["create"] = {409, R"({"message":"data source with the same name already exists"})", ""};
  auto w = dashboard_world(g);
  auto o = yaml(datasource_yaml).edit();
  o.set_string({"metadata", "uid"}, "3b1f4c2e-0d6a-4f0e-9c55-1a2b3c4d5e6f");
  w.put(std::move(o).freeze());
  g.answers["lookup"] = {200, R"({"id":5,"uid":"3b1f4c2e-0d6a-4f0e-9c55-1a2b3c4d5e6f","orgId":1,"name":"prom"})", ""};
  auto p = w.converge(*grafanadatasource_declaration(), "monitoring", "prom");
  BOOST_TEST(p.error.empty());
  BOOST_TEST_REQUIRE(g.seen.size() == 3u);
  BOOST_TEST(g.seen[0].request.method == "POST");  // the create carries the object's uid
  BOOST_TEST(g.seen[0].request.body.find(R"("uid":"3b1f4c2e-0d6a-4f0e-9c55-1a2b3c4d5e6f")") != std::string::npos);
  BOOST_TEST(g.seen[1].request.method == "GET");
  BOOST_TEST(g.seen[1].request.url ==
             "https://grafana.example/base/api/datasources/uid/3b1f4c2e-0d6a-4f0e-9c55-1a2b3c4d5e6f");
  BOOST_TEST(g.seen[2].request.method == "PUT");
  BOOST_TEST(g.seen[2].request.url == "https://grafana.example/base/api/datasources/5");
  const auto& d = stored(w, "GrafanaDatasource", "monitoring", "prom");
  BOOST_TEST(d.get_string({"status", "phase"}) == phase_current);
  BOOST_TEST(k8s::get_int(d.json(), {"status", "grafanadatasourceId"}).value_or(0) == 5);
  BOOST_TEST(!d.find_condition(condition_failed).has_value());
}

// A restart between Grafana's delete and the finalizer's release (fault plan
// crash@N after the Terminating patch): the next pass's delete meets 404,
// which is done, not a failure that holds the object for ever.
BOOST_AUTO_TEST_CASE(a_restart_after_the_delete_releases_on_404) {
  fake_grafana g;
  g.answers["delete"] = {404, R"({"message":"Data source not found"})", ""};
  auto w = dashboard_world(g);
  auto o = yaml(datasource_yaml).edit();
  o.add_finalizer(grafanadatasource_finalizer);
  o.set_int({"status", "grafanadatasourceId"}, 5);
  o.set_string({"status", "phase"}, phase_terminating);
  w.put(deleting(std::move(o).freeze()));
  auto p = w.converge(*grafanadatasource_declaration(), "monitoring", "prom");
  BOOST_TEST(p.error.empty());
  BOOST_TEST_REQUIRE(g.seen.size() == 1u);
  BOOST_TEST(g.seen[0].request.method == "DELETE");
  BOOST_TEST(!stored(w, "GrafanaDatasource", "monitoring", "prom").has_finalizer(grafanadatasource_finalizer));
}

BOOST_AUTO_TEST_CASE(deleting_without_an_id_calls_nothing) {
  fake_grafana g;
  auto w = dashboard_world(g);
  auto o = yaml(datasource_yaml).edit();
  o.add_finalizer(grafanadatasource_finalizer);
  w.put(deleting(std::move(o).freeze()));
  w.converge(*grafanadatasource_declaration(), "monitoring", "prom");
  BOOST_TEST(g.seen.empty());
  BOOST_TEST(!stored(w, "GrafanaDatasource", "monitoring", "prom").has_finalizer(grafanadatasource_finalizer));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing::mon
