// Generated perturbation plans for a monitoring controller (issue 18): the
// GrafanaDashboard reconciler (spawn_grafana, as the operator runs it) on the
// shared runner (plan_runner.hpp) against the emulator and the in-process
// Grafana stand-in over TLS. The scenario: two dashboards created and
// converged; one edited (a new title: generation 2, observed); the other
// deleted. Oracle: the end state equals the reference's (the kept dashboard
// Ready for its generation with its finalizer and held by Grafana under the
// new title, the deleted one gone from the cluster and from Grafana, no
// other dashboard in Grafana) and so do the operator's successful creates and
// deletes per resource.
//
// The test writes through a cluster actor of its own with the emulator's
// admin token, so the fault rules and the write log's operator user meet the
// operator's requests only. C5C3_FAULT_PLANS picks the plans (plan_runner.hpp);
// the default is what CI runs.
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/grafana_controllers.hpp"
#include "k8s/base64.hpp"
#include "k8s/yaml.hpp"
#include "protocol/api_error.hpp"
#include "sim/monitoring/grafana.hpp"
#include "sim/monitoring/standin_server.hpp"
#include "tests/faults/plan_runner.hpp"

#include <algorithm>

namespace c5c3::testing {
namespace {

namespace mon = ::c5c3::monitoring;

const std::string dashboard_resource = "grafanadashboards.openviz.dev";
const std::vector<std::string> plan_dashboards{"overview", "latency"};
const std::string grafana_key = "grafana-key-s3cret";

std::string dashboard_yaml(const std::string& name, const std::string& title) {
  return "apiVersion: openviz.dev/v1alpha1\nkind: GrafanaDashboard\nmetadata: {name: " + name +
         ", namespace: team-a}\nspec:\n  model: {title: \"" + title + "\", panels: [{type: graph, title: cpu}]}\n";
}

sim::monitoring::standin_options tls() {
  sim::monitoring::standin_options o;
  o.tls = true;
  return o;
}

struct grafanadashboard_scenario {
  std::string dir = make_temp_dir();
  sim::apiserver server{emulator_options(dir)};
  std::shared_ptr<k8s::request_counters> operator_requests = std::make_shared<k8s::request_counters>();
  std::shared_ptr<sim::monitoring::grafana_api> grafana_core = std::make_shared<sim::monitoring::grafana_api>(
      sim::monitoring::grafana_options{"admin", "admin", {{grafana_key, 1, "Admin"}}});
  sim::monitoring::standin_server grafana{"grafana", grafana_core, tls()};
  runtime::metrics::registry reg;
  caf::actor_system sys{make_config()};
  caf::actor writer;  // the test's own writes (admin token)
  caf::actor management, directory, controllers;

  explicit grafanadashboard_scenario(bool start) {
    server.start();
    grafana.start();
    server.write_kubeconfig(dir + "/kubeconfig");
    writer = cluster::spawn_cluster(sys, {"", client()});
    const auto url = "https://localhost:" + std::to_string(grafana.port());
    create("apiVersion: v1\nkind: Namespace\nmetadata: {name: monitoring}\n---\n"
           "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n---\n"
           "apiVersion: v1\nkind: Secret\nmetadata: {name: default-grafana-auth, namespace: monitoring}\n"
           "stringData: {token: " + grafana_key + "}\n---\n"
           "apiVersion: appcatalog.appscode.com/v1alpha1\nkind: AppBinding\n"
           "metadata: {name: default-grafana, namespace: monitoring, annotations: "
           "{monitoring.appscode.com/is-default-grafana: \"true\"}}\n"
           "spec:\n  type: Grafana\n  clientConfig: {url: \"" + url + "\", caBundle: " +
           k8s::base64_encode(grafana.ca_pem()) + "}\n  secret: {name: default-grafana-auth}\n"
           "  parameters: {apiVersion: openviz.dev/v1alpha1, kind: GrafanaConfiguration, datasource: ds-1}\n");
    if (start) start_operator();
  }

