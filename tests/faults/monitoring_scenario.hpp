// What the monitoring controllers' plan scenarios share (plan_runner.hpp):
// the emulator, one group of controllers (spawn_grafana or spawn_monitoring,
// as the operator runs them) started and stopped as a crash would, and the
// test's own writes through a cluster actor with the emulator's admin token,
// so the fault rules and the write log's operator user meet the operator's
// requests only; for the grafana group, the in-process Grafana stand-in over
// TLS with the default Grafana's AppBinding and token Secret. A kind's
// scenario derives from `monitoring_scenario`, `grafana_scenario` or
// `backend_scenario` (the monitoring group with the backend stand-in) and
// adds its steps, its orders' state and its reference.
#pragma once

#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/controllers.hpp"
#include "actors/monitoring/grafana_controllers.hpp"
#include "k8s/base64.hpp"
#include "k8s/yaml.hpp"
#include "protocol/api_error.hpp"
#include "protocol/order.hpp"
#include "sim/monitoring/grafana.hpp"
#include "sim/monitoring/standin_server.hpp"
#include "sim/monitoring/trickster.hpp"
#include "tests/faults/plan_runner.hpp"

#include <fmt/format.h>

#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <set>
#include <string>

namespace c5c3::testing::faults {

namespace mon = ::c5c3::monitoring;

inline const std::string grafana_scenario_key = "grafana-key-s3cret";

inline sim::monitoring::standin_options grafana_scenario_tls() {
  sim::monitoring::standin_options o;
  o.tls = true;
  return o;
}

// The emulator, the test's writer, and one group of the monitoring
// controllers (`spawn`: spawn_grafana or spawn_monitoring, as the operator
// runs them) started and stopped as a crash would.
struct monitoring_scenario {
  using spawn_group = std::function<caf::actor(caf::actor_system&, mon::controllers_options)>;

  std::string dir = make_temp_dir();
  sim::apiserver server{emulator_options(dir, monitoring_rbac)};
  std::shared_ptr<k8s::request_counters> operator_requests = std::make_shared<k8s::request_counters>();
  runtime::metrics::registry reg;
  caf::actor_system sys{make_config()};
  caf::actor writer;  // the test's own writes (admin token)
  caf::actor management, directory, controllers;
  spawn_group spawn;

  // The emulator and the namespaces `monitoring` and `team-a`; no operator yet.
  explicit monitoring_scenario(spawn_group s) : spawn(std::move(s)) {
    server.start();
    server.write_kubeconfig(dir + "/kubeconfig");
    writer = cluster::spawn_cluster(sys, {"", client()});
    create("apiVersion: v1\nkind: Namespace\nmetadata: {name: monitoring}\n---\n"
           "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n");
  }

  monitoring_scenario(const monitoring_scenario&) = delete;
  monitoring_scenario& operator=(const monitoring_scenario&) = delete;

