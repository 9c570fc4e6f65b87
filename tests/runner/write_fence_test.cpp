// The runner's write fence under CAF's test coordinator: every write carries a
// deadline shorter than the request timeout the runner waits for it
// (runner.hpp write_deadline), capped by the ring's write fence when sharded
// (shard/lease_fence.hpp); and an order actor retired after its pass gave up
// on a write does not quit (the host's drain does not complete) until that
// write's request has answered or timed out, past the write's deadline.
#include "actors/runtime/order_actor.hpp"
#include "actors/runtime/runner/declaration.hpp"
#include "actors/runtime/runner/runner.hpp"
#include "actors/runtime/shard/lease_fence.hpp"
#include "tests/rabbitmqvhost_actor/fake_world.hpp"
#include "tests/runtime/coordinator_fixture.hpp"

#include <boost/test/unit_test.hpp>

namespace c5c3::testing {
namespace {

namespace rt = ::c5c3::runtime;
using namespace std::chrono_literals;

const k8s::gvk widget{"test.c5c3.io", "v1", "Widget"};
const rt::ownership_keys keys{"test.c5c3.io/widget-name", "test.c5c3.io/widget-namespace",
                              "test.c5c3.io/widget-cluster"};

// One plan: create the ConfigMap `made`, then write the order's status.
std::shared_ptr<rt::kind_declaration> writing_kind() {
  auto k = std::make_shared<rt::kind_declaration>();
  k->controller = "widget";
  k->gvk = widget;
  k->keys = keys;
  k->admission = false;
  k->plan = [](const rt::sense_snapshot& s) {
    rt::order_plan p;
    if (s.order.get_string({"status", "done"}) == "yes") return p;
    k8s::object_builder cm("v1", "ConfigMap", "tenant-a", "made");
    p.writes = {rt::make_create(std::move(cm).freeze())};
    p.replan_after_writes = false;  // the status after the create, in the same plan
    auto b = s.order.edit();
    b.set_string({"status", "done"}, "yes");
    p.status = std::move(b).freeze();
    return p;
  };
  return k;
}

// What the recorder saw of each write: "<Kind>/<name>" and how long its
// deadline left when it arrived (the steady clock).
struct seen_write {
  std::string what;
  std::optional<std::chrono::nanoseconds> left;
};
struct recorder_state {
  std::vector<seen_write> writes;
  bool hold = false;  // never answer the writes (an API server that does not)
  std::vector<caf::response_promise> held;
};

std::optional<std::chrono::nanoseconds> left_of(protocol::write_deadline d) {
  auto at = protocol::deadline_of(d);
  if (!at) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::nanoseconds>(*at - std::chrono::steady_clock::now());
}

// In front of the fake cluster: records every write's deadline, then passes
// it on (or holds it).
caf::behavior recorder(caf::stateful_actor<recorder_state>* self, caf::actor cluster) {
  auto pass_on = [self, cluster](std::string what, protocol::write_deadline d, auto req) -> caf::result<k8s::object> {
    self->state.writes.push_back({std::move(what), left_of(d)});
    auto rp = self->make_response_promise<k8s::object>();
    if (self->state.hold) {
      self->state.held.push_back(rp);
      return rp;
    }
    self->request(cluster, caf::infinite, std::move(req))
        .then([rp](k8s::object& o) mutable { rp.deliver(std::move(o)); },
              [rp](caf::error& e) mutable { rp.deliver(std::move(e)); });
    return rp;
  };
  return {
      [pass_on](protocol::create_request& r) {
        return pass_on(std::string(r.obj.kind()) + "/" + std::string(r.obj.name()), r.options.deadline, r);
      },
      [pass_on](protocol::update_request& r) {
        return pass_on(std::string(r.obj.kind()) + "/" + std::string(r.obj.name()) +
                           (r.subresource.empty() ? "" : "/" + r.subresource),
                       r.options.deadline, r);
      },
      [pass_on](protocol::patch_request& r) {
        return pass_on(r.ref.gvk.kind + "/" + r.ref.name, r.options.deadline, r);
      },
      [self, cluster](protocol::get_request& r) { return self->delegate(cluster, std::move(r)); },
      [self, cluster](protocol::list_request& r) { return self->delegate(cluster, std::move(r)); },
      [self, cluster](protocol::read_batch& b) { return self->delegate(cluster, std::move(b)); },
  };
}

struct fence_fixture : coordinator_fixture {
  std::shared_ptr<fake_store> store = std::make_shared<fake_store>();
  caf::actor cluster;
  caf::actor rec;
  rt::runner_deps deps;

  fence_fixture() {
    fake_store_put(*store, test::parse(R"({"apiVersion":"test.c5c3.io/v1","kind":"Widget",
      "metadata":{"name":"w","namespace":"tenant-a"},"spec":{"x":1}})"), false);
    cluster = keep(sys.spawn(fake_cluster, store));
    rec = keep(sys.spawn(recorder, cluster));
    deps.clusters = keep(sys.spawn(fake_directory, rec));
    deps.timeout = 30s;
  }

