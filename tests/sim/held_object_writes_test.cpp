// The emulator's double writers of the monitoring controllers' orders
// (sim/apiserver/held_object_writes.hpp), table-driven: which objects are
// orders, and which writes of a replica count, given the object as stored
// before and after the write.
#include "sim/apiserver/held_object_writes.hpp"

#include "k8s/json.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using namespace c5c3;
using namespace c5c3::sim;

namespace {

k8s::object obj(const std::string& text) {
  auto d = k8s::parse_json(text);
  BOOST_TEST_REQUIRE(d.has_value(), text);
  return k8s::object(std::move(*d));
}

// A ServiceMonitor of the AutoReconciler: `extra` goes into metadata, `claim`
// is its c5c3.io/shard label ("" none), `release` another label ("" none).
k8s::object servicemonitor(const std::string& claim, const std::string& release = "",
                           const std::string& extra = "") {
  std::string labels = R"("monitoring.appscode.com/prometheus":"auto")";
  if (!claim.empty()) labels += R"(,"c5c3.io/shard":")" + claim + "\"";
  if (!release.empty()) labels += R"(,"release":")" + release + "\"";
  return obj(R"({"apiVersion":"monitoring.coreos.com/v1","kind":"ServiceMonitor","metadata":{"name":"api",)"
             R"("namespace":"demo","labels":{)" + labels + "}" + extra + R"(},"spec":{"endpoints":[]}})");
}

k8s::object dashboard(const std::string& claim, const std::string& extra = "", const std::string& status = "") {
  std::string labels = claim.empty() ? "" : R"("labels":{"c5c3.io/shard":")" + claim + "\"},";
  return obj(R"({"apiVersion":"openviz.dev/v1alpha1","kind":"GrafanaDashboard","metadata":{)" + labels +
             R"("name":"d","namespace":"team-a")" + extra + R"(},"spec":{"model":{"title":"t"}})" +
             (status.empty() ? "" : R"(,"status":)" + status) + "}");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(held_object_writes)

BOOST_AUTO_TEST_CASE(the_monitoring_controllers_orders) {
  struct row {
    const char* what;
    std::string text;
    bool order;
  };
  const std::vector<row> rows = {
      {"Prometheus", R"({"apiVersion":"monitoring.coreos.com/v1","kind":"Prometheus","metadata":{"name":"p"}})", true},
      {"Alertmanager", R"({"apiVersion":"monitoring.coreos.com/v1","kind":"Alertmanager","metadata":{"name":"a"}})",
       true},
      {"auto ServiceMonitor",
       R"({"apiVersion":"monitoring.coreos.com/v1","kind":"ServiceMonitor","metadata":{"name":"s",)"
       R"("labels":{"monitoring.appscode.com/prometheus":"auto"}}})",
       true},
      {"federated ServiceMonitor",
       R"({"apiVersion":"monitoring.coreos.com/v1","kind":"ServiceMonitor","metadata":{"name":"s",)"
       R"("labels":{"monitoring.appscode.com/prometheus":"federated"}}})",
       true},
      {"a ServiceMonitor that asks for nothing",
       R"({"apiVersion":"monitoring.coreos.com/v1","kind":"ServiceMonitor","metadata":{"name":"s"}})", false},
      {"GrafanaDashboard", R"({"apiVersion":"openviz.dev/v1alpha1","kind":"GrafanaDashboard","metadata":{"name":"d"}})",
       true},
      {"GrafanaDatasource",
       R"({"apiVersion":"openviz.dev/v1alpha1","kind":"GrafanaDatasource","metadata":{"name":"d"}})", true},
      {"client-org Namespace",
       R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"acme",)"
       R"("labels":{"ace.appscode.com/client-org":"true"}}})",
       true},
      {"client org without monitoring",
       R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"acme",)"
       R"("labels":{"ace.appscode.com/client-org":"true","ace.appscode.com/client-org-monitoring":"false"}}})",
       false},
      {"another Namespace", R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"acme-monitoring"}})", false},
      {"an AppBinding", R"({"apiVersion":"appcatalog.appscode.com/v1alpha1","kind":"AppBinding","metadata":{"name":"g"}})",
       false},
      {"a c5c3.io order",
       R"({"apiVersion":"c5c3.io/v1alpha1","kind":"RabbitMQVhost","metadata":{"name":"v","labels":{"c5c3.io/shard":"a"}}})",
       false},
  };
  for (const auto& r : rows) BOOST_TEST(is_monitoring_order(obj(r.text)) == r.order, r.what);
}

