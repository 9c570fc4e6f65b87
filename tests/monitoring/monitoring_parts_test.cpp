// The monitoring controllers' shared pure parts, table by table: the label
// helpers, the detectors' decision (apis-monitoring.md section 2), cluster
// metadata and State() (section 3), the backend client's requests and
// answers (section 5), FindToken (10.2) and the aggregated error.
#include "actors/monitoring/backend.hpp"
#include "actors/monitoring/cluster_meta.hpp"
#include "actors/monitoring/federation_copies.hpp"
#include "actors/monitoring/labels.hpp"
#include "actors/monitoring/rancher_token.hpp"
#include "k8s/base64.hpp"
#include "tests/monitoring/snapshot.hpp"

namespace c5c3::testing::mon {

using namespace ::c5c3::monitoring;

BOOST_AUTO_TEST_SUITE(monitoring_parts)

BOOST_AUTO_TEST_CASE(labels_for_label_selector_as_kmodules_computes_them) {
  struct row {
    const char* name;
    const char* selector;  // JSON; "" none
    label_map want;
    bool exact;
  };
  const row rows[] = {
      {"nil gives {}", "", {}, true},
      {"matchLabels copied", R"({"matchLabels":{"release":"kps"}})", {{"release", "kps"}}, true},
      {"In: the first value", R"({"matchExpressions":[{"key":"a","operator":"In","values":["x","y"]}]})", {{"a", "x"}}, false},
      {"NotIn [true]", R"({"matchExpressions":[{"key":"a","operator":"NotIn","values":["true"]}]})", {{"a", "false"}}, false},
      {"NotIn [false]", R"({"matchExpressions":[{"key":"a","operator":"NotIn","values":["false"]}]})", {{"a", "true"}}, false},
      {"NotIn other", R"({"matchExpressions":[{"key":"a","operator":"NotIn","values":["v","w"]}]})", {{"a", "not-v"}}, false},
      {"Exists", R"({"matchExpressions":[{"key":"a","operator":"Exists"}]})", {{"a", ""}}, false},
      {"DoesNotExist removes", R"({"matchLabels":{"a":"1"},"matchExpressions":[{"key":"a","operator":"DoesNotExist"}]})", {}, false},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      auto d = k8s::parse_json(*r.selector ? r.selector : "null");
      bool exact = false;
      auto got = labels_for_selector(*r.selector ? &*d : nullptr, &exact);
      BOOST_TEST((got == r.want));
      BOOST_TEST(exact == r.exact);
    }
  }
  BOOST_TEST((overwrite_keys({{"a", "1"}, {"b", "2"}}, {{"b", "3"}}) == label_map{{"a", "1"}, {"b", "3"}}));
}

BOOST_AUTO_TEST_CASE(a_nil_selector_selects_nothing_an_empty_one_everything) {
  auto empty = k8s::parse_json("{}");
  auto one = k8s::parse_json(R"({"matchLabels":{"team":"a"}})");
  auto bad = k8s::parse_json(R"({"matchExpressions":[{"key":"a","operator":"Sometimes"}]})");
  BOOST_TEST(!selector_selects(nullptr, {{"team", "a"}}));
  BOOST_TEST(selector_selects(&*empty, {}));
  BOOST_TEST(selector_selects(&*one, {{"team", "a"}, {"x", "y"}}));
  BOOST_TEST(!selector_selects(&*one, {{"team", "b"}}));
  std::string error;
  BOOST_TEST(!selector_selects(&*bad, {}, &error));
  BOOST_TEST(!error.empty());
}

k8s::object prom(const char* ns, const char* name) {
  return yaml(std::string("apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: ") + name +
              ", namespace: " + ns + "}\n");
}

