// The world driver over an in-memory API: every simulated controller
// converges, steady state writes nothing, deletions clean the broker and the
// key-value store and release the objects.
#include "sim/world/memory_broker.hpp"
#include "sim/world/world.hpp"

#include "fixtures.hpp"

#include <fmt/format.h>

using namespace c5c3::sim::world;
using namespace c5c3::sim::world::test;
namespace k8s = c5c3::k8s;

namespace {

// An API server reduced to what the driver uses: PUT keeps status, PUT of
// status keeps the rest, resourceVersion preconditions, finalizers hold a
// deleted object until the last one is removed.
class memory_api final : public world_api {
 public:
  using key = std::tuple<std::string, std::string, std::string>;

  void create(k8s::object o) {
    auto b = o.edit();
    b.set_string({"metadata", "uid"}, fmt::format("uid-{}", ++rv_));
    b.set_int({"metadata", "generation"}, 1);
    b.set_resource_version(std::to_string(++rv_));
    store_[id(o)] = std::move(b).freeze();
  }
  void remove(const k8s::object& o) {
    auto it = store_.find(id(o));
    BOOST_TEST_REQUIRE((it != store_.end()));
    if (it->second.finalizers().empty()) {
      store_.erase(it);
      return;
    }
    auto b = it->second.edit();
    b.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:05:00Z");
    b.set_resource_version(std::to_string(++rv_));
    it->second = std::move(b).freeze();
  }
  k8s::object find(std::string_view kind, std::string_view ns, std::string_view name) const {
    auto it = store_.find({std::string(kind), std::string(ns), std::string(name)});
    return it == store_.end() ? k8s::object() : it->second;
  }

  std::vector<k8s::object> list(const k8s::gvk& kind) override {
    std::vector<k8s::object> out;
    for (const auto& [k, o] : store_) {
      if (std::get<0>(k) == kind.kind) out.push_back(o);
    }
    return out;
  }
  k8s::object get(const k8s::gvk& kind, std::string_view ns, std::string_view name) override {
    return find(kind.kind, ns, name);
  }
  write_result write(const object_write& w) override {
    ++writes;
    auto k = id(w.obj);
    auto it = store_.find(k);
    if (w.verb == write_verb::upsert || w.verb == write_verb::create) {
      auto b = w.obj.edit();
      b.set_resource_version(std::to_string(++rv_));
      return {store_[k] = std::move(b).freeze(), std::nullopt};
    }
    if (it == store_.end()) return {{}, "not found"};
    if (it->second.resource_version() != w.obj.resource_version()) return {{}, "conflict"};
    auto b = (w.verb == write_verb::update ? w.obj : it->second).edit();
    const auto& status_from = w.verb == write_verb::update ? it->second : w.obj;
    if (const auto* st = status_from.get({"status"})) {
      b.set({"status"}, k8s::copy_json(*st, b.alloc()));
    } else {
      b.remove({"status"});
    }
    b.set_resource_version(std::to_string(++rv_));
    auto stored = std::move(b).freeze();
    if (stored.terminating() && stored.finalizers().empty()) {
      store_.erase(it);
      return {{}, std::nullopt};
    }
    return {it->second = stored, std::nullopt};
  }

  std::size_t writes = 0;

 private:
  static key id(const k8s::object& o) {
    return {std::string(o.kind()), std::string(o.namespace_()), std::string(o.name())};
  }
  std::map<key, k8s::object> store_;
  long rv_ = 0;
};

struct fixture {
  memory_api api;
  std::shared_ptr<memory_broker> broker = std::make_shared<memory_broker>();
  std::shared_ptr<kv_store> openbao = std::make_shared<kv_store>();
  k8s::time_point now = t0();
  world w{api, options()};

  world_options options() {
    world_options o;
    o.rabbitmq = broker;
    o.openbao = openbao;
    o.clock = [this] { return now; };
    o.random = counting_random();
    return o;
  }