  ~monitoring_scenario() {
    stop_operator();
    caf::scoped_actor self{sys};
    caf::anon_send_exit(writer, caf::exit_reason::user_shutdown);
    self->wait_for(writer);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  // The emulator's admin connection, or the operator's (its own token, counted).
  k8s::client_config client(bool as_operator = false) {
    auto conn = config::load_connection({dir + "/kubeconfig", "", ""});
    BOOST_TEST_REQUIRE(conn.ok());
    auto c = conn->client;
    fast_retries(c);
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
    // Converged orders park between the steps, as the operator's do after
    // --park-idle-after (actors/runtime/README.md): the plans run over parked
    // orders too.
    co.actor_options.park_after = 200ms;
    co.service_timeout = 1500ms;
    co.flags.requeue_after_duration = 300ms;
    controllers = spawn(sys, std::move(co));
    BOOST_TEST_REQUIRE(static_cast<bool>(controllers));
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
  // Every document of a file of the source tree ("sim/monitoring/fixtures/...").
  void create_file(const std::string& relative) {
    std::ifstream in(source_dir() + "/" + relative);
    BOOST_TEST_REQUIRE(static_cast<bool>(in), relative);
    create(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
  }
  // A merge patch and a deletion of an object (of team-a unless named), by the test.
  void patch(const k8s::gvk& gvk, const std::string& name, const std::string& merge_patch) {
    patch(gvk, "team-a", name, merge_patch);
  }
  void patch(const k8s::gvk& gvk, const std::string& ns, const std::string& name, const std::string& merge_patch) {
    write(protocol::patch_request{{gvk, ns, name}, protocol::patch_type::merge, merge_patch, "", {}},
          "the patch of " + name);
  }
  void remove(const k8s::gvk& gvk, const std::string& name) { remove(gvk, "team-a", name); }
  void remove(const k8s::gvk& gvk, const std::string& ns, const std::string& name) {
    write(protocol::delete_request{{gvk, ns, name}, "", "", protocol::propagation::background},
          "the delete of " + name);
  }

  // An order actor's state, for a step's pending message ("" without an operator).
  std::string probe(const std::string& controller, const std::string& ns, const std::string& name) {
    if (!controllers) return "";
    caf::scoped_actor self{sys};
    std::string out = "no actor";
    self->request(controllers, 30s, protocol::probe_atom::value, controller, protocol::order_key{"", ns, name})
        .receive(
            [&](protocol::order_probe& p) {
              out = fmt::format("phase {} passes {}/{} wake_pending={} failures={} writes_in_flight={} last_error={}",
                                p.phase, p.passes_finished, p.passes_started, p.wake_pending, p.failures,
                                p.writes_in_flight, p.last_error);
            },
            [](caf::error&) {});
    return out;
  }

  // An object of team-a as the emulator holds it (empty once gone).
  k8s::object object(const std::string& resource, const std::string& name) const {
    return server.get_object(resource, "team-a", name);
  }

  // Phase Current for its generation.
  static bool current(const k8s::object& o) {
    return o && o.get_string({"status", "phase"}) == mon::phase_current &&
           k8s::get_int(o.json(), {"status", "observedGeneration"}).value_or(0) == o.generation();
  }

  // "" once every one of `names` satisfies `done`; else their names and phases.
  template <class Done>
  std::string not_done(const std::string& resource, const std::vector<std::string>& names, Done done) const {
    std::string out;
    for (const auto& name : names)
      if (auto o = object(resource, name); !done(o))
        out += fmt::format("{}(phase {}) ", name, o ? std::string(o.get_string({"status", "phase"})) : "gone");
    return out;
  }

  // What the oracle compares of an order: existence, done for its generation, finalizer.
  static std::string order_summary(const k8s::object& o, bool done, const std::string& finalizer) {
    return fmt::format("exists={} ready={} generation={} finalizer={}", static_cast<bool>(o), done,
                       o ? o.generation() : 0, o && o.has_finalizer(finalizer));
  }
};

// The grafana group against the Grafana stand-in over TLS, with the default
// Grafana's AppBinding and token Secret.
struct grafana_scenario : monitoring_scenario {
  std::shared_ptr<sim::monitoring::grafana_api> grafana_core = std::make_shared<sim::monitoring::grafana_api>(
      sim::monitoring::grafana_options{"admin", "admin", {{grafana_scenario_key, 1, "Admin"}}});
  sim::monitoring::standin_server grafana{"grafana", grafana_core, grafana_scenario_tls()};

  explicit grafana_scenario(bool start)
      : monitoring_scenario([](caf::actor_system& sys, mon::controllers_options co) {
          return mon::spawn_grafana(sys, std::move(co));
        }) {
    grafana.start();
    const auto url = "https://localhost:" + std::to_string(grafana.port());
    create("apiVersion: v1\nkind: Secret\nmetadata: {name: default-grafana-auth, namespace: monitoring}\n"
           "stringData: {token: " + grafana_scenario_key + "}\n---\n"
           "apiVersion: appcatalog.appscode.com/v1alpha1\nkind: AppBinding\n"
           "metadata: {name: default-grafana, namespace: monitoring, annotations: "
           "{monitoring.appscode.com/is-default-grafana: \"true\"}}\n"
           "spec:\n  type: Grafana\n  clientConfig: {url: \"" + url + "\", caBundle: " +
           k8s::base64_encode(grafana.ca_pem()) + "}\n  secret: {name: default-grafana-auth}\n"
           "  parameters: {apiVersion: openviz.dev/v1alpha1, kind: GrafanaConfiguration, datasource: ds-1}\n");
    if (start) start_operator();
  }

  ~grafana_scenario() {
    stop_operator();  // before Grafana goes
    grafana.stop();
  }

  // The orders, and what Grafana holds as a pseudo-order of its own ("grafana").
  static std::vector<std::string> with_grafana(std::vector<std::string> orders) {
    orders.push_back("grafana");
    return orders;
  }
  // The pseudo-order's state: what Grafana holds, sorted.
  static std::string held_state(const std::vector<std::string>& held) {
    std::string out = "held:";
    for (const auto& h : held) out += " " + h;
    return out;
  }
};

inline const std::string backend_scenario_token = "platform-token";

// The monitoring group (spawn_monitoring with --baseURL and --token, as the
// operator runs it: the Prometheus, client-org, Alertmanager and
// ServiceMonitor controllers, each group at the first sight of its CRD)
// against the backend stand-in (trickster) on loopback. `more` adds flags
// (the Rancher auth Secret).
struct backend_scenario : monitoring_scenario {
  std::shared_ptr<sim::monitoring::trickster_backend> backend_core = std::make_shared<sim::monitoring::trickster_backend>(
      sim::monitoring::trickster_options{backend_scenario_token, "https://grafana.example", "grafana-key", 1, {}});
  sim::monitoring::standin_server backend{"trickster", backend_core};

  explicit backend_scenario(std::function<void(mon::controllers_options&)> more = {})
      : monitoring_scenario([this, more](caf::actor_system& sys, mon::controllers_options co) {
          co.flags.base_url = backend.url();
          co.flags.token = backend_scenario_token;
          co.pod_namespace = "monitoring-operator";
          if (more) more(co);
          std::string error;
          auto a = mon::spawn_monitoring(sys, std::move(co), error);
          BOOST_TEST(error.empty(), error);
          return a;
        }) {
    backend.start();
  }

  ~backend_scenario() {
    stop_operator();  // before the backend goes
    backend.stop();
  }

  // The backend's registered and unregistered contexts (a registration
  // retried after a restart replaces the first: the keys are what counts),
  // the cluster's UID in them as "<cluster>" (each run's emulator has its own).
  std::string backend_state() {
    const std::string cluster(server.get_object("namespaces", "", "kube-system").uid());
    auto key = [&](std::string k) {
      if (auto at = k.find(cluster); !cluster.empty() && at != std::string::npos) k.replace(at, cluster.size(), "<cluster>");
      return " " + k;
    };
    return backend.with_core([&](sim::monitoring::standin_core&) {
      std::string out = "registered:";
      for (const auto& [k, r] : backend_core->registrations()) out += key(k);
      out += " unregistered:";
      for (const auto& k : std::set<std::string>(backend_core->unregistered().begin(), backend_core->unregistered().end()))
        out += key(k);
      return out;
    });
  }
  // Whether the backend holds a registration whose key ends in `suffix` ("": any).
  bool registered(const std::string& suffix = "") {
    return backend.with_core([&](sim::monitoring::standin_core&) {
      for (const auto& [k, r] : backend_core->registrations())
        if (k.ends_with(suffix)) return true;
      return false;
    });
  }
};

}  // namespace c5c3::testing::faults