BOOST_AUTO_TEST_CASE(the_detector_decides_the_flavour_once_from_the_list_and_the_served_kinds) {
  struct row {
    const char* name;
    std::vector<k8s::object> listed;
    bool rancher, openshift;
    detection_outcome outcome;
    flavour_kind kind;
    bool rancher_managed, openshift_managed, singleton;
  };
  auto rm = prom("cattle-monitoring-system", "rancher-monitoring-prometheus");
  auto uwm = prom("openshift-user-workload-monitoring", "user-workload");
  auto a = prom("monitoring", "a"), b = prom("monitoring", "b");
  const row rows[] = {
      {"nothing listed: unknown", {}, true, true, detection_outcome::unknown, flavour_kind::standalone, false, false, false},
      {"rancher-monitoring on Rancher", {rm, a}, true, false, detection_outcome::ready, flavour_kind::rancher, true, false, false},
      {"Rancher without it, one object", {a}, true, false, detection_outcome::ready, flavour_kind::standalone, true, false, true},
      {"Rancher without it, two objects", {a, b}, true, false, detection_outcome::ready, flavour_kind::standalone, true, false, false},
      {"OpenShift with user-workload", {uwm, a}, false, true, detection_outcome::ready, flavour_kind::openshift, false, true, false},
      {"OpenShift without it: not ready, no error", {a}, false, true, detection_outcome::not_ready, flavour_kind::standalone, false, false, false},
      {"standalone singleton", {a}, false, false, detection_outcome::ready, flavour_kind::standalone, false, false, true},
      {"standalone with two", {a, b}, false, false, detection_outcome::ready, flavour_kind::standalone, false, false, false},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      auto d = detect(detector_kind::prometheus, r.listed, r.rancher, r.openshift);
      BOOST_TEST((d.outcome == r.outcome));
      if (d.outcome != detection_outcome::ready) continue;
      BOOST_TEST((d.result.kind == r.kind));
      BOOST_TEST(d.result.rancher == r.rancher_managed);
      BOOST_TEST(d.result.openshift == r.openshift_managed);
      BOOST_TEST(d.result.singleton == r.singleton);
      BOOST_TEST((decode_flavour(encode_flavour(d.result)) == d.result));
    }
  }
  // IsDefault, ServiceKey and Service per flavour.
  BOOST_TEST(rancher_flavour().is_default("cattle-monitoring-system", "rancher-monitoring-prometheus"));
  BOOST_TEST(!rancher_flavour().is_default("cattle-project-p-abc-monitoring", "p"));
  BOOST_TEST(openshift_flavour().is_default("openshift-user-workload-monitoring", "user-workload"));
  BOOST_TEST(standalone(true).is_default("any", "thing"));
  BOOST_TEST(!standalone(false).is_default("any", "thing"));
  BOOST_TEST(service_key(openshift_flavour(), "x", "y").to_string() == "openshift-monitoring/thanos-querier");
  BOOST_TEST(service_key(standalone(), "monitoring", "k8s").to_string() == "monitoring/k8s");
  auto svc = yaml("apiVersion: v1\nkind: Service\nmetadata: {name: k8s, namespace: monitoring}\n"
                  "spec: {ports: [{name: reloader-web, port: 8080}, {name: http-web, port: 9090}, {name: web, port: 9091}]}\n");
  BOOST_TEST((service_of(standalone(), "monitoring", "k8s", svc) == service_spec{"http", "k8s", "monitoring", "9090", "", ""}));
  BOOST_TEST((service_of(openshift_flavour(), "u", "w", svc) ==
              service_spec{"https", "thanos-querier", "openshift-monitoring", "9091", "", ""}));
  BOOST_TEST(service_of(standalone(), "monitoring", "k8s", k8s::object{}).port.empty());
  // The Alertmanager detector: the same shape, its own names.
  auto am = detect(detector_kind::alertmanager,
                   {yaml("apiVersion: monitoring.coreos.com/v1\nkind: Alertmanager\nmetadata: {name: rancher-monitoring-alertmanager, namespace: cattle-monitoring-system}\n")},
                   true, false);
  BOOST_TEST((am.result.kind == flavour_kind::rancher));
}

