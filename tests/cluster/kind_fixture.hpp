// The fixture of the cluster kind tests: a trivial order kind
// (test.c5c3.io/v1 Gadget, a CRD both in-process emulators install at start)
// run the way the operator runs a kind: an order host with its limiter, whose
// watches are registered with the cluster directory, the management cluster
// actor, the target registry engaging a second emulator from a labelled
// kubeconfig Secret. The pass records itself and writes the order's status
// through the cluster actor the directory names.
//
// CAF's normal scheduler; every wait is bounded and polls an observable
// (the pass record, the host's probe), never a wall-clock duration.
#pragma once

#include "actors/cluster/cluster_actor.hpp"
#include "actors/cluster/cluster_directory.hpp"
#include "actors/cluster/target_registry.hpp"
#include "actors/runtime/limiter.hpp"
#include "actors/runtime/order_host.hpp"
#include "config/base64.hpp"
#include "config/connection.hpp"
#include "protocol/api_error.hpp"
#include "protocol/clusters.hpp"
#include "protocol/order.hpp"
#include "protocol/registry.hpp"
#include "protocol/subscription.hpp"
#include "sim/apiserver/apiserver.hpp"
#include "tests/actor_config.hpp"
#include "tests/emulator_client.hpp"
#include "tests/fast_retries.hpp"

#include <boost/test/unit_test.hpp>
#include <caf/all.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace c5c3::testing {

using namespace std::chrono_literals;
inline constexpr auto deadline = 30s;

inline const k8s::gvk gadget_kind{"test.c5c3.io", "v1", "Gadget"};
inline const k8s::gvk configmap_kind{"", "v1", "ConfigMap"};
inline const k8s::gvk secret_kind{"", "v1", "Secret"};
inline const k8s::gvk crd_gvk{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"};
inline const runtime::ownership_keys gadget_keys{"test.c5c3.io/gadget-name", "test.c5c3.io/gadget-namespace",
                                          "test.c5c3.io/gadget-cluster"};

inline constexpr const char* gadget_crd = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.test.c5c3.io
spec:
  group: test.c5c3.io
  scope: Namespaced
  names: {kind: Gadget, plural: gadgets, singular: gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
)";

using c5c3::testing::make_config;

// What the passes did, shared with the order actors (they run on CAF's threads).
struct pass_record {
  mutable std::mutex mu;
  std::map<protocol::order_key, int> passes;
  std::vector<std::string> errors;

  void add(const protocol::order_key& k) {
    std::lock_guard<std::mutex> l(mu);
    ++passes[k];
  }
  void error(std::string e) {
    std::lock_guard<std::mutex> l(mu);
    errors.push_back(std::move(e));
  }
  int count(const protocol::order_key& k) const {
    std::lock_guard<std::mutex> l(mu);
    auto it = passes.find(k);
    return it == passes.end() ? 0 : it->second;
  }
};

// The Gadget pass: record, then write status.passes through the cluster
// actor of the order's cluster (looked up in the directory).
inline runtime::pass_factory gadget_pass(std::shared_ptr<pass_record> rec, caf::actor directory, caf::timespan timeout) {
  return [rec, directory, timeout](const protocol::order_key& key) -> runtime::pass_fn {
    return [rec, directory, key, timeout](runtime::pass_context ctx) {
      rec->add(key);
      int n = rec->count(key);
      ctx.self()
          ->request(directory, timeout, protocol::lookup_cluster_atom::value, key.cluster)
          .then(
              [ctx, rec, key, n, timeout](const caf::actor& cluster) {
                protocol::resource_ref ref{gadget_kind, key.namespace_, key.name};
                std::string body = R"({"status":{"passes":)" + std::to_string(n) + "}}";
                ctx.self()
                    ->request(cluster, timeout,
                              protocol::patch_request{ref, protocol::patch_type::merge, body, "status", {}})
                    .then([ctx](const k8s::object&) { ctx.finish(runtime::pass_result::converged()); },
                          [ctx, rec](const caf::error& e) {
                            rec->error(protocol::describe(e));
                            ctx.finish(runtime::pass_result::failed(protocol::describe(e)));
                          });
              },
              [ctx, rec](const caf::error& e) {
                rec->error(protocol::describe(e));
                ctx.finish(runtime::pass_result::failed(protocol::describe(e)));
              });
    };
  };
}

inline std::string make_crd_dir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "c5c3-kind-XXXXXX").string();
  std::string dir = mkdtemp(tmpl.data());
  std::ofstream(dir + "/gadget.yaml") << gadget_crd;
  return dir;
}

