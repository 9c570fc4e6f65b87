// prometheus.PrometheusReconciler's plan against a pure world (world.hpp):
// one row per behaviour of monitoring-controllers.txt and apis-monitoring.md
// section 4, each with the writes and calls the passes make until they settle.
#include "actors/monitoring/cluster_meta.hpp"
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/prometheus.hpp"
#include "k8s/base64.hpp"
#include "tests/monitoring/world.hpp"

namespace c5c3::testing::mon {

using namespace ::c5c3::monitoring;

namespace {

const std::string ns_uid = "ns-uid";

prometheus_settings settings(bool backend = true) {
  prometheus_settings s;
  if (backend) s.backend = make_backend("https://backend.example", "platform-token", "");
  s.hub_uid = "hub-1";
  s.pod_namespace = "monitoring-operator";
  return s;
}

std::string state_of(const world& w) {
  return cluster_metadata_of(*w.find("Namespace", "", "kube-system"), k8s::object{}, "")->state();
}

k8s::object token_secret(const char* ns = "monitoring") {
  return yaml(std::string("apiVersion: v1\nkind: Secret\nmetadata:\n  name: trickster-token-abcdef\n  namespace: ") + ns +
              "\n  annotations: {kubernetes.io/service-account.name: trickster}\n"
              "type: kubernetes.io/service-account-token\ndata: {token: " + k8s::base64_encode("sa-token") +
              ", ca.crt: " + k8s::base64_encode("CA") + "}\n");
}

// A standalone cluster with one Prometheus (the default), its Service, and
// the token Secret the token controller filled.
world base(flavour f = standalone()) {
  world w;
  w.put(yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: kube-system, uid: " + ns_uid + "}\n"));
  w.put(yaml("apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: k8s, namespace: monitoring, uid: p-uid}\n"
             "spec:\n  serviceMonitorSelector: {matchLabels: {release: kps}}\n  serviceMonitorNamespaceSelector: {}\n"));
  w.put(yaml("apiVersion: v1\nkind: Service\nmetadata: {name: k8s, namespace: monitoring, uid: svc-uid}\n"
             "spec: {ports: [{name: http-web, port: 9090}]}\n"));
  w.put(token_secret());
  w.services = [f](const rt::service_call& c) -> std::optional<rt::service_answer> {
    if (c.service == prometheus_detector_service) return ready_answer(f);
    if (c.request.url.ends_with("/unregister")) return rt::service_answer{200, "{}", ""};
    if (c.request.url.ends_with("/register"))
      return rt::service_answer{200, R"({"grafana":{"url":"https://grafana.example","bearerToken":"g-token"},"folderID":7,"datasource":"1.ns-uid"})", ""};
    return std::nullopt;
  };
  return w;
}

const std::vector<std::string> first_pass{
    "patch Prometheus monitoring/k8s",  // spec.externalLabels
    "finalizer add",
    "create ServiceAccount monitoring/trickster",
    "create ClusterRole appscode:trickster:proxy",
    "create RoleBinding monitoring/appscode:trickster:proxy",
    "create ClusterChartPreset monitoring-presets",
    "call backend POST https://backend.example/api/v1/trickster/register",
    "create AppBinding monitoring/default-prometheus",
    "create AppBinding monitoring/default-grafana",
    "create Secret monitoring/default-grafana-auth",
    "patch RoleBinding monitoring/appscode:trickster:proxy",  // the markers, last
};

struct row {
  const char* name;
  std::function<void(world&, prometheus_settings&)> given;
  std::vector<std::string> log;
  std::function<void(const world&, const rt::order_plan&)> then;
};

void run(const row& r, flavour f = standalone()) {
  BOOST_TEST_CONTEXT(r.name) {
    auto w = base(f);
    auto cfg = settings();
    if (r.given) r.given(w, cfg);
    auto k = prometheus_declaration(cfg);
    const auto* p = w.find("Prometheus", "monitoring", "k8s");
    BOOST_TEST_REQUIRE(p);
    auto plan = w.converge(*k, p->namespace_(), p->name());
    auto log = writes_of(w);
    BOOST_TEST_REQUIRE(log.size() == r.log.size(), "log:\n" << join(log));
    for (std::size_t i = 0; i < log.size(); ++i) {
      const auto& want = r.log[i];
      const bool prefix = !want.empty() && want.back() == '*';
      BOOST_TEST((prefix ? log[i].starts_with(want.substr(0, want.size() - 1)) : log[i] == want), log[i] << " vs " << want);
    }
    if (r.then) r.then(w, plan);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(prometheus_plan)

BOOST_AUTO_TEST_CASE(a_default_prometheus_is_set_up_registered_and_bound) {
  run({"the first pass, in upstream's order", nullptr, first_pass, [](const world& w, const rt::order_plan& p) {
         BOOST_TEST(p.error.empty());
         const auto& prom = *w.find("Prometheus", "monitoring", "k8s");
         BOOST_TEST(prom.has_finalizer(prometheus_finalizer));
         BOOST_TEST(prom.get_string({"spec", "externalLabels", "cluster_uid"}) == ns_uid);
         const auto& sa = *w.find("ServiceAccount", "monitoring", "trickster");
         BOOST_TEST(sa.controller_reference()->name == "k8s");
         BOOST_TEST(sa.controller_reference()->kind == "Prometheus");
         const auto& cr = *w.find("ClusterRole", "", "appscode:trickster:proxy");
         BOOST_TEST(same_json(cr.get({"rules"}), R"([{"apiGroups":[""],"resources":["services/proxy"],"verbs":["*"]}])"));
         const auto& rb = *w.find("RoleBinding", "monitoring", "appscode:trickster:proxy");
         BOOST_TEST(rb.controller_reference()->kind == "Service");
         BOOST_TEST(rb.get_string({"roleRef", "name"}) == "appscode:trickster:proxy");
         BOOST_TEST(same_json(rb.get({"subjects"}), R"([{"kind":"ServiceAccount","name":"trickster","namespace":"monitoring"}])"));
         BOOST_TEST(rb.annotation(registered_key).value_or("") == state_of(w));
         BOOST_TEST(!rb.annotation(token_id_key));
         const auto& preset = *w.find("ClusterChartPreset", "", "monitoring-presets");
         BOOST_TEST((preset.labels() == std::map<std::string, std::string>{{"charts.x-helm.dev/is-default-preset", "true"}}));
         BOOST_TEST(same_json(preset.get({"spec", "values"}), R"({"spec":{"monitoring":{"agent":"prometheus.io/operator","serviceMonitor":{"labels":{"release":"kps"}}}},)"
                    R"("form":{"alert":{"enabled":"critical","labels":{"release":"kube-prometheus-stack"}}}})"));
         const auto& abp = *w.find("AppBinding", "monitoring", "default-prometheus");
         BOOST_TEST(abp.annotation(is_default_prometheus_key).value_or("") == "true");
         BOOST_TEST(abp.get_string({"spec", "type"}) == "Prometheus");
         BOOST_TEST(same_json(abp.get({"spec", "clientConfig"}), R"({"service":{"scheme":"http","namespace":"monitoring","name":"k8s","port":9090}})"));
         BOOST_TEST(same_json(abp.get({"spec", "appRef"}), R"({"apiGroup":"monitoring.coreos.com","kind":"Prometheus","namespace":"monitoring","name":"k8s"})"));
         const auto& abg = *w.find("AppBinding", "monitoring", "default-grafana");
         BOOST_TEST(abg.get_string({"spec", "clientConfig", "url"}) == "https://grafana.example");
         BOOST_TEST(same_json(abg.get({"spec", "parameters"}), R"({"apiVersion":"openviz.dev/v1alpha1","kind":"GrafanaConfiguration","datasource":"1.ns-uid","folderID":7})"));
         BOOST_TEST(abg.get_string({"spec", "secret", "name"}) == "default-grafana-auth");
         const auto& auth = *w.find("Secret", "monitoring", "default-grafana-auth");
         BOOST_TEST(auth.controller_reference()->kind == "AppBinding");
         BOOST_TEST(*k8s::base64_decode(auth.get_string({"data", "token"})) == "g-token");
       }});
}

BOOST_AUTO_TEST_CASE(each_behaviour_of_the_reconciler) {
  auto settled = [](world& w, prometheus_settings& cfg) {
    // A first pass made everything; the row then changes the world.
    auto k = prometheus_declaration(cfg);
    w.converge(*k, "monitoring", "k8s");
    w.log.clear();
  };
  const row rows[] = {
      {"settled: nothing more, no registration (the markers hold the state)", settled, {}, nullptr},
      {"the state changes (ace-info now names an API endpoint): registered again, markers stamped",
       [&](world& w, prometheus_settings& cfg) {
         settled(w, cfg);
         cluster_metadata md;
         md.uid = ns_uid;
         md.name = "c1";
         md.api_endpoint = "https://1.2.3.4:6443";
         w.put(yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ace-info, namespace: kube-public}\n"
                    "data: {uid: " + ns_uid + ", name: c1, apiEndpoint: 'https://1.2.3.4:6443'}\n"
                    "binaryData: {mac: '" + k8s::base64_encode(ace_info_mac(md, ns_uid)) + "'}\n"));
       },
       {"patch Prometheus monitoring/k8s", "call backend POST https://backend.example/api/v1/trickster/register",
        "patch RoleBinding monitoring/appscode:trickster:proxy"},
       [](const world& w, const rt::order_plan&) {
         BOOST_TEST(w.find("Prometheus", "monitoring", "k8s")->get_string({"spec", "externalLabels", "cluster"}) == "c1");
       }},
      {"a legacy marker \"true\": stamped, not registered",
       [&](world& w, prometheus_settings& cfg) {
         settled(w, cfg);
         auto b = w.find("RoleBinding", "monitoring", "appscode:trickster:proxy")->edit();
         b.set_annotation(registered_key, "true");
         w.put(std::move(b).freeze());
       },
       {"patch RoleBinding monitoring/appscode:trickster:proxy"}, nullptr},
      {"no backend client (no --baseURL or --token): no registration, no AppBindings",
       [](world&, prometheus_settings& cfg) { cfg.backend = {}; },
       {"patch Prometheus monitoring/k8s", "finalizer add", "create ServiceAccount monitoring/trickster",
        "create ClusterRole appscode:trickster:proxy", "create RoleBinding monitoring/appscode:trickster:proxy",
        "create ClusterChartPreset monitoring-presets"},
       nullptr},
      {"the backend answers 503: the pass fails before the markers, and registers next time",
       [](world& w, prometheus_settings&) {
         auto ok = w.services;
         w.services = [ok](const rt::service_call& c) -> std::optional<rt::service_answer> {
           if (c.service == backend_service) return rt::service_answer{503, "Service Unavailable\n", ""};
           return ok(c);
         };
       },
       {first_pass.begin(), first_pass.begin() + 7},
       [](const world& w, const rt::order_plan& p) {
         BOOST_TEST(p.error == "backend register: HTTP 503: Service Unavailable");
         BOOST_TEST(!w.find("RoleBinding", "monitoring", "appscode:trickster:proxy")->annotation(registered_key));
         BOOST_TEST(!w.find("AppBinding", "monitoring", "default-prometheus"));
       }},
      {"creating default-grafana-auth fails: ignored, the markers are stamped",
       [](world& w, prometheus_settings&) {
         w.fails = [](const rt::child_write& wr) -> std::optional<std::string> {
           if (wr.kind() == "Secret" && wr.name() == "default-grafana-auth") return "forbidden";
           return std::nullopt;
         };
       },
       first_pass,
       [](const world& w, const rt::order_plan& p) {
         BOOST_TEST(p.error.empty());
         BOOST_TEST(!w.find("Secret", "monitoring", "default-grafana-auth"));
         BOOST_TEST(w.find("RoleBinding", "monitoring", "appscode:trickster:proxy")->annotation(registered_key).has_value());
       }},
      {"no token Secret yet: one is created for the ServiceAccount, and the pass waits for the token controller",
       [](world& w, prometheus_settings&) { w.remove("Secret", "monitoring", "trickster-token-abcdef"); },
       {"patch Prometheus monitoring/k8s", "finalizer add", "create ServiceAccount monitoring/trickster",
        "create Secret monitoring/trickster-token-*"},
       [](const world& w, const rt::order_plan& p) {
         // The world's ServiceAccount has uid trickster-uid: the name derives from it.
         const k8s::object* created = nullptr;
         for (const auto& o : w.objects)
           if (o.kind() == "Secret" && o.name().starts_with("trickster-token-")) created = &o;
         BOOST_TEST_REQUIRE(created);
         BOOST_TEST(created->name().size() == std::string("trickster-token-").size() + 6);
         BOOST_TEST(created->get_string({"type"}) == "kubernetes.io/service-account-token");
         BOOST_TEST(created->annotation("kubernetes.io/service-account.name").value_or("") == "trickster");
         BOOST_TEST(created->controller_reference()->kind == "ServiceAccount");
         BOOST_TEST((p.requeue && *p.requeue == std::chrono::seconds(1)));
       }},
      {"the Prometheus's Service is missing: an error naming it",
       [](world& w, prometheus_settings&) { w.remove("Service", "monitoring", "k8s"); },
       {"patch Prometheus monitoring/k8s", "finalizer add"},
       [](const world&, const rt::order_plan& p) { BOOST_TEST(p.error == "services \"k8s\" not found"); }},
      {"an ACE-managed spoke: no ServiceAccount, the spokes' trickster in namespace monitoring",
       [](world& w, prometheus_settings&) {
         w.put(yaml("apiVersion: operator.open-cluster-management.io/v1\nkind: Klusterlet\nmetadata: {name: klusterlet}\n"));
         w.put(yaml("apiVersion: cluster.open-cluster-management.io/v1alpha1\nkind: ClusterClaim\nmetadata: {name: id.k8s.io}\n"));
         w.put(yaml("apiVersion: cluster.open-cluster-management.io/v1alpha1\nkind: ClusterClaim\nmetadata: {name: cluster.ace.info}\n"));
       },
       {"patch Prometheus monitoring/k8s", "finalizer add", "create ClusterRole appscode:trickster:proxy",
        "create RoleBinding monitoring/appscode:trickster:proxy", "create ClusterChartPreset monitoring-presets",
        "call backend POST https://backend.example/api/v1/trickster/register", "create AppBinding monitoring/default-prometheus",
        "create AppBinding monitoring/default-grafana", "create Secret monitoring/default-grafana-auth",
        "patch RoleBinding monitoring/appscode:trickster:proxy"},
       [](const world& w, const rt::order_plan&) {
         BOOST_TEST(same_json(w.find("RoleBinding", "monitoring", "appscode:trickster:proxy")->get({"subjects"}), R"([{"kind":"ServiceAccount","name":"trickster","namespace":"monitoring"}])"));
         BOOST_TEST(!w.find("ServiceAccount", "monitoring", "trickster"));
       }},
  };
  for (const auto& r : rows) run(r);
}

BOOST_AUTO_TEST_CASE(the_gate_and_deletion) {
  // The detector: unknown is an error (backoff), OpenShift without the
  // user-workload Prometheus is no error and no requeue.
  auto order = yaml("apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: k8s, namespace: monitoring}\n");
  auto cfg = settings();
  auto ask = plan_prometheus(cfg, snapshot_builder(order).get());
  BOOST_TEST_REQUIRE(ask.calls.size() == 1u);
  BOOST_TEST(ask.calls.front().service == prometheus_detector_service);
  BOOST_TEST(plan_prometheus(cfg, snapshot_builder(order).answer(prometheus_detector_service, unknown_answer()).get()).error ==
             "unknown");
  auto nr = plan_prometheus(cfg, snapshot_builder(order).answer(prometheus_detector_service, not_ready_answer()).get());
  BOOST_TEST((nr.error.empty() && nr.writes.empty() && nr.calls.empty() && !nr.requeue));
  // OpenShift's cluster Prometheus is left alone.
  auto os = plan_prometheus(cfg, snapshot_builder(order).detector(prometheus_detector_service, openshift_flavour()).get());
  BOOST_TEST((os.writes.empty() && os.calls.empty() && os.finalizer == rt::finalizer_op::none));

  // Deletion: the preset deleted, the context unregistered, the finalizer released.
  auto w = base();
  auto k = prometheus_declaration(cfg);
  w.converge(*k, "monitoring", "k8s");
  w.log.clear();
  auto b = w.find("Prometheus", "monitoring", "k8s")->edit();
  b.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
  w.put(std::move(b).freeze());
  auto p = w.converge(*k, "monitoring", "k8s");
  std::vector<std::string> log;
  for (const auto& l : w.log)
    if (l.find("detector") == std::string::npos) log.push_back(l);
  const std::vector<std::string> want{"delete ClusterChartPreset monitoring-presets",
                                      "call backend POST https://backend.example/api/v1/trickster/unregister",
                                      "finalizer release"};
  BOOST_TEST(log == want, boost::test_tools::per_element());
  BOOST_TEST(p.error.empty());
  // A preset already gone (another Prometheus deleted it) does not hold the
  // finalizer (upstream's NotFound error would, for good).
  auto w2 = base();
  w2.converge(*k, "monitoring", "k8s");
  w2.remove("ClusterChartPreset", "", "monitoring-presets");
  auto b2 = w2.find("Prometheus", "monitoring", "k8s")->edit();
  b2.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
  w2.put(std::move(b2).freeze());
  w2.log.clear();
  w2.converge(*k, "monitoring", "k8s");
  BOOST_TEST(w2.log.back() == "finalizer release");
  // The backend failing the unregister holds it, with the error.
  auto w3 = base();
  w3.converge(*k, "monitoring", "k8s");
  auto b3 = w3.find("Prometheus", "monitoring", "k8s")->edit();
  b3.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
  w3.put(std::move(b3).freeze());
  auto ok = w3.services;
  w3.services = [ok](const rt::service_call& c) -> std::optional<rt::service_answer> {
    if (c.service == backend_service) return rt::service_answer{401, "Unauthorized\n", ""};
    return ok(c);
  };
  auto p3 = w3.converge(*k, "monitoring", "k8s");
  BOOST_TEST(p3.error == "backend unregister: HTTP 401: Unauthorized");
  BOOST_TEST(w3.find("Prometheus", "monitoring", "k8s")->has_finalizer(prometheus_finalizer));
}

BOOST_AUTO_TEST_CASE(rancher_and_openshift) {
  // Rancher with the auth Secret: the Rancher token's user is the subject,
  // its id a marker; a project Prometheus of the federated cluster gets its
  // project's ChartPreset and registers with its projectId.
  auto f = rancher_flavour();
  auto w = base(f);
  w.put(yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: kube-system, uid: ns-uid, labels: {field.cattle.io/projectId: p-system}}\n"));
  auto bp = w.find("Prometheus", "monitoring", "k8s")->edit();
  bp.set_string({"spec", "serviceMonitorNamespaceSelector", "matchLabels", "helm.cattle.io/projectId"}, "p-abc");
  w.put(std::move(bp).freeze());
  k8s::object_builder sec{"v1", "Secret", "monitoring-operator", "ra"};
  sec.set_string({"data", "baseURL"}, k8s::base64_encode("https://rancher.example/v3"));
  sec.set_string({"data", "token"}, k8s::base64_encode("token-a:secret"));
  w.put(std::move(sec).freeze());
  auto ok = w.services;
  std::string body;
  w.services = [ok, &body](const rt::service_call& c) -> std::optional<rt::service_answer> {
    if (c.service == rancher_service) return rt::service_answer{200, R"({"userId":"u-7","expiresAt":"2031-01-01T00:00:00Z"})", ""};
    if (c.request.url.ends_with("/register")) body = c.request.body;
    return ok(c);
  };
  auto cfg = settings();
  cfg.rancher_auth_secret = "ra";
  auto k = prometheus_declaration(cfg);
  auto p = w.converge(*k, "monitoring", "k8s");
  BOOST_TEST(p.error.empty(), p.error);
  const auto& rb = *w.find("RoleBinding", "monitoring", "appscode:trickster:proxy");
  BOOST_TEST(same_json(rb.get({"subjects"}), R"([{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"u-7"}])"));
  BOOST_TEST(rb.annotation(token_id_key).value_or("") == "token-a");
  BOOST_TEST(static_cast<bool>(w.find("ChartPreset", "cattle-project-p-abc", "monitoring-presets")));
  BOOST_TEST(!w.find("ServiceAccount", "monitoring", "trickster"));
  BOOST_TEST(body.find(R"("projectId":"p-abc","default":false)") != std::string::npos, body);
  BOOST_TEST(body.find(R"("bearerToken":"token-a:secret")") != std::string::npos);
  BOOST_TEST(!w.find("AppBinding", "monitoring", "default-prometheus"));  // not the default

  // OpenShift's user-workload Prometheus: no ClusterRole; the RoleBinding
  // beside thanos-querier on cluster-monitoring-view; the backend reaches it
  // through the route.
  world o = base(openshift_flavour());
  o.remove("Prometheus", "monitoring", "k8s");
  o.put(yaml("apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: user-workload, namespace: openshift-user-workload-monitoring}\n"));
  o.put(token_secret("openshift-user-workload-monitoring"));
  o.put(yaml("apiVersion: v1\nkind: Service\nmetadata: {name: thanos-querier, namespace: openshift-monitoring}\nspec: {ports: [{name: web, port: 9091}]}\n"));
  o.put(yaml("apiVersion: operator.openshift.io/v1\nkind: IngressController\nmetadata: {name: default, namespace: openshift-ingress-operator}\nstatus: {domain: apps.ocp.example}\n"));
  o.put(yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: openshift-service-ca.crt, namespace: kube-public}\ndata: {service-ca.crt: SCA}\n"));
  auto ook = o.services;
  o.services = [ook, &body](const rt::service_call& c) -> std::optional<rt::service_answer> {
    if (c.request.url.ends_with("/register")) body = c.request.body;
    return ook(c);
  };
  auto po = o.converge(*prometheus_declaration(settings()), "openshift-user-workload-monitoring", "user-workload");
  BOOST_TEST(po.error.empty(), po.error);
  BOOST_TEST(!o.find("ClusterRole", "", "appscode:trickster:proxy"));
  const auto& orb = *o.find("RoleBinding", "openshift-monitoring", "appscode:trickster:proxy");
  BOOST_TEST(orb.get_string({"roleRef", "name"}) == "cluster-monitoring-view");
  BOOST_TEST(body.find(R"("url":"https://thanos-querier-openshift-monitoring.apps.ocp.example")") != std::string::npos, body);
  BOOST_TEST(body.find(R"("service":{"scheme":"","name":"")") != std::string::npos);
  const auto& ab = *o.find("AppBinding", "openshift-user-workload-monitoring", "default-prometheus");
  BOOST_TEST(ab.get_string({"spec", "clientConfig", "serverName"}) == "thanos-querier.openshift-monitoring.svc");
  BOOST_TEST(*k8s::base64_decode(ab.get_string({"spec", "clientConfig", "caBundle"})) == "SCA");
}

BOOST_AUTO_TEST_CASE(its_watches_wake_every_prometheus) {
  auto cfg = settings();
  cfg.rancher_auth_secret = "ra";
  auto k = prometheus_declaration(cfg);
  auto rules = rt::wake_rules_of(*k);
  BOOST_TEST_REQUIRE(rules.size() == 2u);
  auto cm = yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ace-info, namespace: kube-public}\n");
  auto other = yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other, namespace: kube-public}\n");
  auto secret = yaml("apiVersion: v1\nkind: Secret\nmetadata: {name: ra, namespace: monitoring-operator}\n");
  auto any = yaml("apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: x, namespace: y}\n");
  BOOST_TEST(rules[0].relates(cm, any));
  BOOST_TEST(!rules[0].relates(other, any));
  BOOST_TEST(rules[1].relates(secret, any));
  bool scoped = false;
  for (const auto& w : rt::watches_of(*k)) scoped = scoped || (w.gvk.kind == "ConfigMap" && w.namespace_ == "kube-public");
  BOOST_TEST(scoped);
  int secret_watches = 0;
  for (const auto& w : rt::watches_of(*k)) {
    if (w.gvk.kind != "Secret") continue;
    ++secret_watches;
    BOOST_TEST(w.namespace_ == "monitoring-operator");
    BOOST_TEST(w.field_selector == "metadata.name=ra", "the Rancher auth Secret is watched by name, not its namespace's Secrets");
  }
  BOOST_TEST(secret_watches == 1);
  auto reads = k->reads;
  for (const auto& r : reads)
    if (r.id == "rancher-secret") BOOST_TEST(r.uncached, "a name-scoped informer answers no cache read");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing::mon
