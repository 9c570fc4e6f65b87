// A trivial order kind (test.c5c3.io/v1 Gadget, a CRD both in-process
// emulators install at start) run the way the operator runs a kind: an order
// host whose watches are registered with the cluster directory, the
// management cluster actor, the target registry engaging a second emulator
// from a labelled kubeconfig Secret. The pass records itself and writes the
// order's status through the cluster actor the directory names.
//
// CAF's normal scheduler; every wait is bounded and polls an observable
// (the pass record, the host's probe), never a wall-clock duration.
#include "actors/cluster/cluster_actor.hpp"
#include "actors/cluster/cluster_directory.hpp"
#include "actors/cluster/target_registry.hpp"
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

#include <boost/test/unit_test.hpp>
#include <caf/all.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>

namespace c5c3::testing {
namespace {

using namespace std::chrono_literals;
constexpr auto deadline = 30s;

const k8s::gvk gadget_kind{"test.c5c3.io", "v1", "Gadget"};
const k8s::gvk configmap_kind{"", "v1", "ConfigMap"};
const k8s::gvk secret_kind{"", "v1", "Secret"};
const k8s::gvk crd_gvk{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"};
const runtime::ownership_keys gadget_keys{"test.c5c3.io/gadget-name", "test.c5c3.io/gadget-namespace",
                                          "test.c5c3.io/gadget-cluster"};


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
runtime::pass_factory gadget_pass(std::shared_ptr<pass_record> rec, caf::actor directory) {
  return [rec, directory](const protocol::order_key& key) -> runtime::pass_fn {
    return [rec, directory, key](runtime::pass_context ctx) {
      rec->add(key);
      int n = rec->count(key);
      ctx.self()
          ->request(directory, 10s, protocol::lookup_cluster_atom::value, key.cluster)
          .then(
              [ctx, rec, key, n](const caf::actor& cluster) {
                protocol::resource_ref ref{gadget_kind, key.namespace_, key.name};
                std::string body = R"({"status":{"passes":)" + std::to_string(n) + "}}";
                ctx.self()
                    ->request(cluster, 10s, protocol::patch_request{ref, protocol::patch_type::merge, body, "status", {}})
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

sim::apiserver_options with_crds(const std::string& dir) {
  sim::apiserver_options o;
  o.crd_dirs = {dir};
  return o;
}

struct kind_fixture {
  std::string dir = scratch_dir("c5c3-kind", {{"gadget.yaml", open_crd("test.c5c3.io", "Gadget", "gadgets")}});
  sim::apiserver server{with_crds(dir)};
  sim::apiserver target{with_crds(dir)};
  caf::actor_system sys{make_config()};
  caf::actor management, directory, registry, host;
  std::shared_ptr<pass_record> rec = std::make_shared<pass_record>();

  kind_fixture() {
    server.start();
    target.start();
    auto c = emulator_client(server, dir);
    management = cluster::spawn_cluster(sys, {"", c});
    directory = cluster::spawn_cluster_directory(sys, management);
    cluster::registry_options ro;
    ro.management = management;
    ro.namespace_ = "default";
    ro.listeners = {directory};
    ro.tune = [](k8s::client_config& t) {
      t.retry.initial_backoff = 5ms;
      t.retry.max_backoff = 50ms;
      t.request_timeout = 10s;
    };
    registry = cluster::spawn_target_registry(sys, ro);

    runtime::order_host_config hc;
    hc.controller = "gadget";
    hc.order_kind = gadget_kind;
    hc.keys = gadget_keys;
    hc.make_pass = gadget_pass(rec, directory);
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
    for (const auto& a : {host, registry, directory, management}) {
      caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
      self->wait_for(a);
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

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
};

k8s::object gadget(const std::string& name) {
  k8s::object_builder b("test.c5c3.io/v1", "Gadget", "default", name);
  b.set_string({"spec", "size"}, "small");
  return std::move(b).freeze();
}

// status.passes of a stored Gadget (0 when absent).
int passes(const k8s::object& o) {
  if (!o) return 0;
  const auto* v = o.get({"status", "passes"});
  return v != nullptr && v->IsInt() ? v->GetInt() : 0;
}

protocol::resource_ref gadget_ref(const std::string& name) { return {gadget_kind, "default", name}; }

}  // namespace

BOOST_AUTO_TEST_SUITE(kind_integration)

BOOST_FIXTURE_TEST_CASE(management_order_runs_wakes_on_children_not_status_and_retires, kind_fixture) {
  const protocol::order_key key{"", "default", "g1"};
  auto made = write(management, protocol::create_request{gadget("g1"), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(made), why(made));

  // Created: the host spawns its actor and the pass runs; the pass's own
  // status write comes back as an update the predicate filters.
  BOOST_TEST_REQUIRE(eventually([&] { return rec->count(key) >= 1; }));
  BOOST_TEST_REQUIRE(eventually([&] {
    return passes(server.get_object("gadgets.test.c5c3.io", "default", "g1")) == 1;
  }));
  BOOST_TEST_REQUIRE(eventually([&] { return probe().filtered >= 1; }));
  BOOST_TEST(rec->count(key) == 1);
  BOOST_TEST(has(probe().live, key));

  // A child with the ownership labels wakes it.
  k8s::object_builder child("v1", "ConfigMap", "default", "g1-child");
  child.set_label(gadget_keys.name, "g1");
  child.set_label(gadget_keys.namespace_, "default");
  auto c = write(management, protocol::create_request{std::move(child).freeze(), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(c), why(c));
  BOOST_TEST_REQUIRE(eventually([&] { return rec->count(key) >= 2; }));
  BOOST_TEST_REQUIRE(eventually([&] { return probe().filtered >= 2; }));
  BOOST_TEST(rec->count(key) == 2);

  // A spec change (a new generation) wakes it too.
  auto spec = write(management, protocol::patch_request{gadget_ref("g1"), protocol::patch_type::merge,
                                                        R"({"spec":{"size":"large"}})", "", {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(spec), why(spec));
  BOOST_TEST_REQUIRE(eventually([&] { return rec->count(key) >= 3; }));

  // Deleting the order retires its actor.
  auto del = write(management, protocol::delete_request{gadget_ref("g1"), "", "", protocol::propagation::background});
  BOOST_TEST_REQUIRE(static_cast<bool>(del), why(del));
  BOOST_TEST_REQUIRE(eventually([&] {
    auto p = probe();
    return p.live.empty() && p.retiring.empty() && p.retired == 1;
  }));
  BOOST_TEST(rec->errors.empty(), errors());
}

BOOST_FIXTURE_TEST_CASE(target_cluster_orders_get_actors_and_disengaging_retires_them, kind_fixture) {
  const protocol::order_key key{"east", "default", "g2"};
  k8s::object_builder s("v1", "Secret", "default", "cluster-east");
  s.set_label(cluster::target_cluster_label, "east");
  s.set_string({"data", "kubeconfig"}, config::base64_encode(target.kubeconfig_yaml()));
  auto secret = write(management, protocol::create_request{std::move(s).freeze(), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(secret), why(secret));

  // The directory engages "east" and subscribes the kind's every_cluster watch there.
  caf::actor east;
  BOOST_TEST_REQUIRE(eventually([&] {
    caf::scoped_actor self{sys};
    self->request(directory, deadline, protocol::lookup_cluster_atom::value, std::string("east"))
        .receive([&](caf::actor& a) { east = a; }, [](caf::error&) {});
    return static_cast<bool>(east);
  }));
  {
    caf::scoped_actor self{sys};
    BOOST_TEST_REQUIRE(eventually([&] { return synced(self); }));
  }

  auto made = write(east, protocol::create_request{gadget("g2"), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(made), why(made));
  BOOST_TEST_REQUIRE(eventually([&] { return has(probe().live, key); }));
  BOOST_TEST_REQUIRE(eventually([&] {
    return passes(target.get_object("gadgets.test.c5c3.io", "default", "g2")) >= 1;
  }));
  // The status went to the target, not to the management cluster.
  BOOST_TEST(!server.get_object("gadgets.test.c5c3.io", "default", "g2"));
  BOOST_TEST(rec->count({"", "default", "g2"}) == 0);

  // A child on the management cluster naming the target in its cluster label wakes the target's order.
  int before = rec->count(key);
  k8s::object_builder child("v1", "ConfigMap", "default", "g2-child");
  child.set_label(gadget_keys.name, "g2");
  child.set_label(gadget_keys.namespace_, "default");
  child.set_label(gadget_keys.cluster, "east");
  auto c = write(management, protocol::create_request{std::move(child).freeze(), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(c), why(c));
  BOOST_TEST_REQUIRE(eventually([&] { return rec->count(key) > before; }));
  BOOST_TEST_REQUIRE(eventually([&] {
    return passes(target.get_object("gadgets.test.c5c3.io", "default", "g2")) == rec->count(key);
  }));
  // So far every pass succeeded (later, a pass in flight when the cluster
  // goes may fail with a transport error: that is expected).
  BOOST_TEST(rec->errors.empty(), errors());

  // Deleting the Secret disengages "east": its orders' actors retire, the
  // directory no longer names it.
  auto del = write(management, protocol::delete_request{{secret_kind, "default", "cluster-east"}, "", "",
                                                        protocol::propagation::background});
  BOOST_TEST_REQUIRE(static_cast<bool>(del), why(del));
  BOOST_TEST_REQUIRE(eventually([&] {
    auto p = probe();
    return !has(p.live, key) && p.retiring.empty() && p.retired >= 1;
  }));
  caf::scoped_actor self{sys};
  bool not_engaged = false;
  self->request(directory, deadline, protocol::lookup_cluster_atom::value, std::string("east"))
      .receive([](caf::actor&) {}, [&](caf::error& e) { not_engaged = protocol::is_not_found(e); });
  BOOST_TEST(not_engaged);
}

BOOST_FIXTURE_TEST_CASE(an_unreachable_target_keeps_the_directory_unsynced_until_disengaged, kind_fixture) {
  // The target's API server is gone: its cluster actor cannot resolve the
  // kind's watch, retries, and the directory does not answer synced.
  auto kubeconfig = target.kubeconfig_yaml();
  target.stop();
  k8s::object_builder s("v1", "Secret", "default", "cluster-west");
  s.set_label(cluster::target_cluster_label, "west");
  s.set_string({"data", "kubeconfig"}, config::base64_encode(kubeconfig));
  auto secret = write(management, protocol::create_request{std::move(s).freeze(), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(secret), why(secret));
  caf::scoped_actor self{sys};
  BOOST_TEST_REQUIRE(eventually([&] {
    bool engaged = false;
    self->request(directory, deadline, protocol::lookup_cluster_atom::value, std::string("west"))
        .receive([&](caf::actor&) { engaged = true; }, [](caf::error&) {});
    return engaged;
  }));
  for (int i = 0; i < 20; ++i) {
    BOOST_TEST(!synced(self));
    std::this_thread::sleep_for(10ms);
  }
  // Disengaged: synced again.
  auto del = write(management, protocol::delete_request{{secret_kind, "default", "cluster-west"}, "", "",
                                                        protocol::propagation::background});
  BOOST_TEST_REQUIRE(static_cast<bool>(del), why(del));
  BOOST_TEST(eventually([&] { return synced(self); }));
}

BOOST_FIXTURE_TEST_CASE(the_kind_going_away_retires_its_orders, kind_fixture) {
  const protocol::order_key key{"", "default", "g3"};
  auto made = write(management, protocol::create_request{gadget("g3"), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(made), why(made));
  BOOST_TEST_REQUIRE(eventually([&] { return has(probe().live, key); }));
  BOOST_TEST_REQUIRE(eventually([&] { return rec->count(key) >= 1; }));

  auto del = write(management, protocol::delete_request{{crd_gvk, "", "gadgets.test.c5c3.io"}, "", "",
                                                        protocol::propagation::background});
  BOOST_TEST_REQUIRE(static_cast<bool>(del), why(del));
  BOOST_TEST_REQUIRE(eventually([&] {
    auto p = probe();
    return p.live.empty() && p.retiring.empty() && p.retired == 1;
  }));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