inline sim::apiserver_options with_crds(const std::string& dir) {
  sim::apiserver_options o;
  o.crd_dirs = {dir};
  return o;
}

// What a case may change about the fixture.
struct kind_options {
  caf::timespan pass_timeout = 10s;  // of each request a Gadget pass sends
  std::function<void(k8s::client_config&)> tune_target = fast_retries;
};

struct kind_fixture {
  std::string dir = make_crd_dir();
  sim::apiserver server{with_crds(dir)};
  sim::apiserver target{with_crds(dir)};
  caf::actor_system sys{make_config()};
  caf::actor management, directory, registry, limiter, host;
  std::shared_ptr<pass_record> rec = std::make_shared<pass_record>();

  explicit kind_fixture(kind_options ko = {}) {
    server.start();
    target.start();
    server.write_kubeconfig(dir + "/kubeconfig");
    auto conn = config::load_connection({dir + "/kubeconfig", "", ""});
    BOOST_TEST_REQUIRE(conn.ok());
    auto c = conn->client;
    fast_retries(c);
    management = cluster::spawn_cluster(sys, {"", c});
    directory = cluster::spawn_cluster_directory(sys, management);
    cluster::registry_options ro;
    ro.management = management;
    ro.namespace_ = "default";
    ro.listeners = {directory};
    ro.tune = ko.tune_target;
    registry = cluster::spawn_target_registry(sys, ro);

    // The kind's limiter as the operator gives it: 2 tokens per cluster (the default).
    limiter = runtime::spawn_limiter(sys, 2);
    runtime::order_host_config hc;
    hc.controller = "gadget";
    hc.order_kind = gadget_kind;
    hc.keys = gadget_keys;
    hc.make_pass = gadget_pass(rec, directory, ko.pass_timeout);
    hc.limiter = limiter;
    hc.max_concurrent_reconciles = 2;
    host = runtime::spawn_order_host(sys, std::move(hc));

    // The kind's watches, as a kind_plug registers them: its orders on every
    // cluster (optional: a target may not serve the kind), its children on
    // the management cluster.
    caf::scoped_actor self{sys};
    for (auto w : {protocol::watch_request{{gadget_kind, "", "", host, true}, protocol::watch_scope::every_cluster},
                   protocol::watch_request{{configmap_kind, "", gadget_keys.name, host, false},
                                           protocol::watch_scope::management}}) {
      bool ok = false;
      self->request(directory, deadline, w).receive([&](protocol::ok_atom) { ok = true; }, [](caf::error&) {});
      BOOST_TEST_REQUIRE(ok);
    }
    BOOST_TEST_REQUIRE(eventually([&] { return synced(self); }));
  }