BOOST_AUTO_TEST_CASE(cluster_metadata_from_ace_info_when_its_mac_holds_else_from_kube_system) {
  auto ns = yaml("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: kube-system\n  uid: ns-uid\n"
                 "  annotations: {cluster.appscode.com/display-name: Shown}\n");
  auto info = [](const std::string& mac) {
    return yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ace-info, namespace: kube-public}\n"
                "data: {uid: uid-1, name: c1, ownerID: '42', apiEndpoint: 'https://1.2.3.4:6443', ca.crt: \"a<b\\n\"}\n"
                "binaryData: {mac: '" + mac + "'}\n");
  };
  const std::string good = "v1AqQO2v8VoJh0/52jck40Iw62t/9gsLvgLBsYl5IVs=";  // HMAC-SHA256(ns-uid, Go JSON), python
  auto md = cluster_metadata_of(ns, info(good), "flag-name");
  BOOST_TEST_REQUIRE(md.has_value());
  BOOST_TEST(md->uid == "uid-1");
  BOOST_TEST(md->name == "c1");
  BOOST_TEST(md->api_endpoint == "https://1.2.3.4:6443");
  BOOST_TEST(go_json(*md).find(R"("caBundle":"a\u003cb\n")") != std::string::npos);
  BOOST_TEST(md->state() == "6vlLeWRNOuX_qOnGOldhq82XtDlTRTBNmudcsMwzPCk=");  // base64url(HMAC(uid-1, "https://1.2.3.4:6443,42"))
  // The MAC covers what ace-info holds: the mode comes from kube-system afterwards.
  BOOST_TEST(md->mode == "prod");
  auto signed_part = *md;
  signed_part.mode.clear();
  BOOST_TEST(k8s::base64_encode(ace_info_mac(signed_part, "ns-uid")) == good);
  // A bad MAC, or no ConfigMap: the kube-system Namespace, named by --cluster-name.
  for (const auto& cm : {info(k8s::base64_encode("forged")), k8s::object{}}) {
    auto fb = cluster_metadata_of(ns, cm, "flag-name");
    BOOST_TEST_REQUIRE(fb.has_value());
    BOOST_TEST(fb->uid == "ns-uid");
    BOOST_TEST(fb->name == "flag-name");
    BOOST_TEST(fb->display_name == "Shown");
    BOOST_TEST(fb->state() == "Q1Wpr6HYzbdxX4wvqVjBIbC2EOK53R7kZzpG5Bn7Smc=");  // base64url(HMAC(ns-uid, ","))
  }
  std::string error;
  BOOST_TEST(!cluster_metadata_of(k8s::object{}, k8s::object{}, "", &error).has_value());
  BOOST_TEST(error == "namespaces \"kube-system\" not found");
  cluster_metadata m;
  m.owner_id = "42";
  m.manager_id = "0";
  BOOST_TEST(m.manager() == "42");
  m.manager_id = "7";
  BOOST_TEST(m.manager() == "7");
  BOOST_TEST(go_json_string("<a&b>\t\x01\xff") == R"("\u003ca\u0026b\u003e\t\u0001\ufffd")");
}

