// The client's bound on requests on connections at once (client_config::
// max_connections, http.hpp http_transport): a burst waits for the bounded
// connections and reuses them instead of opening one per request (the
// emulator counts the connections it accepted), every request of the burst
// is answered, and a request whose deadline passes while it waits for a
// connection is given up before it is sent, never written later.
#include "harness.hpp"

#include <algorithm>

using namespace c5c3;
using namespace c5c3::testing;
using k8s::object;

namespace {

// Each create of a ConfigMap answered after `latency`, so a burst overlaps.
void slow_creates(sim::apiserver& server, std::chrono::milliseconds latency) {
  sim::fault_rule f;
  f.verb = "create";
  f.resource = "configmaps";
  f.latency = latency;
  server.add_fault(f);
}

// `n` creates sent at once; their answers.
std::vector<k8s::result<object>> burst(k8s::client& c, const std::string& prefix, int n) {
  std::vector<std::shared_ptr<std::promise<k8s::result<object>>>> ps;
  std::vector<std::future<k8s::result<object>>> fs;
  for (int i = 0; i < n; ++i) {
    ps.push_back(std::make_shared<std::promise<k8s::result<object>>>());
    fs.push_back(ps.back()->get_future());
    c.create(configmap("default", prefix + std::to_string(i), "x"), {"tester"},
             [p = ps.back()](k8s::result<object> r) { p->set_value(std::move(r)); });
  }
  std::vector<k8s::result<object>> out;
  for (auto& f : fs) {
    BOOST_TEST_REQUIRE((f.wait_for(deadline) == std::future_status::ready), "a request of the burst got no answer");
    out.push_back(f.get());
  }
  return out;
}

k8s::client_config one_connection(k8s::client_config cfg) {
  cfg.max_connections = 1;
  return cfg;
}

// A slow create on the client's one connection, under way at the server:
// the latency rule fired for it. (A connection accepted proves less: the
// create's discovery GET opens it first, and a later request could take the
// connection from it before the create is sent.)
std::future<k8s::result<object>> hold_the_connection(k8s::client& c, const sim::apiserver& server) {
  auto slow = std::make_shared<std::promise<k8s::result<object>>>();
  auto done = slow->get_future();
  auto fired = server.fault_counts().total;
  c.create(configmap("default", "holder", "1"), {"tester"}, [slow](k8s::result<object> r) { slow->set_value(r); });
  BOOST_TEST_REQUIRE(eventually([&] { return server.fault_counts().total > fired; }));
  return done;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(client_pool)

BOOST_FIXTURE_TEST_CASE(a_burst_waits_for_the_bounded_connections_and_reuses_them, emulator_fixture) {
  slow_creates(server, 150ms);
  auto cfg = base_config();
  cfg.max_connections = 2;
  auto c = make_client(cfg);
  auto before = server.connections_accepted();
  auto answers = burst(*c, "bounded-", 10);
  for (const auto& r : answers) BOOST_TEST(r.ok(), why(r));
  BOOST_TEST(server.connections_accepted() - before <= 2u);
  auto log = server.write_log();
  BOOST_TEST(std::count_if(log.begin(), log.end(), [](const sim::write_record& w) {
               return w.resource == "configmaps" && w.name.rfind("bounded-", 0) == 0 && w.code == 201;
             }) == 10);

  // The same burst without the bound opens a connection per request: the
  // latency makes them overlap, so the bound above is what held them to 2.
  auto unbounded_cfg = base_config();
  unbounded_cfg.max_connections = 0;
  auto u = make_client(unbounded_cfg);
  before = server.connections_accepted();
  for (const auto& r : burst(*u, "unbounded-", 10)) BOOST_TEST(r.ok(), why(r));
  BOOST_TEST(server.connections_accepted() - before > 2u);
}

// One connection, held by a slow create; a write whose deadline passes while
// it waits for that connection fails with the deadline's Timeout, says it was
// never sent, and the emulator never writes it (not even once the connection
// is free again).
BOOST_FIXTURE_TEST_CASE(a_deadline_passing_in_the_queue_sends_nothing, emulator_fixture) {
  slow_creates(server, 1500ms);
  auto c = make_client(one_connection(base_config()));
  auto slow_done = hold_the_connection(*c, server);
  k8s::write_options wo{"tester"};
  wo.deadline = std::chrono::steady_clock::now() + 300ms;
  auto r = await<object>([&](auto cb) { c->create(configmap("default", "queued", "2"), wo, cb); });
  BOOST_TEST_REQUIRE(!r.ok(), "the queued create was sent after its deadline");
  BOOST_TEST(k8s::is_deadline_exceeded(r.error()), r.error().describe());
  BOOST_TEST(r.error().message.find("was sent") != std::string::npos, r.error().message);
  BOOST_TEST(r.error().message.find("no connection") != std::string::npos, r.error().message);
  BOOST_TEST(r.error().message.find("ConfigMap default/queued") != std::string::npos, r.error().message);
  BOOST_TEST_REQUIRE((slow_done.wait_for(deadline) == std::future_status::ready));
  auto held = slow_done.get();
  BOOST_TEST(held.ok(), why(held));
  // The client is not wedged: a later create takes the freed connection.
  server.clear_faults();
  auto after = await<object>([&](auto cb) { c->create(configmap("default", "after", "3"), {"tester"}, cb); });
  BOOST_TEST(after.ok(), why(after));
  auto log = server.write_log();
  BOOST_TEST(std::none_of(log.begin(), log.end(), [](const sim::write_record& w) { return w.name == "queued"; }));
  BOOST_TEST(server.connections_accepted() == 1u);
}

// A Lease's request (a shard's renewal) never waits for the bound: with the
// one connection held by a slow create, it is answered on a second one.
BOOST_FIXTURE_TEST_CASE(a_lease_does_not_wait_for_the_bound, emulator_fixture) {
  slow_creates(server, 3000ms);
  auto c = make_client(one_connection(base_config()));
  auto slow_done = hold_the_connection(*c, server);
  k8s::object_builder b("coordination.k8s.io/v1", "Lease", "default", "replica-a");
  b.set_string({"spec", "holderIdentity"}, "replica-a");
  auto lease = await<object>([&](auto cb) { c->create(std::move(b).freeze(), {"tester"}, cb); });
  BOOST_TEST(lease.ok(), why(lease));
  BOOST_TEST(c->requests_waiting() == 0u);
  BOOST_TEST(server.connections_accepted() == 2u);
  BOOST_TEST_REQUIRE((slow_done.wait_for(deadline) == std::future_status::ready));
  BOOST_TEST(slow_done.get().ok());
}

// A client dropped, and its io_context with it, while a request waits for a
// connection frees that request's callback (which may own the client): the
// queue owns nothing that the io_context's shutdown does not free.
BOOST_FIXTURE_TEST_CASE(a_request_waiting_at_shutdown_is_freed, emulator_fixture) {
  slow_creates(server, 3000ms);
  auto cfg = base_config();
  cfg.max_connections = 1;
  std::weak_ptr<int> waiting_callback;
  {
    io_threads own;
    auto made = k8s::client::create(own.io, cfg);
    BOOST_TEST_REQUIRE(made.ok());
    auto c = made.value();
    c->create(configmap("default", "first", "1"), {"tester"}, [](k8s::result<object>) {});
    // "first" under way at the server (hold_the_connection says why not a connection accepted).
    BOOST_TEST_REQUIRE(eventually([&] { return server.fault_counts().total >= 1u; }));
    auto token = std::make_shared<int>(0);
    waiting_callback = token;
    // The callback owns the client, as a caller's callback may.
    c->create(configmap("default", "second", "2"), {"tester"}, [token, c](k8s::result<object>) {});
    BOOST_TEST_REQUIRE(eventually([&] { return c->requests_waiting() == 1u; }));
    c.reset();
    made = std::string("dropped");
  }
  BOOST_TEST(waiting_callback.expired());
}

BOOST_AUTO_TEST_SUITE_END()
