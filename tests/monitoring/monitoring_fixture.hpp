// The monitoring controllers as the operator runs them (spawn_monitoring:
// detectors, services, the CRD-triggered activation), against the in-process
// emulator over TLS and the backend stand-in (sim/monitoring's trickster) on
// loopback. Objects go in through the management cluster actor; the oracles
// are the stored objects, the stand-in's registrations and the order actors'
// probes. Every wait is bounded and polls (tests/emulator_client.hpp).
#pragma once

#include "actors/cluster/cluster_actor.hpp"
#include "actors/cluster/cluster_directory.hpp"
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/controllers.hpp"
#include "k8s/yaml.hpp"
#include "protocol/api_error.hpp"
#include "protocol/clusters.hpp"
#include "protocol/order.hpp"
#include "sim/monitoring/standin_server.hpp"
#include "sim/monitoring/trickster.hpp"
#include "tests/actor_config.hpp"
#include "tests/emulator_client.hpp"

#include <caf/all.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace c5c3::testing::mon {

using namespace std::chrono_literals;

inline std::string source_dir() {
  const char* d = std::getenv("C5C3_SOURCE_DIR");
  BOOST_TEST_REQUIRE(d, "C5C3_SOURCE_DIR must name the source tree");
  return d;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  BOOST_TEST_REQUIRE(static_cast<bool>(in), path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct fixture_options {
  // Folders of CRDs (and other manifests) created at start.
  std::vector<std::string> crd_dirs;
  std::string rancher_auth_secret;
  std::chrono::milliseconds service_timeout{10'000};
  // Each controller its own limiter of one token (the operator's wiring with
  // --max-concurrent-reconciles=1); false: no limit.
  bool limit = false;
  // The emulator logs the events its watch streams deliver (watch_log()).
  bool watch_log = false;
};

// Every CRD the monitoring controllers meet (deploy/crds: AppBinding;
// sim/crds: monitoring.coreos.com, charts.x-helm.dev).
inline fixture_options all_crds() {
  fixture_options o;
  o.crd_dirs = {source_dir() + "/deploy/crds", source_dir() + "/sim/crds"};
  return o;
}

// The default Prometheus (monitoring/k8s) with its Service.
inline const char* const prometheus_yaml = R"(apiVersion: v1
kind: Namespace
metadata: {name: monitoring}
---
apiVersion: v1
kind: Service
metadata: {name: k8s, namespace: monitoring}
spec: {ports: [{name: http-web, port: 9090, targetPort: 9090}]}
---
apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: k8s, namespace: monitoring}
spec:
  serviceMonitorSelector: {matchLabels: {release: a}}
  serviceMonitorNamespaceSelector: {}
)";

struct mon_fixture {
  std::string dir = scratch_dir("c5c3-monitoring");
  sim::apiserver server;
  std::shared_ptr<sim::monitoring::trickster_backend> backend_core;
  sim::monitoring::standin_server backend;
  // Before the actor system, so it outlives every actor: the system's
  // destructor waits for the order actors the hosts spawned, which the
  // fixture's own waits do not cover, and their states' destructors still
  // move gauges of it (ASan: heap-use-after-free in ~order_state).
  runtime::metrics::registry registry;
  caf::actor_system sys{make_config()};
  caf::actor management, directory, activation;

  static sim::apiserver_options server_options(const fixture_options& o) {
    sim::apiserver_options so;
    so.crd_dirs = o.crd_dirs;
    so.watch_log = o.watch_log;
    return so;
  }

  explicit mon_fixture(fixture_options o = all_crds())
      : server(server_options(o)),
        backend_core(std::make_shared<sim::monitoring::trickster_backend>(sim::monitoring::trickster_options{
            "platform-token", "https://grafana.example", "grafana-key", 1, {}})),
        backend("trickster", backend_core) {
    server.start();
    backend.start();
    auto c = emulator_client(server, dir);
    management = cluster::spawn_cluster(sys, {"", c});
    directory = cluster::spawn_cluster_directory(sys, management);
    monitoring::controllers_options co;
    co.flags.base_url = backend.url();
    co.flags.token = "platform-token";
    co.flags.rancher_auth_secret = o.rancher_auth_secret;
    co.pod_namespace = "monitoring-operator";
    co.clusters = directory;
    co.registry = &registry;
    co.actor_options.backoff_max = 200ms;
    co.service_timeout = o.service_timeout;
    co.limit = o.limit;
    std::string error;
    activation = monitoring::spawn_monitoring(sys, std::move(co), error);
    BOOST_TEST_REQUIRE(static_cast<bool>(activation), error);
  }

  ~mon_fixture() {
    caf::scoped_actor self{sys};
    for (const auto& a : {activation, directory, management}) {
      caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
      self->wait_for(a);
    }
    backend.stop();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  caf::expected<k8s::object> write(auto req) {
    caf::scoped_actor self{sys};
    caf::expected<k8s::object> out{caf::error{}};
    self->request(management, 30s, std::move(req))
        .receive([&](k8s::object& o) { out = std::move(o); }, [&](caf::error& e) { out = std::move(e); });
    return out;
  }

  // Creates every document of `yaml` (names the one that fails).
  void create(const std::string& yaml) {
    std::string why;
    auto docs = k8s::yaml_documents_to_json(yaml, &why);
    BOOST_TEST_REQUIRE(docs.has_value(), why);
    for (auto& d : *docs) {
      k8s::object o(std::move(d));
      auto r = write(protocol::create_request{o, {}});
      BOOST_TEST_REQUIRE(static_cast<bool>(r), std::string(o.kind()) + " " + o.key().to_string() + ": " +
                                                   (r ? std::string() : sys.render(r.error())));
    }
  }

  void patch(const k8s::gvk& gvk, const std::string& ns, const std::string& name, const std::string& merge) {
    auto r = write(protocol::patch_request{{gvk, ns, name}, protocol::patch_type::merge, merge, "", {}});
    BOOST_TEST_REQUIRE(static_cast<bool>(r), (r ? std::string() : sys.render(r.error())));
  }

  void remove(const k8s::gvk& gvk, const std::string& ns, const std::string& name) {
    auto r = write(protocol::delete_request{{gvk, ns, name}, "", "", protocol::propagation::background});
    BOOST_TEST_REQUIRE(static_cast<bool>(r), (r ? std::string() : sys.render(r.error())));
  }

  k8s::object get(const std::string& resource, const std::string& ns, const std::string& name) const {
    return server.get_object(resource, ns, name);
  }

  std::vector<std::string> activated() {
    caf::scoped_actor self{sys};
    std::vector<std::string> out;
    self->request(activation, 30s, protocol::probe_atom::value)
        .receive([&](std::vector<std::string>& v) { out = std::move(v); }, [](caf::error&) {});
    return out;
  }

  protocol::order_probe probe(const std::string& controller, const std::string& ns, const std::string& name) {
    caf::scoped_actor self{sys};
    protocol::order_probe p;
    self->request(activation, 30s, protocol::probe_atom::value, controller, protocol::order_key{"", ns, name})
        .receive([&](protocol::order_probe& x) { p = std::move(x); }, [](caf::error&) {});
    return p;
  }

  // The registrations of the backend stand-in: key -> register calls for it.
  std::map<std::string, int> registrations() {
    return backend.with_core([&](sim::monitoring::standin_core&) {
      std::map<std::string, int> out;
      for (const auto& [k, r] : backend_core->registrations()) out[k] = r.registers;
      return out;
    });
  }
  int register_calls() {
    return backend.with_core([&](sim::monitoring::standin_core&) { return backend_core->register_calls(); });
  }
  std::vector<std::string> unregistered() {
    return backend.with_core([&](sim::monitoring::standin_core&) { return backend_core->unregistered(); });
  }

  int unregister_calls() {
    return backend.with_core([&](sim::monitoring::standin_core&) { return backend_core->unregister_calls(); });
  }

  std::string kube_system_uid() const { return std::string(get("namespaces", "", "kube-system").uid()); }

  std::size_t writes(const std::string& verb, const std::string& resource) const {
    std::size_t n = 0;
    for (const auto& w : server.write_log()) n += w.verb == verb && w.resource == resource && w.code < 300;
    return n;
  }
};

// Whether the registration markers are stamped (the RoleBinding's annotation).
inline bool registered(mon_fixture& f) {
  auto rb = f.get("rolebindings.rbac.authorization.k8s.io", "monitoring", "appscode:trickster:proxy");
  return rb && rb.annotation(::c5c3::monitoring::registered_key).has_value();
}

}  // namespace c5c3::testing::mon