  ~kind_fixture() {
    caf::scoped_actor self{sys};
    for (const auto& a : {host, limiter, registry, directory, management}) {
      caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
      self->wait_for(a);
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  // Polls `cond` until it holds (bounded by `deadline`).
  static bool eventually(const std::function<bool()>& cond) { return testing::eventually(cond, deadline); }

  bool synced(caf::scoped_actor& self) {
    bool out = false;
    self->request(directory, deadline, protocol::synced_atom::value)
        .receive([&](bool b) { out = b; }, [](caf::error&) {});
    return out;
  }

  protocol::host_probe probe() {
    caf::scoped_actor self{sys};
    protocol::host_probe p;
    self->request(host, deadline, protocol::probe_atom::value)
        .receive([&](protocol::host_probe& x) { p = std::move(x); }, [](caf::error&) {});
    return p;
  }

  static bool has(const std::vector<protocol::order_key>& keys, const protocol::order_key& k) {
    return std::find(keys.begin(), keys.end(), k) != keys.end();
  }

  caf::expected<k8s::object> write(const caf::actor& cluster, auto req) {
    caf::scoped_actor self{sys};
    caf::expected<k8s::object> out{caf::error{}};
    self->request(cluster, deadline, std::move(req))
        .receive([&](k8s::object& o) { out = std::move(o); }, [&](caf::error& e) { out = std::move(e); });
    return out;
  }

  std::string errors() const {
    std::lock_guard<std::mutex> l(rec->mu);
    std::string out;
    for (const auto& e : rec->errors) out += e + "\n";
    return out;
  }

  std::string why(const caf::expected<k8s::object>& e) { return e ? std::string() : sys.render(e.error()); }

  // The cluster actor the directory names for `cluster` (invalid while it
  // is not engaged).
  caf::actor lookup(const std::string& cluster) {
    caf::scoped_actor self{sys};
    caf::actor out;
    self->request(directory, deadline, protocol::lookup_cluster_atom::value, cluster)
        .receive([&](caf::actor& a) { out = a; }, [](caf::error&) {});
    return out;
  }

  // Engages target cluster `cluster` from a labelled kubeconfig Secret
  // "cluster-<name>" and waits until the directory names it.
  caf::actor engage(const std::string& cluster, const std::string& kubeconfig) {
    k8s::object_builder s("v1", "Secret", "default", "cluster-" + cluster);
    s.set_label(cluster::target_cluster_label, cluster);
    s.set_string({"data", "kubeconfig"}, config::base64_encode(kubeconfig));
    auto secret = write(management, protocol::create_request{std::move(s).freeze(), {}});
    BOOST_TEST_REQUIRE(static_cast<bool>(secret), why(secret));
    caf::actor a;
    BOOST_TEST_REQUIRE(eventually([&] { return static_cast<bool>(a = lookup(cluster)); }));
    return a;
  }

  caf::expected<k8s::object> disengage(const std::string& cluster) {
    return write(management, protocol::delete_request{{secret_kind, "default", "cluster-" + cluster}, "", "",
                                                      protocol::propagation::background});
  }

  // A ConfigMap on the management cluster labelled as a child of `key`
  // (its creation wakes that order).
  caf::expected<k8s::object> add_child(const protocol::order_key& key, const std::string& name) {
    k8s::object_builder child("v1", "ConfigMap", "default", name);
    child.set_label(gadget_keys.name, key.name);
    child.set_label(gadget_keys.namespace_, key.namespace_);
    if (!key.cluster.empty()) child.set_label(gadget_keys.cluster, key.cluster);
    return write(management, protocol::create_request{std::move(child).freeze(), {}});
  }

  // The directory's health of `cluster` (cluster "" when it is not engaged).
  protocol::cluster_health health(const std::string& cluster) {
    caf::scoped_actor self{sys};
    protocol::cluster_health h;
    self->request(directory, deadline, protocol::health_atom::value, cluster)
        .receive([&](protocol::cluster_health& x) { h = std::move(x); }, [](caf::error&) {});
    return h;
  }

  // The limiter's pool of `cluster`, or all of them.
  protocol::limiter_probe pool(const std::optional<std::string>& cluster) {
    caf::scoped_actor self{sys};
    protocol::limiter_probe p;
    auto got = [&](protocol::limiter_probe& x) { p = x; };
    if (cluster)
      self->request(limiter, deadline, protocol::probe_atom::value, *cluster).receive(got, [](caf::error&) {});
    else
      self->request(limiter, deadline, protocol::probe_atom::value).receive(got, [](caf::error&) {});
    return p;
  }
};

inline k8s::object gadget(const std::string& name) {
  k8s::object_builder b("test.c5c3.io/v1", "Gadget", "default", name);
  b.set_string({"spec", "size"}, "small");
  return std::move(b).freeze();
}

// status.passes of a stored Gadget (0 when absent).
inline int passes(const k8s::object& o) {
  if (!o) return 0;
  const auto* v = o.get({"status", "passes"});
  return v != nullptr && v->IsInt() ? v->GetInt() : 0;
}

inline protocol::resource_ref gadget_ref(const std::string& name) { return {gadget_kind, "default", name}; }


}  // namespace c5c3::testing
