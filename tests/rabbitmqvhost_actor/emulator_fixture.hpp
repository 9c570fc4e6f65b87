// The RabbitMQVhost order host wired as the operator wires a kind, against
// the in-process emulator (deploy/crds and sim/crds installed) with the
// simulated world (cluster operator, topology operator, External Secrets)
// running on its own client: the management cluster actor, the cluster
// directory, the ControlPlane directory and the host. The operator's client
// has a bearer token of its own (operator_token), so fault rules can target
// the operator alone. Shared by rabbitmqvhost_actor and rabbitmqvhost_faults.
#pragma once

#include "actors/c5c3/controlplane/control_plane_actor.hpp"
#include "actors/c5c3/rabbitmqvhost/constants.hpp"
#include "actors/c5c3/rabbitmqvhost/kind.hpp"
#include "actors/cluster/cluster_actor.hpp"
#include "actors/cluster/cluster_directory.hpp"
#include "actors/cluster/target_registry.hpp"
#include "actors/runtime/limiter.hpp"
#include "config/connection.hpp"
#include "k8s/base64.hpp"
#include "k8s/client/credentials.hpp"
#include "k8s/client/observer.hpp"
#include "protocol/clusters.hpp"
#include "protocol/order.hpp"
#include "protocol/registry.hpp"
#include "sim/apiserver/apiserver.hpp"
#include "tests/actor_config.hpp"
#include "tests/rabbitmqvhost_actor/world_runner.hpp"
#include "tests/fast_retries.hpp"

#include <boost/test/unit_test.hpp>
#include <caf/all.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace c5c3::testing {

using namespace std::chrono_literals;
namespace vh = c5c3::rabbitmqvhost;

inline std::string source_dir() {
  const char* d = std::getenv("C5C3_SOURCE_DIR");
  return d ? d : ".";
}

// The operator's own bearer token and user, deploy/rbac's ServiceAccount:
// fault rules match the token (the world and the test's writes use the admin
// token and stay healthy), and the write log names the user.
inline const std::string operator_token = "c5c3-operator-token";
inline const std::string operator_user = "system:serviceaccount:c5c3-system:c5c3-operator";

// The files of deploy/rbac the operator's ServiceAccount is given: the
// ClusterRole of the order kinds with its binding, or the monitoring
// controllers' (their ClusterRoles and bindings, and the one they bind).
inline const std::vector<std::string> orders_rbac = {"service_account.yaml", "role.yaml", "role_binding.yaml"};
inline const std::vector<std::string> monitoring_rbac = {"service_account.yaml", "monitoring_role.yaml",
                                                         "grafana_role.yaml", "client_org_role.yaml"};

inline std::string make_temp_dir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "c5c3-rmq-XXXXXX").string();
  return mkdtemp(tmpl.data());
}

// deploy/crds and sim/crds, a token file accepting the operator's token as
// its ServiceAccount's, RBAC authorizing with exactly the rules of `rbac`
// (files of deploy/rbac, created at start, or absolute paths) for the
// operator, as a cluster installed from deploy/ has them (issue 18), and the
// watch log on.
inline sim::apiserver_options emulator_options(const std::string& dir,
                                               const std::vector<std::string>& rbac = orders_rbac) {
  sim::apiserver_options o;
  o.crd_dirs = {source_dir() + "/deploy/crds", source_dir() + "/sim/crds"};
  for (const auto& f : rbac) o.crd_dirs.push_back(f.starts_with('/') ? f : source_dir() + "/deploy/rbac/" + f);
  o.authorization_mode = "RBAC";
  o.token_file = dir + "/tokens.csv";
  o.watch_log = true;  // the perturbation plans (tests/faults) are generated from it
  std::ofstream(o.token_file) << operator_token << "," << operator_user
                              << ",operator-uid,\"system:serviceaccounts,system:serviceaccounts:c5c3-system\"\n";
  return o;
}

// Polls `done` every 50 ms for at most `seconds` (60 s by default).
inline bool eventually(const std::function<bool()>& done, int seconds = 60) {
  for (int i = 0; i < seconds * 20; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(50ms);
  }
  return done();
}

// No request counted by `c` during `window`. Showing that nothing happens
// takes a window of time; it is not a wait for a condition (that is eventually).
inline bool no_requests_for(const k8s::request_counters& c, std::chrono::milliseconds window) {
  auto before = c.requests_total();
  std::this_thread::sleep_for(window);
  return c.requests_total() == before;
}

