// namespace.ClientOrgReconciler's plan against a pure world (world.hpp): one
// row per behaviour of monitoring-controllers.txt and apis-monitoring.md
// section 9 (gates, refusal, bail, registration, copies with their
// transforms and skip rules, the teardown order), each with the writes and
// calls its passes make until they settle.
#include "actors/monitoring/clientorg.hpp"
#include "actors/monitoring/cluster_meta.hpp"
#include "actors/monitoring/constants.hpp"
#include "k8s/base64.hpp"
#include "k8s/selector.hpp"
#include "tests/monitoring/world.hpp"

namespace c5c3::testing::mon {

using namespace ::c5c3::monitoring;

namespace {

const std::string backend = "https://backend.example/api/v1/trickster/";

prometheus_settings settings(bool with_backend = true) {
  prometheus_settings s;
  if (with_backend) s.backend = make_backend("https://backend.example", "platform-token", "");
  s.hub_uid = "hub-1";
  return s;
}

std::string state_of(const world& w) {
  return cluster_metadata_of(*w.find("Namespace", "", "kube-system"), k8s::object{}, "")->state();
}

k8s::object client_ns(const std::string& extra = "") {
  return yaml("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: demo\n  uid: demo-uid\n"
              "  labels: {ace.appscode.com/client-org: 'true'}\n  annotations: {ace.appscode.com/org-id: '42'}\n" + extra);
}

k8s::object dashboard(const std::string& ns, const std::string& name, const std::string& extra_meta = "",
                      const std::string& title = "KubeDB / Overview ") {
  return yaml("apiVersion: openviz.dev/v1alpha1\nkind: GrafanaDashboard\nmetadata:\n  name: " + name + "\n  namespace: " + ns +
              "\n" + extra_meta + "spec:\n  grafanaRef: {name: default-grafana, namespace: monitoring}\n  overwrite: true\n"
              "  model:\n    title: '" + title + "'\n    panels: [{id: 1}]\n"
              "    templating:\n      list:\n      - {name: namespace, type: query, query: 'label_values(namespace)'}\n"
              "      - {name: instance, type: query, query: 'up'}\n");
}

struct recorder {
  std::vector<std::string> bodies;  // the backend calls' bodies, in order
};

// A standalone cluster: the default Prometheus with its Service and the
// trickster RoleBinding the PrometheusReconciler stamped; the client-org
// Namespace demo; a source dashboard.
world base(const std::shared_ptr<recorder>& rec, flavour f = standalone()) {
  world w;
  w.put(yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: kube-system, uid: ks-uid}\n"));
  w.put(yaml("apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: k8s, namespace: monitoring}\nspec: {}\n"));
  w.put(yaml("apiVersion: v1\nkind: Service\nmetadata: {name: k8s, namespace: monitoring}\n"
             "spec: {ports: [{name: http-web, port: 9090}]}\n"));
  w.put(yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: appscode:trickster:proxy\n"
             "  namespace: monitoring\n  annotations: {monitoring.appscode.com/registered: some-state}\n"));
  w.put(client_ns());
  w.put(dashboard("apps", "overview"));
  w.services = [f, rec](const rt::service_call& c) -> std::optional<rt::service_answer> {
    if (c.service == prometheus_detector_service) return ready_answer(f);
    rec->bodies.push_back(c.request.body);
    if (c.request.url.ends_with("/unregister")) return rt::service_answer{200, "{}", ""};
    if (c.request.url.ends_with("/register"))
      return rt::service_answer{
          200, R"({"grafana":{"url":"https://grafana.example","bearerToken":"org-token"},"folderID":9,"datasource":"1.ks-uid.org-42"})", ""};
    return std::nullopt;
  };
  return w;
}

const std::vector<std::string> first_pass{
    "finalizer add",
    "create Namespace demo-monitoring",
    "create RoleBinding demo-monitoring/appscode:client-org:monitoring",
    "call backend POST " + backend + "register",
    "create AppBinding demo-monitoring/grafana",
    "create Secret demo-monitoring/grafana-auth",
    "patch Namespace demo-monitoring",  // the marker, after the AppBinding and its Secret
    "create GrafanaDashboard demo-monitoring/overview",
};

void expect_log(const world& w, const std::vector<std::string>& want) {
  auto log = writes_of(w);
  BOOST_TEST_REQUIRE(log.size() == want.size(), "log:\n" << join(log));
  for (std::size_t i = 0; i < log.size(); ++i) BOOST_TEST(log[i] == want[i]);
}

struct row {
  const char* name;
  std::function<void(world&, prometheus_settings&)> given;
  std::vector<std::string> log;
  std::function<void(const world&, const rt::order_plan&, const recorder&)> then;
  flavour f = standalone();
};

void run(const row& r) {
  BOOST_TEST_CONTEXT(r.name) {
    auto rec = std::make_shared<recorder>();
    auto w = base(rec, r.f);
    auto cfg = settings();
    if (r.given) r.given(w, cfg);
    auto k = client_org_declaration(cfg);
    auto plan = w.converge(*k, "", "demo");
    expect_log(w, r.log);
    if (r.then) r.then(w, plan, *rec);
  }
}

// One plan on a snapshot whose order is `cached` (what the informer shows)
// while the world holds the live Namespace.
rt::order_plan plan_with_cached(world& w, const k8s::object& cached) {
  auto k = client_org_declaration(settings());
  auto s = w.sense(*k, cached);
  s.answers[prometheus_detector_service] = ready_answer(standalone());
  return k->plan(s);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(clientorg_plan)

BOOST_AUTO_TEST_CASE(names_predicate_and_title) {
  BOOST_TEST(monitoring_namespace("demo") == "demo-monitoring");
  struct {
    const char* in;
    const char* out;
  } titles[] = {{"KubeDB / Overview", "Overview"}, {"KubeDB /Overview  ", "Overview"}, {"  Pods ", "Pods"},
                {"KubeDB", "KubeDB"}, {"My KubeDB / x", "My KubeDB / x"}, {"", ""}};
  for (const auto& t : titles) BOOST_TEST(client_dashboard_title(t.in) == t.out, t.in);
  struct {
    const char* labels;
    bool matches;
  } preds[] = {{"{ace.appscode.com/client-org: 'true'}", true},
               {"{ace.appscode.com/client-org: 'true', ace.appscode.com/client-org-monitoring: 'true'}", true},
               {"{ace.appscode.com/client-org: 'true', ace.appscode.com/client-org-monitoring: 'false'}", false},
               {"{ace.appscode.com/client-org: terminating}", false},
               {"{ace.appscode.com/client-org: 'false'}", false},
               {"{}", false}};
  auto sel = k8s::label_selector::parse(client_org_selector());
  BOOST_TEST_REQUIRE(sel.has_value());
  for (const auto& p : preds) {
    auto ns = yaml(std::string("apiVersion: v1\nkind: Namespace\nmetadata: {name: x, labels: ") + p.labels + "}\n");
    BOOST_TEST(is_client_org(ns) == p.matches, p.labels);
    BOOST_TEST(sel->matches(ns) == p.matches, p.labels);  // the order watch's selector agrees
  }
}

BOOST_AUTO_TEST_CASE(a_client_org_namespace_gets_its_monitoring_namespace_registration_and_copies) {
  run({"the first pass", nullptr, first_pass, [](const world& w, const rt::order_plan& p, const recorder& rec) {
         BOOST_TEST(p.error.empty());
         BOOST_TEST(w.find("Namespace", "", "demo")->has_finalizer(prometheus_finalizer));
         const auto& mon = *w.find("Namespace", "", "demo-monitoring");
         BOOST_TEST(mon.labels().empty());
         BOOST_TEST(mon.annotation(registered_key).value_or("") == state_of(w));
         const auto& rb = *w.find("RoleBinding", "demo-monitoring", "appscode:client-org:monitoring");
         BOOST_TEST(same_json(rb.get({"roleRef"}),
                              R"({"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"appscode:client-org:monitoring"})"));
         BOOST_TEST(same_json(rb.get({"subjects"}), R"([{"apiGroup":"rbac.authorization.k8s.io","kind":"Group","name":"ace.org.42"}])"));
         // Issue-token mode: the client org's context, the Prometheus's Service, no credentials.
         BOOST_TEST_REQUIRE(rec.bodies.size() == 1u);
         auto body = k8s::parse_json(rec.bodies[0]);
         BOOST_TEST_REQUIRE(body.has_value());
         BOOST_TEST(same_json(&*body, R"({"hubUID":"hub-1","clusterUID":"ks-uid","default":false,"issueToken":true,"clientOrgID":"42",
           "prometheus":{"url":"","service":{"scheme":"http","name":"k8s","namespace":"monitoring","port":"9090","path":"","query":""},
           "basicAuth":{"username":"","password":""},"bearerToken":"",
           "tls":{"ca":"","cert":"","key":"","serverName":"","insecureSkipTLSVerify":false}}})"));
         const auto& ab = *w.find("AppBinding", "demo-monitoring", "grafana");
         BOOST_TEST(!ab.annotation(is_default_grafana_key));  // no annotation, no owner
         BOOST_TEST(!ab.controller_reference());
         BOOST_TEST(same_json(ab.get({"spec"}), R"({"type":"Grafana","clientConfig":{"url":"https://grafana.example"},
           "secret":{"apiGroup":"","kind":"Secret","name":"grafana-auth"},
           "parameters":{"apiVersion":"openviz.dev/v1alpha1","kind":"GrafanaConfiguration","datasource":"1.ks-uid.org-42","folderID":9}})"));
         const auto& sec = *w.find("Secret", "demo-monitoring", "grafana-auth");
         BOOST_TEST(sec.get_string({"data", "token"}) == k8s::base64_encode("org-token"));
         BOOST_TEST(sec.controller_reference()->name == "grafana");
         BOOST_TEST(sec.controller_reference()->kind == "AppBinding");
       }});
}

BOOST_AUTO_TEST_CASE(the_copy_is_transformed) {
  run({"title, namespace variable, grafanaRef, annotations; labels (not the shard claim) and finalizers copied",
       [](world& w, prometheus_settings&) {
         w.put(dashboard("apps", "overview",
                         "  labels: {team: db, c5c3.io/shard: replica-a}\n"
                         "  finalizers: [grafanadashboard.openviz.dev/finalizer]\n"));
       },
       first_pass, [](const world& w, const rt::order_plan&, const recorder&) {
         const auto& src = *w.find("GrafanaDashboard", "apps", "overview");
         const auto& c = *w.find("GrafanaDashboard", "demo-monitoring", "overview");
         BOOST_TEST(c.annotation(dashboard_source_key).value_or("") == "apps/overview");
         BOOST_TEST(c.annotation(dashboard_hash_key).value_or("") == co::dashboard_hash(src));
         BOOST_TEST(c.label("team").value_or("") == "db");
         // The copy is an order of the grafana ring: the replica holding its source does not hold it.
         BOOST_TEST(!c.label("c5c3.io/shard"));
         BOOST_TEST(c.has_finalizer("grafanadashboard.openviz.dev/finalizer"));
         BOOST_TEST(same_json(c.get({"spec", "grafanaRef"}), R"({"namespace":"demo-monitoring","name":"grafana"})"));
         BOOST_TEST(c.get({"spec", "overwrite"})->IsTrue());
         BOOST_TEST(same_json(c.get({"spec", "model"}), R"({"title":"Overview","panels":[{"id":1}],"templating":{"list":[
           {"name":"namespace","type":"constant","query":"demo"},{"name":"instance","type":"query","query":"up"}]}})"));
         // The source is untouched.
         BOOST_TEST(src.get_string({"spec", "model", "title"}) == "KubeDB / Overview ");
       }});
}

// Sharded, the source's claim label names the replica holding it (the
// grafana ring's): a handoff of the source is no change of it, so its copies
// are not written again; the copy's own claim stays the copy's.
BOOST_AUTO_TEST_CASE(a_handoff_of_the_source_leaves_the_copies_alone) {
  auto rec = std::make_shared<recorder>();
  auto w = base(rec);
  auto k = client_org_declaration(settings());
  const auto held_by = [](const std::string& replica) {
    return dashboard("apps", "overview", "  labels: {c5c3.io/shard: " + replica + "}\n");
  };
  BOOST_TEST(co::dashboard_hash(held_by("replica-a")) == co::dashboard_hash(held_by("replica-b")));
  BOOST_TEST(co::dashboard_hash(held_by("replica-a")) != co::dashboard_hash(dashboard("apps", "overview",
                                                                                      "  labels: {team: db}\n")));
  w.put(held_by("replica-a"));
  w.converge(*k, "", "demo");
  auto copy = w.find("GrafanaDashboard", "demo-monitoring", "overview")->edit();
  copy.set_label("c5c3.io/shard", "replica-c");
  w.put(std::move(copy).freeze());
  w.put(held_by("replica-b"));
  w.log.clear();
  w.converge(*k, "", "demo");
  expect_log(w, {});
  BOOST_TEST(w.find("GrafanaDashboard", "demo-monitoring", "overview")->label("c5c3.io/shard").value_or("") ==
             "replica-c");
}

BOOST_AUTO_TEST_CASE(copies_and_monitoring_namespaces_are_not_copied) {
  run({"a copy elsewhere and a dashboard of a -monitoring namespace are skipped",
       [](world& w, prometheus_settings&) {
         w.put(dashboard("other", "copied", "  annotations: {meta.appcode.com/source: apps/overview}\n"));
         w.put(dashboard("team-monitoring", "local"));
       },
       first_pass, [](const world& w, const rt::order_plan&, const recorder&) {
         BOOST_TEST(!w.find("GrafanaDashboard", "demo-monitoring", "copied"));
         BOOST_TEST(!w.find("GrafanaDashboard", "demo-monitoring", "local"));
       }});
}

BOOST_AUTO_TEST_CASE(steady_state_and_a_source_edit) {
  auto rec = std::make_shared<recorder>();
  auto w = base(rec);
  auto k = client_org_declaration(settings());
  w.converge(*k, "", "demo");
  w.log.clear();
  w.converge(*k, "", "demo");
  expect_log(w, {});  // nothing written, no registration again
  BOOST_TEST(rec->bodies.size() == 1u);
  const auto old_hash = std::string(w.find("GrafanaDashboard", "demo-monitoring", "overview")->annotation(dashboard_hash_key).value_or(""));
  w.put(dashboard("apps", "overview", "  generation: 2\n", "KubeDB / Pods"));
  w.converge(*k, "", "demo");
  expect_log(w, {"patch GrafanaDashboard demo-monitoring/overview"});
  const auto& c = *w.find("GrafanaDashboard", "demo-monitoring", "overview");
  BOOST_TEST(c.get_string({"spec", "model", "title"}) == "Pods");
  BOOST_TEST(c.annotation(dashboard_hash_key).value_or("") != old_hash);
  // A copy edited by hand is put back.
  auto b = c.edit();
  b.set_string({"spec", "model", "title"}, "mine");
  w.put(std::move(b).freeze());
  w.log.clear();
  w.converge(*k, "", "demo");
  expect_log(w, {"patch GrafanaDashboard demo-monitoring/overview"});
  BOOST_TEST(w.find("GrafanaDashboard", "demo-monitoring", "overview")->get_string({"spec", "model", "title"}) == "Pods");
}

BOOST_AUTO_TEST_CASE(gates) {
  run({"no org-id annotation: nothing, not even the detector",
       [](world& w, prometheus_settings&) {
         w.put(yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: demo, labels: {ace.appscode.com/client-org: 'true'}}\n"));
       },
       {}, [](const world& w, const rt::order_plan& p, const recorder&) {
         BOOST_TEST(p.error.empty());
         BOOST_TEST(w.log.empty());
       }});
  run({"the label reads terminating: nothing",
       [](world& w, prometheus_settings&) {
         w.put(yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: demo, labels: {ace.appscode.com/client-org: terminating},"
                    " annotations: {ace.appscode.com/org-id: '42'}}\n"));
       },
       {}, [](const world& w, const rt::order_plan&, const recorder&) { BOOST_TEST(w.log.empty()); }});
  run({"the detector not ready (unknown): an error, nothing written",
       [](world& w, prometheus_settings&) {
         auto inner = w.services;
         w.services = [inner](const rt::service_call& c) -> std::optional<rt::service_answer> {
           if (c.service == prometheus_detector_service) return unknown_answer();
           return inner(c);
         };
       },
       {}, [](const world&, const rt::order_plan& p, const recorder&) { BOOST_TEST(p.error == "unknown"); }});
  run({"the detector not ready without an error: converged, nothing written",
       [](world& w, prometheus_settings&) {
         auto inner = w.services;
         w.services = [inner](const rt::service_call& c) -> std::optional<rt::service_answer> {
           if (c.service == prometheus_detector_service) return not_ready_answer();
           return inner(c);
         };
       },
       {}, [](const world&, const rt::order_plan& p, const recorder&) { BOOST_TEST(p.error.empty()); }});
  run({"Rancher with federated Prometheus: refused", nullptr, {},
       [](const world& w, const rt::order_plan& p, const recorder&) {
         BOOST_TEST(p.error ==
                    "client organization mode is not supported when federated Prometheus is used in a Rancher managed cluster");
         BOOST_TEST(!w.find("Namespace", "", "demo")->has_finalizer(prometheus_finalizer));
       },
       rancher_flavour()});
  run({"the trickster RoleBinding not registered yet: an error after the RoleBinding",
       [](world& w, prometheus_settings&) {
         w.put(yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: 'appscode:trickster:proxy', namespace: monitoring}\n"));
       },
       {"finalizer add", "create Namespace demo-monitoring", "create RoleBinding demo-monitoring/appscode:client-org:monitoring"},
       [](const world& w, const rt::order_plan& p, const recorder&) {
         BOOST_TEST(p.error == "rolebinding monitoring/appscode:trickster:proxy is not registered yet");
         BOOST_TEST(!w.find("GrafanaDashboard", "demo-monitoring", "overview"));
       }});
  run({"no Prometheus: failed to detect default Prometheus",
       [](world& w, prometheus_settings&) { w.remove("Prometheus", "monitoring", "k8s"); },
       {"finalizer add", "create Namespace demo-monitoring", "create RoleBinding demo-monitoring/appscode:client-org:monitoring"},
       [](const world&, const rt::order_plan& p, const recorder&) { BOOST_TEST(p.error == "failed to detect default Prometheus"); }});
  run({"without the backend client: no registration, the copies still made",
       [](world&, prometheus_settings& cfg) { cfg.backend = {}; },
       {"finalizer add", "create Namespace demo-monitoring", "create RoleBinding demo-monitoring/appscode:client-org:monitoring",
        "create GrafanaDashboard demo-monitoring/overview"},
       [](const world& w, const rt::order_plan& p, const recorder& rec) {
         BOOST_TEST(p.error.empty());
         BOOST_TEST(rec.bodies.empty());
         BOOST_TEST(!w.find("AppBinding", "demo-monitoring", "grafana"));
       }});
  run({"the registration fails: its error, no AppBinding, no marker, no copies",
       [](world& w, prometheus_settings&) {
         auto inner = w.services;
         w.services = [inner](const rt::service_call& c) -> std::optional<rt::service_answer> {
           if (c.request.url.ends_with("/register")) return rt::service_answer{503, "busy\n", ""};
           return inner(c);
         };
       },
       {"finalizer add", "create Namespace demo-monitoring", "create RoleBinding demo-monitoring/appscode:client-org:monitoring",
        "call backend POST " + backend + "register"},
       [](const world& w, const rt::order_plan& p, const recorder&) {
         BOOST_TEST(p.error == "backend register: HTTP 503: busy");
         BOOST_TEST(!w.find("Namespace", "", "demo-monitoring")->annotation(registered_key));
       }});
  run({"a dashboard without a model aborts the copies",
       [](world& w, prometheus_settings&) {
         w.put(yaml("apiVersion: openviz.dev/v1alpha1\nkind: GrafanaDashboard\nmetadata: {name: bad, namespace: apps}\nspec: {}\n"));
       },
       {"finalizer add", "create Namespace demo-monitoring", "create RoleBinding demo-monitoring/appscode:client-org:monitoring",
        "call backend POST " + backend + "register", "create AppBinding demo-monitoring/grafana",
        "create Secret demo-monitoring/grafana-auth", "patch Namespace demo-monitoring"},
       [](const world& w, const rt::order_plan& p, const recorder&) {
         BOOST_TEST(p.error == "GrafanaDashboard apps/bad is missing a model");
         BOOST_TEST(!w.find("GrafanaDashboard", "demo-monitoring", "overview"));
       }});
}