  ~grafanadashboard_scenario() {
    stop_operator();
    caf::scoped_actor self{sys};
    caf::anon_send_exit(writer, caf::exit_reason::user_shutdown);
    self->wait_for(writer);
    grafana.stop();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  // The emulator's admin connection, or the operator's (its own token, counted).
  k8s::client_config client(bool as_operator = false) {
    auto conn = config::load_connection({dir + "/kubeconfig", "", ""});
    BOOST_TEST_REQUIRE(conn.ok());
    auto c = conn->client;
    fast(c);
    if (as_operator) {
      c.observer = operator_requests;
      c.credentials = std::make_shared<k8s::static_token>(operator_token);
    }
    return c;
  }

  std::string add(sim::fault_rule r) {
    r.client = operator_token;
    return server.add_fault(std::move(r));
  }

  void start_operator() {
    management = cluster::spawn_cluster(sys, {"", client(true)});
    directory = cluster::spawn_cluster_directory(sys, management);
    mon::controllers_options co;
    co.clusters = directory;
    co.registry = &reg;
    co.actor_options.backoff_max = 300ms;
    co.service_timeout = 1500ms;
    co.flags.requeue_after_duration = 300ms;
    controllers = mon::spawn_grafana(sys, std::move(co));
  }

  // A crash as far as the cluster can tell: nothing written on the way out;
  // start_operator() starts fresh actors with empty caches.
  void stop_operator() {
    if (!controllers) return;
    caf::scoped_actor self{sys};
    self->request(controllers, 30s, protocol::stop_atom::value).receive([](protocol::ok_atom) {}, [](caf::error&) {});
    for (const auto& a : {controllers, directory, management}) {
      caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
      self->wait_for(a);
    }
    controllers = directory = management = caf::actor{};
  }

  template <class Request>
  void write(Request req, const std::string& what) {
    caf::scoped_actor self{sys};
    std::string why;
    self->request(writer, 30s, std::move(req))
        .receive([](k8s::object&) {}, [&](caf::error& e) { why = protocol::describe(e); });
    BOOST_TEST_REQUIRE(why.empty(), what << ": " << why);
  }
  void create(const std::string& yaml) {
    std::string why;
    auto docs = k8s::yaml_documents_to_json(yaml, &why);
    BOOST_TEST_REQUIRE(docs.has_value(), why);
    for (auto& d : *docs) {
      k8s::object o(std::move(d));
      write(protocol::create_request{o, {}}, std::string(o.kind()) + " " + o.key().to_string());
    }
  }

  k8s::object dashboard(const std::string& name) const { return server.get_object(dashboard_resource, "team-a", name); }

  static bool ready(const k8s::object& d) {
    auto c = d ? d.find_condition(mon::condition_ready) : std::nullopt;
    return c && c->is_true() && d.get_string({"status", "phase"}) == mon::phase_current &&
           k8s::get_int(d.json(), {"status", "observedGeneration"}).value_or(0) == d.generation();
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

  std::string all_ready() const {
    std::string out;
    for (const auto& name : plan_dashboards)
      if (!ready(dashboard(name))) out += name + "(phase " + std::string(dashboard(name).get_string({"status", "phase"})) + ") ";
    return out;
  }

  std::vector<faults::scenario_step> steps() {
    return {{"create",
             [this] {
               create(dashboard_yaml("overview", "Overview"));
               create(dashboard_yaml("latency", "Latency"));
             },
             [this] { return all_ready(); }},
            {"change",
             [this] {
               write(protocol::patch_request{{mon::grafanadashboard_gvk, "team-a", "overview"},
                                             protocol::patch_type::merge,
                                             R"({"spec":{"model":{"title":"Overview v2"}}})",
                                             "",
                                             {}},
                     "the edit of overview");
             },
             [this] {
               auto o = dashboard("overview");
               return o.generation() == 2 && ready(o) && held("Overview v2") ? ""
                                                                              : "overview(generation 2 not held) " + all_ready();
             }},
            {"delete",
             [this] {
               write(protocol::delete_request{{mon::grafanadashboard_gvk, "team-a", "latency"}, "", "",
                                              protocol::propagation::background},
                     "the delete of latency");
             },
             [this] { return dashboard("latency") || held("Latency") ? std::string("latency still there ") : ""; }}};
  }

  // The dashboards, and what Grafana holds as a pseudo-order of its own.
  std::vector<std::string> order_names() const {
    auto out = plan_dashboards;
    out.push_back("grafana");
    return out;
  }

  std::string order_state(const std::string& name) {
    if (name == "grafana") {
      std::string out = "held:";
      for (const auto& t : held_titles()) out += " " + t;
      return out;
    }
    auto o = dashboard(name);
    return fmt::format("exists={} ready={} generation={} finalizer={}", static_cast<bool>(o), ready(o),
                       o ? o.generation() : 0, o && o.has_finalizer(mon::grafanadashboard_finalizer));
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