BOOST_AUTO_TEST_CASE(which_writes_count) {
  const k8s::object none;
  struct row {
    const char* what;
    std::string verb, plural, subresource;
    bool status_subresource;
    k8s::object before, after;
    bool counted;
    std::string holder;  // when counted
  };
  const std::vector<row> rows = {
      // The AutoReconciler's label patch on its ServiceMonitor.
      {"the holder labels its own", "patch", "servicemonitors", "", false, servicemonitor("b"),
       servicemonitor("b", "kps"), false, ""},
      {"another replica labels it", "patch", "servicemonitors", "", false, servicemonitor("a"),
       servicemonitor("a", "kps"), true, "a"},
      {"a released one labelled", "patch", "servicemonitors", "", false, servicemonitor(""),
       servicemonitor("", "kps"), true, ""},
      {"a server-side apply of the labels", "apply", "servicemonitors", "", false, servicemonitor("a"),
       servicemonitor("a", "kps"), true, "a"},
      // Claims and releases change the claim label alone.
      {"a claim", "patch", "servicemonitors", "", false, servicemonitor(""), servicemonitor("b"), false, ""},
      {"a takeover from a dead holder", "patch", "servicemonitors", "", false, servicemonitor("a"),
       servicemonitor("b"), false, ""},
      {"a release", "patch", "servicemonitors", "", false, servicemonitor("a"), servicemonitor(""), false, ""},
      {"a claim that also labels", "patch", "servicemonitors", "", false, servicemonitor("a"),
       servicemonitor("b", "kps"), true, "a"},
      // Finalizers, status.
      {"a finalizer added by another", "patch", "grafanadashboards", "", true, dashboard("a"),
       dashboard("a", R"(,"finalizers":["openviz.dev/grafana"])"), true, "a"},
      {"a finalizer added by the holder", "patch", "grafanadashboards", "", true, dashboard("b"),
       dashboard("b", R"(,"finalizers":["openviz.dev/grafana"])"), false, ""},
      {"a status write by another", "patch", "grafanadashboards", "status", true, dashboard("a"),
       dashboard("a", "", R"({"phase":"Current"})"), true, "a"},
      {"a no-op status write by another", "update", "grafanadashboards", "status", true, dashboard("a"),
       dashboard("a"), true, "a"},
      {"a status write by the holder", "patch", "grafanadashboards", "status", true, dashboard("b"),
       dashboard("b", "", R"({"phase":"Current"})"), false, ""},
      {"status on the main resource of a kind without the subresource", "update", "servicemonitors", "", false,
       servicemonitor("a"), obj(R"({"apiVersion":"monitoring.coreos.com/v1","kind":"ServiceMonitor","metadata":{)"
                                R"("name":"api","namespace":"demo","labels":{"monitoring.appscode.com/prometheus":)"
                                R"("auto","c5c3.io/shard":"a"}},"spec":{"endpoints":[]},"status":{"x":1}})"),
       true, "a"},
      // Another ring's writes on it: the client org's copies (spec, annotations), creates, deletes.
      {"spec and annotations by another", "patch", "grafanadashboards", "", true, dashboard("a"),
       dashboard("a", R"(,"annotations":{"meta.appcode.com/source":"apps/d"})"), false, ""},
      {"a create", "create", "grafanadashboards", "", true, none, dashboard("a"), false, ""},
      {"a delete", "delete", "grafanadashboards", "", true, dashboard("a"),
       dashboard("a", R"(,"deletionTimestamp":"2026-12-03T10:00:00Z")"), false, ""},
      {"another subresource", "patch", "grafanadashboards", "scale", true, dashboard("a"),
       dashboard("a", R"(,"finalizers":["x"])"), false, ""},
  };
  for (const auto& r : rows) {
    auto dw = held_object_double_write(
        "b", {r.verb, r.plural, r.subresource, r.status_subresource, r.before, r.after});
    BOOST_TEST(dw.has_value() == r.counted, r.what);
    if (!dw || !r.counted) continue;
    BOOST_TEST(dw->replica == "b", r.what);
    BOOST_TEST(dw->holder == r.holder, r.what);
    BOOST_TEST(dw->verb == r.verb, r.what);
    BOOST_TEST(dw->resource == (r.subresource.empty() ? r.plural : r.plural + "/" + r.subresource), r.what);
  }
}

BOOST_AUTO_TEST_CASE(the_report_names_the_order) {
  auto dw = held_object_double_write(
      "b", {"patch", "servicemonitors", "", false, servicemonitor("a"), servicemonitor("a", "kps")});
  BOOST_REQUIRE(dw);
  BOOST_TEST(dw->order == "servicemonitors.monitoring.coreos.com demo/api");
  BOOST_TEST(dw->namespace_ == "demo");
  BOOST_TEST(dw->name == "api");
  auto ns = [](const std::string& fin) {
    return obj(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"acme","labels":{)"
               R"("ace.appscode.com/client-org":"true","c5c3.io/shard":"a"})" + fin + "}}");
  };
  auto org = held_object_double_write("b", {"patch", "namespaces", "", true, ns(""),
                                            ns(R"(,"finalizers":["monitoring.appscode.com/prometheus"])")});
  BOOST_REQUIRE(org);
  BOOST_TEST(org->order == "namespaces acme");
}

BOOST_AUTO_TEST_SUITE_END()