  // Passes until one writes nothing; fails after `limit`.
  void converge(int limit = 5) {
    for (int i = 0; i < limit; ++i) {
      auto r = w.pass();
      BOOST_TEST(r.write_errors == 0u);
      if (r.writes == 0) return;
    }
    BOOST_FAIL("the world did not converge");
  }

  void populate() {
    api.create(obj(R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"RabbitmqCluster",
      "metadata":{"name":"rmq","namespace":"cp"},"spec":{"replicas":1}})"));
    api.create(obj(R"({"apiVersion":"external-secrets.io/v1","kind":"SecretStore",
      "metadata":{"name":"openbao-tenant-store","namespace":"cp"},"spec":{"provider":{"vault":{}}}})"));
    api.create(secret("cp", "imp", {{"username", "order-user"}, {"password", "pw-1"}},
                      {{"rabbitmq.com/topology-operator", "true"}}));
    api.create(obj(R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"Vhost","metadata":{"name":"v","namespace":"cp"},
      "spec":{"name":"order-vhost","rabbitmqClusterReference":{"name":"rmq"}}})"));
    api.create(obj(R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"User","metadata":{"name":"u","namespace":"cp"},
      "spec":{"importCredentialsSecret":{"name":"imp"},"rabbitmqClusterReference":{"name":"rmq"}}})"));
    api.create(obj(R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"Permission","metadata":{"name":"p","namespace":"cp"},
      "spec":{"user":"order-user","vhost":"order-vhost","permissions":{"configure":".*","write":".*","read":".*"},
              "rabbitmqClusterReference":{"name":"rmq"}}})"));
    api.create(secret("cp", "src", {{"transport_url", "rabbit://order-user:pw-1@rmq.cp.svc:5672/order-vhost"}}));
    api.create(obj(R"({"apiVersion":"external-secrets.io/v1alpha1","kind":"PushSecret","metadata":{"name":"ps","namespace":"cp"},
      "spec":{"refreshInterval":"1h0m0s","deletionPolicy":"Delete",
              "secretStoreRefs":[{"name":"openbao-tenant-store","kind":"SecretStore"}],
              "selector":{"secret":{"name":"src"}},
              "data":[{"match":{"remoteRef":{"remoteKey":"kv/cp/order"}}}]}})"));
  }
};

bool ready(const k8s::object& o) {
  auto c = find_plain_condition(o, "Ready");
  return c && c->status == "True";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(world_driver)

BOOST_AUTO_TEST_CASE(everything_converges_and_steady_state_writes_nothing) {
  fixture f;
  f.populate();
  f.converge();

  auto rmq = f.api.find("RabbitmqCluster", "cp", "rmq");
  BOOST_TEST(find_plain_condition(rmq, "AllReplicasReady").value_or(plain_condition{}).status == "True");
  BOOST_TEST(static_cast<bool>(f.api.find("Secret", "cp", "rmq-default-user")));
  for (auto kind : {"Vhost", "User", "Permission"}) {
    BOOST_TEST_CONTEXT(kind) {
      auto o = f.api.find(kind, "cp", kind == std::string("Vhost") ? "v" : kind == std::string("User") ? "u" : "p");
      BOOST_TEST(ready(o));
      BOOST_TEST(o.finalizers().size() == 1u);
      BOOST_TEST((k8s::get_int(o.json(), {"status", "observedGeneration"}) == std::optional<std::int64_t>(1)));
    }
  }
  BOOST_TEST(f.broker->vhosts().contains("order-vhost"));
  BOOST_TEST(f.broker->user("order-user").value_or(broker_user{}).password == "pw-1");
  BOOST_TEST(f.broker->permissions("order-vhost", "order-user").has_value());
  // The User imports its credentials: no generated Secret (messaging-topology-operator v1.20).
  BOOST_TEST(!static_cast<bool>(f.api.find("Secret", "cp", "u-user-credentials")));
  BOOST_TEST(f.api.find("User", "cp", "u").get_string({"status", "credentials", "name"}) == "imp");
  BOOST_TEST(ready(f.api.find("SecretStore", "cp", "openbao-tenant-store")));
  auto ps = f.api.find("PushSecret", "cp", "ps");
  BOOST_TEST(ready(ps));
  BOOST_TEST(ps.has_finalizer("pushsecret.externalsecrets.io/finalizer"));
  auto pushed = f.openbao->get("kv/cp/order");
  BOOST_TEST_REQUIRE(pushed.has_value());
  BOOST_TEST(pushed->at("transport_url") == "rabbit://order-user:pw-1@rmq.cp.svc:5672/order-vhost");

  // Steady state: no API write; the next pass is the PushSecret's refresh.
  const auto writes = f.api.writes;
  auto r = f.w.pass();
  BOOST_TEST(r.writes == 0u);
  BOOST_TEST(f.api.writes == writes);
  BOOST_TEST_REQUIRE(r.next_pass.has_value());
  BOOST_TEST((*r.next_pass == f.now + std::chrono::hours(1)));
}

BOOST_AUTO_TEST_CASE(deletions_clean_the_broker_and_the_store_and_release_the_objects) {
  fixture f;
  f.populate();
  f.converge();
  for (auto [kind, name] : std::vector<std::pair<std::string, std::string>>{
           {"Permission", "p"}, {"User", "u"}, {"Vhost", "v"}, {"PushSecret", "ps"}}) {
    f.api.remove(f.api.find(kind, "cp", name));
  }
  f.converge();
  for (auto [kind, name] : std::vector<std::pair<std::string, std::string>>{
           {"Permission", "p"}, {"User", "u"}, {"Vhost", "v"}, {"PushSecret", "ps"}}) {
    BOOST_TEST_CONTEXT(kind) { BOOST_TEST(!static_cast<bool>(f.api.find(kind, "cp", name))); }
  }
  BOOST_TEST(f.broker->vhosts().empty());
  BOOST_TEST(!f.broker->user("order-user").has_value());
  BOOST_TEST(!f.openbao->get("kv/cp/order").has_value());
}

BOOST_AUTO_TEST_CASE(a_user_without_its_cluster_comes_back_in_ten_seconds) {
  fixture f;
  f.api.create(obj(R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"Vhost","metadata":{"name":"v","namespace":"cp"},
      "spec":{"name":"order-vhost","rabbitmqClusterReference":{"name":"absent"}}})"));
  auto r = f.w.pass();
  BOOST_TEST(r.writes == 0u);
  BOOST_TEST_REQUIRE(r.next_pass.has_value());
  BOOST_TEST((*r.next_pass == f.now + std::chrono::seconds(10)));
  BOOST_TEST(f.broker->calls() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

// `c5c3-sim world --no-topology-operator`: the clusters stay simulated, the topology kinds are
// left to a real operator (tests/real): no status, no finalizer, nothing on the broker.
BOOST_AUTO_TEST_CASE(without_the_topology_operator_the_topology_kinds_are_left_alone) {
  memory_api api;
  auto broker = std::make_shared<memory_broker>();
  world_options o;
  o.rabbitmq = broker;
  o.openbao = std::make_shared<kv_store>();
  o.clock = [] { return t0(); };
  o.random = counting_random();
  o.topology_operator = false;
  world w{api, o};
  api.create(obj(R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"RabbitmqCluster",
    "metadata":{"name":"rmq","namespace":"cp"},"spec":{"replicas":1}})"));
  api.create(obj(R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"Vhost","metadata":{"name":"v","namespace":"cp"},
    "spec":{"name":"order-vhost","rabbitmqClusterReference":{"name":"rmq"}}})"));
  for (int i = 0; i < 3; ++i) w.pass();
  BOOST_TEST(find_plain_condition(api.find("RabbitmqCluster", "cp", "rmq"), "AllReplicasReady").has_value());
  auto v = api.find("Vhost", "cp", "v");
  BOOST_TEST(!find_plain_condition(v, "Ready").has_value());
  BOOST_TEST(v.finalizers().empty());
  BOOST_TEST(!broker->vhosts().contains("order-vhost"));
}