BOOST_AUTO_TEST_CASE(a_failed_copy_is_reported_and_the_others_are_made) {
  run({"a copy the API server refuses: collected, the other copied",
       [](world& w, prometheus_settings&) {
         w.put(dashboard("apps", "second"));
         w.fails = [](const rt::child_write& x) -> std::optional<std::string> {
           if (x.kind() == "GrafanaDashboard" && x.name() == "overview") return "admission webhook denied overview";
           return std::nullopt;
         };
       },
       {"finalizer add", "create Namespace demo-monitoring", "create RoleBinding demo-monitoring/appscode:client-org:monitoring",
        "call backend POST " + backend + "register", "create AppBinding demo-monitoring/grafana",
        "create Secret demo-monitoring/grafana-auth", "patch Namespace demo-monitoring",
        "create GrafanaDashboard demo-monitoring/overview", "create GrafanaDashboard demo-monitoring/second"},
       [](const world& w, const rt::order_plan& p, const recorder&) {
         BOOST_TEST(p.error == "admission webhook denied overview");
         BOOST_TEST(w.find("GrafanaDashboard", "demo-monitoring", "second"));
       }});
}

BOOST_AUTO_TEST_CASE(the_uncached_reread_bails) {
  struct {
    const char* name;
    std::function<void(world&)> live;  // what the API server holds now
  } rows[] = {
      {"the Namespace is gone", [](world& w) { w.remove("Namespace", "", "demo"); }},
      {"the Namespace is terminating",
       [](world& w) {
         auto b = w.find("Namespace", "", "demo")->edit();
         b.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
         w.put(std::move(b).freeze());
       }},
      {"the label is gone",
       [](world& w) {
         w.put(yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: demo, annotations: {ace.appscode.com/org-id: '42'}}\n"));
       }},
      {"the label reads terminating",
       [](world& w) {
         auto b = client_ns().edit();
         b.set_label(client_org_key, "terminating");
         w.put(std::move(b).freeze());
       }},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      auto rec = std::make_shared<recorder>();
      auto w = base(rec);
      auto cached = *w.find("Namespace", "", "demo");  // the informer's (stale) view
      r.live(w);
      auto p = plan_with_cached(w, cached);
      BOOST_TEST(p.writes.empty());
      BOOST_TEST(p.calls.empty());
      BOOST_TEST(p.error.empty());
      BOOST_TEST((p.finalizer == rt::finalizer_op::none));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_terminating_monitoring_namespace_is_waited_for) {
  auto rec = std::make_shared<recorder>();
  auto w = base(rec);
  w.put(client_ns("  finalizers: [monitoring.appscode.com/prometheus]\n"));
  w.put(yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: demo-monitoring, deletionTimestamp: '2026-12-01T00:00:00Z'}\n"));
  auto k = client_org_declaration(settings());
  auto p = w.converge(*k, "", "demo");
  BOOST_TEST(writes_of(w).empty());
  BOOST_TEST_REQUIRE(p.requeue.has_value());
  BOOST_TEST(*p.requeue == std::chrono::seconds(10));
}

BOOST_AUTO_TEST_CASE(teardown_in_the_authoritative_order) {
  auto rec = std::make_shared<recorder>();
  auto w = base(rec);
  w.put(dashboard("apps", "second"));
  auto k = client_org_declaration(settings());
  w.converge(*k, "", "demo");
  w.put(dashboard("demo-monitoring", "by-hand"));  // DeleteAllOf: every dashboard there, copy or not
  auto b = w.find("Namespace", "", "demo")->edit();
  b.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
  w.put(std::move(b).freeze());
  w.log.clear();
  rec->bodies.clear();
  auto p = w.converge(*k, "", "demo");
  BOOST_TEST(p.error.empty());
  expect_log(w, {"call backend POST " + backend + "unregister", "delete GrafanaDashboard demo-monitoring/by-hand",
                 "delete GrafanaDashboard demo-monitoring/overview", "delete GrafanaDashboard demo-monitoring/second",
                 "delete Namespace demo-monitoring", "finalizer release"});
  BOOST_TEST_REQUIRE(rec->bodies.size() == 1u);
  auto body = k8s::parse_json(rec->bodies[0]);
  BOOST_TEST(same_json(&*body, R"({"clusterUID":"ks-uid","default":false,"issueToken":true,"clientOrgID":"42"})"));
  BOOST_TEST(w.find("GrafanaDashboard", "apps", "overview"));  // sources stay
}

BOOST_AUTO_TEST_CASE(a_failed_unregistration_blocks_the_teardown) {
  auto rec = std::make_shared<recorder>();
  auto w = base(rec);
  auto k = client_org_declaration(settings());
  w.converge(*k, "", "demo");
  auto inner = w.services;
  w.services = [inner](const rt::service_call& c) -> std::optional<rt::service_answer> {
    if (c.request.url.ends_with("/unregister")) return rt::service_answer{0, {}, "connection refused"};
    return inner(c);
  };
  auto b = w.find("Namespace", "", "demo")->edit();
  b.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
  w.put(std::move(b).freeze());
  w.log.clear();
  auto p = w.converge(*k, "", "demo");
  BOOST_TEST(p.error == "backend unregister: connection refused");
  expect_log(w, {"call backend POST " + backend + "unregister"});
  BOOST_TEST(w.find("Namespace", "", "demo-monitoring"));
  BOOST_TEST(w.find("Namespace", "", "demo")->has_finalizer(prometheus_finalizer));
}

BOOST_AUTO_TEST_CASE(watches_wake_the_client_org_namespaces) {
  auto k = client_org_declaration(settings());
  BOOST_TEST(k->order_selector == client_org_selector());
  const rt::watch_decl* sa = nullptr;
  const rt::watch_decl* dash = nullptr;
  for (const auto& w : k->watches) {
    if (w.gvk.kind == "ServiceAccount") sa = &w;
    if (w.gvk.kind == "GrafanaDashboard") dash = &w;
  }
  BOOST_TEST_REQUIRE(sa);
  BOOST_TEST_REQUIRE(dash);
  BOOST_TEST(sa->selector == registered_key);
  auto ns = client_ns();
  auto gone = client_ns("  deletionTimestamp: '2026-12-01T00:00:00Z'\n");
  auto sa_of = [](const char* name, const char* label) {
    return yaml(std::string("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: ") + name + ", namespace: monitoring" +
                (label ? std::string(", labels: {monitoring.appscode.com/registered: ") + label + "}" : "") + "}\n");
  };
  BOOST_TEST(sa->wakes(sa_of("trickster", "s"), ns));
  BOOST_TEST(!sa->wakes(sa_of("trickster", "s"), gone));
  BOOST_TEST(!sa->wakes(sa_of("other", "s"), ns));
  BOOST_TEST(!sa->wakes(sa_of("trickster", nullptr), ns));
  BOOST_TEST(dash->wakes(dashboard("apps", "x"), ns));
  BOOST_TEST(!dash->wakes(dashboard("apps", "x"), gone));
  BOOST_TEST(!dash->wakes(dashboard("demo-monitoring", "x"), ns));
  BOOST_TEST(!dash->wakes(dashboard("apps", "x", "  annotations: {meta.appcode.com/source: a/b}\n"), ns));
}

BOOST_AUTO_TEST_CASE(openshift_registers_the_thanos_route_with_the_trickster_token) {
  row r{"OpenShift: thanos-querier's route and the trickster SA's token",
        [](world& w, prometheus_settings&) {
          w.remove("Prometheus", "monitoring", "k8s");
          w.put(yaml("apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: user-workload, namespace: openshift-user-workload-monitoring}\nspec: {}\n"));
          w.put(yaml("apiVersion: v1\nkind: Service\nmetadata: {name: thanos-querier, namespace: openshift-monitoring}\n"
                     "spec: {ports: [{name: web, port: 9091}]}\n"));
          w.put(yaml("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: appscode:trickster:proxy\n"
                     "  namespace: openshift-monitoring\n  annotations: {monitoring.appscode.com/registered: s}\n"));
          w.put(yaml("apiVersion: operator.openshift.io/v1\nkind: IngressController\nmetadata: {name: default, namespace: openshift-ingress-operator}\n"
                     "status: {domain: apps.example.com}\n"));
          w.put(yaml("apiVersion: v1\nkind: Secret\nmetadata:\n  name: trickster-token-x\n  namespace: openshift-user-workload-monitoring\n"
                     "  annotations: {kubernetes.io/service-account.name: trickster}\ntype: kubernetes.io/service-account-token\n"
                     "data: {token: " + k8s::base64_encode("sa-token") + ", ca.crt: " + k8s::base64_encode("CA") + "}\n"));
        },
        first_pass,
        [](const world&, const rt::order_plan& p, const recorder& rec) {
          BOOST_TEST(p.error.empty());
          BOOST_TEST_REQUIRE(rec.bodies.size() == 1u);
          auto body = k8s::parse_json(rec.bodies[0]);
          BOOST_TEST(k8s::get_string(*body, {"prometheus", "url"}) == "https://thanos-querier-openshift-monitoring.apps.example.com");
          BOOST_TEST(k8s::get_string(*body, {"prometheus", "bearerToken"}) == "sa-token");
          BOOST_TEST(k8s::get_string(*body, {"prometheus", "service", "name"}).empty());
        },
        openshift_flavour()};
  run(r);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing::mon