BOOST_AUTO_TEST_CASE(the_backend_client_normalizes_its_url_and_builds_its_requests) {
  struct row {
    const char* in;
    const char* want;
  };
  const row urls[] = {
      {"HTTPS://Backend.Example:443/", "https://backend.example"},
      {"http://b.example:80//a//b/./c/../d/", "http://b.example/a/b/d"},
      {"https://10.0.0.1:8443/base", "https://10.0.0.1:8443/base"},
  };
  for (const auto& u : urls) BOOST_TEST(normalize_base_url(u.in) == u.want);
  BOOST_TEST(!make_backend("", "t", "").enabled());
  BOOST_TEST(!make_backend("https://b", "", "").enabled());
  BOOST_TEST(make_backend("https://10.0.0.1:8443", "t", "").insecure);
  BOOST_TEST(!make_backend("https://10.0.0.1:8443", "t", "PEM").insecure);
  BOOST_TEST(!make_backend("https://backend.example", "t", "").insecure);
  auto b = make_backend("https://backend.example/", "platform-token", "");
  prometheus_context c{"hub-1", "cl-1", "", true, false, ""};
  prometheus_config p;
  p.service = {"http", "k8s", "monitoring", "9090", "", ""};
  p.bearer_token = "sa-token";
  p.ca = "CA";
  auto r = register_request(b, c, p);
  BOOST_TEST(r.method == "POST");
  BOOST_TEST(r.url == "https://backend.example/api/v1/trickster/register");
  BOOST_TEST(r.authorization == "Bearer platform-token");
  BOOST_TEST(r.body ==
             R"({"hubUID":"hub-1","clusterUID":"cl-1","default":true,"prometheus":{"url":"","service":{"scheme":"http",)"
             R"("name":"k8s","namespace":"monitoring","port":"9090","path":"","query":""},"basicAuth":{"username":"",)"
             R"("password":""},"bearerToken":"sa-token","tls":{"ca":"CA","cert":"","key":"","serverName":"",)"
             R"("insecureSkipTLSVerify":false}}})");
  auto u = unregister_request(b, {"", "cl-1", "p-abc", false, false, ""});
  BOOST_TEST(u.url == "https://backend.example/api/v1/trickster/unregister");
  BOOST_TEST(u.body == R"({"clusterUID":"cl-1","projectId":"p-abc","default":false})");
  auto g = parse_register_answer(R"({"grafana":{"url":"https://g","bearerToken":"gt"},"folderID":3,"datasource":"1.c"})");
  BOOST_TEST_REQUIRE(g.has_value());
  BOOST_TEST(g->url == "https://g");
  BOOST_TEST(g->bearer_token == "gt");
  BOOST_TEST(*g->folder_id == 3);
  BOOST_TEST(g->datasource == "1.c");
  BOOST_TEST(!backend_error({200, "{}", ""}, "register"));
  BOOST_TEST(*backend_error({503, "Service Unavailable\n", ""}, "register") == "backend register: HTTP 503: Service Unavailable");
  BOOST_TEST(*backend_error({401, "Unauthorized\n", ""}, "unregister") == "backend unregister: HTTP 401: Unauthorized");
  BOOST_TEST(*backend_error({0, "", "timeout: https://backend.example/api/v1/trickster/register"}, "register") ==
             "backend register: timeout: https://backend.example/api/v1/trickster/register");
}

BOOST_AUTO_TEST_CASE(find_token_looks_both_tokens_up_and_keeps_the_later_one) {
  auto secret = [](std::map<std::string, std::string> data) {
    k8s::object_builder b{"v1", "Secret", "monitoring-operator", "ra"};
    for (const auto& [k, v] : data) b.set_string({"data", k}, k8s::base64_encode(v));
    return std::move(b).freeze();
  };
  auto order = prom("monitoring", "k8s");
  // Missing keys name the Secret.
  auto none = find_token(secret({{"token", "id:s"}}), "state", snapshot_builder(order).get());
  BOOST_TEST(none.error == "rancher auth secret monitoring-operator/ra is missing key baseURL");
  auto s = secret({{"baseURL", "https://r.example/v3/"}, {"token", "token-a:sa"}, {"token.next", "token-b:sb"}, {"token.state", "state"}});
  auto first = find_token(s, "state", snapshot_builder(order).get());
  BOOST_TEST_REQUIRE(first.calls.size() == 2u);
  BOOST_TEST(first.calls[0].request.url == "https://r.example/v3/tokens/token-a");
  BOOST_TEST(first.calls[0].request.authorization == "Bearer token-a:sa");
  BOOST_TEST(first.calls[0].request.insecure_skip_verify);
  BOOST_TEST(first.calls[1].request.url == "https://r.example/v3/tokens/token-b");
  auto both = find_token(s, "state",
                         snapshot_builder(order)
                             .answer("rancher-token", {200, R"({"userId":"u-1","expiresAt":"2030-01-01T00:00:00Z"})", ""})
                             .answer("rancher-token-next", {200, R"({"userId":"u-1","expiresAt":"2031-01-01T00:00:00Z"})", ""})
                             .get());
  BOOST_TEST_REQUIRE(both.found.has_value());
  BOOST_TEST(both.found->token_id == "token-b");
  BOOST_TEST(both.found->user_id == "u-1");
  // Another state: token.next is not looked at; a refused token is no token.
  auto other = find_token(s, "another", snapshot_builder(order).answer("rancher-token", {401, "{}", ""}).get());
  BOOST_TEST(other.error == "no active rancher token found");
}

BOOST_AUTO_TEST_CASE(copy_errors_aggregate_as_kubernetes_does) {
  BOOST_TEST(fed::aggregate({}).empty());
  BOOST_TEST(fed::aggregate({"a"}) == "a");
  BOOST_TEST(fed::aggregate({"a", "b", "a"}) == "[a, b]");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing::mon