  caf::actor start(rt::order_actor_options options = {}) {
    rt::order_actor_config cfg;
    cfg.key = {"", "tenant-a", "w"};
    cfg.pass = rt::make_runner_pass(writing_kind(), deps);
    cfg.options = options;
    auto a = keep(rt::spawn_order_actor(sys, std::move(cfg)));
    self->send(a, protocol::order_update{*store->get("Widget", "tenant-a", "w"), true});
    run();
    return a;
  }

  std::vector<seen_write> writes() {
    auto* r = caf::actor_cast<caf::abstract_actor*>(rec);
    return static_cast<caf::stateful_actor<recorder_state>*>(r)->state.writes;
  }
  void hold_writes() {
    auto* r = caf::actor_cast<caf::abstract_actor*>(rec);
    static_cast<caf::stateful_actor<recorder_state>*>(r)->state.hold = true;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(runner_write_fence)

BOOST_AUTO_TEST_CASE(the_write_deadline_is_the_timeout_less_a_margin_capped_by_the_fence) {
  const auto t0 = std::chrono::steady_clock::time_point{} + 1h;
  struct row {
    caf::timespan timeout;
    std::optional<std::chrono::nanoseconds> fence_left;
    std::chrono::nanoseconds expect;
  };
  const row rows[] = {
      {30s, std::nullopt, 25s},  // a fifth, at most 5 s
      {10s, std::nullopt, 8s},
      {60s, std::nullopt, 55s},
      {30s, 3s, 3s},              // the Lease is held 3 s more
      {30s, 40s, 25s},            // held longer than the write is waited for
      {30s, 0s, 0s},              // not held: no write may start
      {30s, -5s, 0s},             // lapsed
  };
  for (const auto& r : rows)
    BOOST_TEST((rt::write_deadline(t0, r.timeout, r.fence_left) - t0 == r.expect),
               "timeout " << r.timeout.count() << " fence " << (r.fence_left ? r.fence_left->count() : -1));
}

BOOST_FIXTURE_TEST_CASE(every_write_carries_a_deadline_shorter_than_its_timeout, fence_fixture) {
  start();
  auto seen = writes();
  BOOST_REQUIRE(seen.size() == 2u);
  BOOST_TEST(seen[0].what == "ConfigMap/made");
  BOOST_TEST(seen[1].what == "Widget/w/status");
  for (const auto& w : seen) {
    BOOST_REQUIRE(w.left.has_value());
    BOOST_TEST((*w.left <= 25s && *w.left > 15s), w.what << " " << w.left->count());
  }
  BOOST_TEST(store->get("Widget", "tenant-a", "w")->get_string({"status", "done"}) == "yes");
}

BOOST_FIXTURE_TEST_CASE(a_sharded_replica_caps_its_writes_by_its_lease, fence_fixture) {
  auto fence = std::make_shared<rt::shard::lease_fence>();
  fence->hold_until(std::chrono::system_clock::now() + 3s);
  deps.fence = fence;
  start();
  auto seen = writes();
  BOOST_REQUIRE(seen.size() == 2u);
  for (const auto& w : seen) {
    BOOST_REQUIRE(w.left.has_value());
    BOOST_TEST((*w.left <= 3s && *w.left > 0s), w.what << " " << w.left->count());
  }
}

BOOST_FIXTURE_TEST_CASE(a_lapsed_lease_leaves_every_write_past_its_deadline, fence_fixture) {
  deps.fence = std::make_shared<rt::shard::lease_fence>();  // never held
  start();
  auto seen = writes();
  BOOST_REQUIRE(!seen.empty());
  BOOST_REQUIRE(seen[0].left.has_value());
  BOOST_TEST((*seen[0].left <= 0s), seen[0].left->count());  // the client sends no attempt of it
}

// The pass gives up on a write the API server never answers (its deadline,
// 10 s, comes first); retired then, the actor stays until the write's request
// times out (30 s), past the write's own deadline (25 s): the host's drain,
// which waits for the actor to go, cannot complete while the write may be sent.
BOOST_FIXTURE_TEST_CASE(a_drain_does_not_complete_while_a_write_may_be_sent, fence_fixture) {
  hold_writes();
  rt::order_actor_options options;
  options.pass_deadline = 10s;
  auto a = start(options);
  self->monitor(a);
  advance(10s);
  auto p = ask<protocol::order_probe>(a, protocol::probe_atom::value);
  BOOST_TEST(p.passes_finished == 1u);
  BOOST_TEST(p.last_error.find("deadline") != std::string::npos, p.last_error);
  BOOST_TEST(p.writes_in_flight == 1u);
  self->send(a, protocol::retire_atom::value);
  run();
  advance(19s);  // 29 s after the write went out
  BOOST_TEST(self->mailbox().empty());
  BOOST_TEST(ask<protocol::order_probe>(a, protocol::probe_atom::value).writes_in_flight == 1u);
  advance(1s);
  bool down = false;
  self->receive([&](caf::down_msg& dm) { down = dm.source == a.address(); });
  BOOST_TEST(down);
  BOOST_TEST(writes().size() == 1u);  // the status write never went out
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