inline k8s::object parse(const std::string& json) {
  std::string err;
  auto o = k8s::object::parse(json, &err);
  BOOST_TEST_REQUIRE(o.has_value(), err);
  return *o;
}

inline const k8s::gvk namespace_gvk{"", "v1", "Namespace"};

// The target-cluster registry as the operator runs it: kubeconfig Secrets
// labelled c5c3.io/target-cluster in c5c3-system, engaged targets announced
// to `directory`, their clients with fast retries.
inline caf::actor spawn_test_registry(caf::actor_system& sys, const caf::actor& management,
                                      const caf::actor& directory) {
  cluster::registry_options ro;
  ro.management = management;
  ro.namespace_ = "c5c3-system";
  ro.listeners = {directory};
  ro.tune = fast_retries;
  return cluster::spawn_target_registry(sys, ro);
}

// The cluster actor `directory` knows as `name`; null when none.
inline caf::actor lookup_cluster(caf::actor_system& sys, const caf::actor& directory, const std::string& name) {
  caf::scoped_actor self{sys};
  caf::actor out;
  self->request(directory, 10s, protocol::lookup_cluster_atom::value, name)
      .receive([&](caf::actor& a) { out = a; }, [](caf::error&) {});
  return out;
}

// The RabbitMQVhost order host as the operator wires it (four reconciles at once).
inline caf::actor spawn_vhost_host(caf::actor_system& sys, const caf::actor& limiter, const caf::actor& directory,
                                   const caf::actor& control_planes, runtime::metrics::registry& reg) {
  vh::host_options ho;
  ho.limiter = limiter;
  ho.max_concurrent_reconciles = 4;
  ho.clusters = directory;
  ho.control_planes = control_planes;
  ho.registry = &reg;
  return vh::spawn_host(sys, std::move(ho));
}

struct fixture {
  std::string dir = make_temp_dir();
  sim::apiserver server{emulator_options(dir)};
  std::shared_ptr<k8s::request_counters> operator_requests = std::make_shared<k8s::request_counters>();
  std::unique_ptr<world_runner> world;
  runtime::metrics::registry reg;
  caf::actor_system sys{make_config()};
  caf::actor management, directory, control_planes, limiter, host;

  // The emulator and the world; the operator too unless `start` is false
  // (then the test calls start_operator(), e.g. after adding fault rules).
  explicit fixture(bool start = true) {
    server.start();
    server.write_kubeconfig(dir + "/kubeconfig");
    auto conn = config::load_connection({dir + "/kubeconfig", "", ""});
    BOOST_TEST_REQUIRE(conn.ok());
    auto wc = conn->client;
    fast_retries(wc);
    world = std::make_unique<world_runner>(wc);
    world->start();
    if (start) start_operator();
  }

  void start_operator() {
    auto conn = config::load_connection({dir + "/kubeconfig", "", ""});
    BOOST_TEST_REQUIRE(conn.ok());
    auto oc = conn->client;
    fast_retries(oc);
    oc.observer = operator_requests;
    oc.credentials = std::make_shared<k8s::static_token>(operator_token);
    management = cluster::spawn_cluster(sys, {"", oc});
    directory = cluster::spawn_cluster_directory(sys, management);
    control_planes = c5c3::controlplane::spawn_control_plane_directory(sys, management);
    limiter = runtime::spawn_limiter(sys, 4);
    host = spawn_vhost_host(sys, limiter, directory, control_planes, reg);
  }

  // Stops the operator's actors (a crash as far as the cluster can tell:
  // nothing is written on the way out); start_operator() starts fresh ones
  // with empty caches.
  void stop_operator() {
    if (!host) return;
    caf::scoped_actor self{sys};
    self->request(host, 30s, protocol::stop_atom::value).receive([](protocol::ok_atom) {}, [](caf::error&) {});
    for (const auto& a : {host, limiter, control_planes, directory, management}) {
      caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
      self->wait_for(a);
    }
    host = limiter = control_planes = directory = management = caf::actor{};
  }

