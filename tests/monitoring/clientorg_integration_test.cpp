// The ClientOrgReconciler against the in-process emulator and the backend
// stand-in (monitoring_fixture.hpp): a client-org Namespace gets its
// monitoring namespace, RoleBinding, AppBinding, Secret and dashboard copies
// once the PrometheusReconciler has registered; a source dashboard's edit
// reaches the copy; deleting the Namespace unregisters the client org's
// context and removes the copies, then the monitoring namespace, then the
// finalizer (the emulator's write log is the oracle of the order).
#include "tests/monitoring/monitoring_fixture.hpp"
#include "tests/require_eventually.hpp"

namespace c5c3::testing::mon {

using namespace ::c5c3::monitoring;

namespace {


const std::string dashboards = "grafanadashboards.openviz.dev";

// The client org's registration at the backend stand-in (its key ends in the org id).
int client_registers(mon_fixture& f) {
  int n = 0;
  for (const auto& [k, r] : f.registrations())
    if (k.ends_with("|42")) n += r;
  return n;
}

// The seq of the last successful write matching, 0 when none.
std::uint64_t last_write(const mon_fixture& f, const std::string& verb, const std::string& resource,
                         const std::string& ns, const std::string& name) {
  std::uint64_t seq = 0;
  for (const auto& w : f.server.write_log())
    if (w.verb == verb && w.resource == resource && w.namespace_ == ns && w.name == name && w.code < 300) seq = w.seq;
  return seq;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(monitoring_clientorg)

BOOST_AUTO_TEST_CASE(a_client_org_namespace_gets_its_monitoring_namespace_and_copies_and_loses_them) {
  mon_fixture f;
  f.create(prometheus_yaml);
  f.create(read_text(source_dir() + "/sim/monitoring/fixtures/clientorg/sources.yaml"));
  f.create(read_text(source_dir() + "/sim/monitoring/fixtures/clientorg/org.yaml"));
  const std::string mon = "acme-monitoring";
  BOOST_TEST_REQUIRE(eventually([&] {
    auto ns = f.get("namespaces", "", mon);
    return ns && ns.annotation(registered_key) && f.get(dashboards, mon, "overview");
  }));
  BOOST_TEST(f.get("namespaces", "", "acme").has_finalizer(prometheus_finalizer));
  auto rb = f.get("rolebindings.rbac.authorization.k8s.io", mon, "appscode:client-org:monitoring");
  BOOST_TEST_REQUIRE(static_cast<bool>(rb));
  BOOST_TEST(rb.get_string({"roleRef", "name"}) == "appscode:client-org:monitoring");
  BOOST_TEST(k8s::get_string(rb.get({"subjects"})->GetArray()[0], {"name"}) == "ace.org.42");
  auto ab = f.get("appbindings.appcatalog.appscode.com", mon, "grafana");
  BOOST_TEST_REQUIRE(static_cast<bool>(ab));
  BOOST_TEST(ab.get_string({"spec", "clientConfig", "url"}) == "https://grafana.example");
  BOOST_TEST(ab.get_string({"spec", "secret", "name"}) == "grafana-auth");
  auto secret = f.get("secrets", mon, "grafana-auth");
  BOOST_TEST_REQUIRE(static_cast<bool>(secret));
  BOOST_TEST(secret.controller_reference()->name == "grafana");
  BOOST_TEST(client_registers(f) == 1);
  auto copy = f.get(dashboards, mon, "overview");
  BOOST_TEST(copy.get_string({"spec", "model", "title"}) == "Overview");
  BOOST_TEST(copy.get_string({"spec", "grafanaRef", "namespace"}) == mon);
  BOOST_TEST(copy.get_string({"spec", "grafanaRef", "name"}) == "grafana");
  BOOST_TEST(copy.annotation(dashboard_source_key).value_or("") == "apps/overview");
  const auto& var = copy.get({"spec", "model", "templating", "list"})->GetArray()[0];
  BOOST_TEST(k8s::get_string(var, {"type"}) == "constant");
  BOOST_TEST(k8s::get_string(var, {"query"}) == "acme");
  BOOST_TEST(!static_cast<bool>(f.get(dashboards, mon, "local")));  // a -monitoring namespace's dashboard is no source

  // The trickster ServiceAccount with the registration label wakes every client org.
  BOOST_TEST_REQUIRE(eventually([&] {
    auto p = f.probe(namespace_controller, "", "acme");
    return p.passes_started > 0 && p.passes_started == p.passes_finished && !p.wake_pending;
  }));
  const auto before = f.probe(namespace_controller, "", "acme").passes_finished;
  f.patch(serviceaccount_gvk, "monitoring", "trickster", R"({"metadata":{"labels":{"monitoring.appscode.com/registered":"x"}}})");
  BOOST_TEST_REQUIRE(eventually([&] { return f.probe(namespace_controller, "", "acme").passes_finished > before; }));

  // The source changes: the dashboard watch wakes the client org and the copy follows.
  f.patch(grafanadashboard_gvk, "apps", "overview", R"({"spec":{"model":{"title":"KubeDB / Pods"}}})");
  BOOST_TEST_REQUIRE(eventually([&] {
    auto c = f.get(dashboards, mon, "overview");
    return c && c.get_string({"spec", "model", "title"}) == "Pods";
  }));
  BOOST_TEST(client_registers(f) == 1);  // no registration again

  // Deletion: unregistered, the copies, then the monitoring namespace, then the finalizer.
  f.remove(namespace_gvk, "", "acme");
  BOOST_TEST_REQUIRE(eventually([&] { return !f.get("namespaces", "", "acme"); }));
  BOOST_TEST_REQUIRE(eventually([&] { return !f.get("namespaces", "", mon); }));
  bool unregistered = false;
  for (const auto& k : f.unregistered()) unregistered |= k.ends_with("|42");
  BOOST_TEST(unregistered);
  // The write log holds a write once its answer is on its way: wait for the
  // finalizer's release to be logged (it must come after the namespace's
  // delete, or this times out).
  std::uint64_t copy_deleted = 0, mon_deleted = 0, released = 0;
  C5C3_CHECK_EVENTUALLY(eventually([&] {
    copy_deleted = last_write(f, "delete", "grafanadashboards", mon, "overview");
    mon_deleted = last_write(f, "delete", "namespaces", "", mon);
    released = last_write(f, "patch", "namespaces", "", "acme");
    return copy_deleted > 0 && mon_deleted > copy_deleted && released > mon_deleted;
  }, std::chrono::seconds(20)), "copies deleted at " << copy_deleted << ", the monitoring namespace at " << mon_deleted
                                                                << ", the finalizer released at " << released);
  BOOST_TEST(static_cast<bool>(f.get(dashboards, "apps", "overview")));  // the source stays
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing::mon