  ~fixture() {
    stop_operator();
    world->stop();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  bool synced() {
    caf::scoped_actor self{sys};
    bool out = false;
    self->request(directory, 10s, protocol::synced_atom::value).receive([&](bool b) { out = b; }, [](caf::error&) {});
    return out;
  }

  // The operator's requests by method since `since`.
  std::string requests_since(const std::map<std::tuple<std::string, std::string, std::string>, std::uint64_t>& since) {
    std::map<std::string, std::uint64_t> by_method;
    for (auto& [k, n] : operator_requests->by_method_code_host()) {
      auto it = since.find(k);
      auto d = n - (it == since.end() ? 0 : it->second);
      if (d) by_method[std::get<0>(k) + " " + std::get<1>(k)] += d;
    }
    std::string out;
    for (auto& [m, n] : by_method) out += m + "=" + std::to_string(n) + " ";
    return out.empty() ? "none" : out;
  }

  void create(const std::string& json) {
    auto r = world->create(parse(json));
    BOOST_TEST_REQUIRE(r.ok(), (r.ok() ? "" : r.error().describe()));
  }

  k8s::object order(const std::string& name) const {
    return server.get_object("rabbitmqvhosts.c5c3.io", "tenant-a", name);
  }
  std::string reason(const std::string& name, const std::string& type) const {
    auto c = order(name).find_condition(type);
    return c ? c->reason : "";
  }
  bool ready(const std::string& name) const {
    auto c = order(name).find_condition("Ready");
    return c && c->is_true() && k8s::get_int(order(name).json(), {"status", "observedGeneration"}).value_or(0) ==
                                    order(name).generation();
  }
  std::map<std::string, std::string> delivered(const std::string& name) const {
    std::map<std::string, std::string> out;
    auto s = server.get_object("secrets", "tenant-a", name + "-credentials");
    if (!s) return out;
    for (auto& k : {"transport_url", "host", "port", "username", "password", "vhost"}) {
      auto v = s.get_string({"data", k});
      if (v.empty()) continue;
      auto d = k8s::base64_decode(v);
      if (d) out[k] = *d;
    }
    return out;
  }
  // The order's children in the ControlPlane's namespace, by kind.
  std::size_t children(const std::string& resource, const std::string& order_name) const {
    std::size_t n = 0;
    for (auto& o : server.list_objects(resource, "openstack"))
      if (o.label(vh::label_name).value_or("") == order_name) ++n;
    return n;
  }
};

inline const std::string namespaces[] = {
    R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"openstack"}})",
    R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"tenant-a"}})",
};

inline const std::string control_plane = R"({"apiVersion":"c5c3.io/v1alpha1","kind":"ControlPlane",
  "metadata":{"name":"cp","namespace":"openstack"},
  "spec":{"region":"RegionOne","secretStoreRef":{"kind":"ClusterSecretStore","name":"openbao-cluster-store"},
    "services":{"keystone":{"mode":"Managed","publicEndpoint":"https://keystone.example.test"}},
    "infrastructure":{"messaging":{"clusterRef":{"name":"openstack-rabbitmq"},"replicas":1},
      "publishedMessagingEndpoint":"rabbitmq.example.test:5672"},
    "korc":{"adminCredential":{"domainName":"Default","cloudCredentialsRef":{"secretName":"k-orc-clouds-yaml","cloudName":"admin"}}},
    "namespaceAssignments":[{"namespace":"tenant-a","allowedRoles":["member"]},
      {"namespace":"tenant-b","targetClusterRef":{"name":"edge-1"}}]}})";

inline const std::string rabbitmq_cluster = R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"RabbitmqCluster",
  "metadata":{"name":"openstack-rabbitmq","namespace":"openstack"},"spec":{"replicas":1}})";

inline const std::string store = R"({"apiVersion":"external-secrets.io/v1","kind":"ClusterSecretStore",
  "metadata":{"name":"openbao-cluster-store"},
  "spec":{"provider":{"vault":{"server":"https://openbao.example.test","path":"openstack","version":"v2",
    "auth":{"kubernetes":{"mountPath":"kubernetes","role":"c5c3"}}}}}})";

inline std::string vhost_order(const std::string& name, const std::string& policy) {
  return R"({"apiVersion":"c5c3.io/v1alpha1","kind":"RabbitMQVhost","metadata":{"name":")" + name +
         R"(","namespace":"tenant-a"},"spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"},)"
         R"("rotation":{"gracePeriod":"4s"},"deletionPolicy":")" +
         policy + R"("}})";
}

inline const k8s::gvk order_gvk{"c5c3.io", "v1alpha1", "RabbitMQVhost"};

}  // namespace c5c3::testing
