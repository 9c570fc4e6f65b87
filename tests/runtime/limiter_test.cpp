// The concurrency limiter with real order actors under the test coordinator.
#include "coordinator_fixture.hpp"

#include "actors/runtime/limiter.hpp"
#include "actors/runtime/order_actor.hpp"
#include "protocol/cluster_io.hpp"
#include "protocol/subscription.hpp"

using namespace c5c3;
using namespace c5c3::runtime;
using namespace c5c3::testing;
using namespace std::chrono_literals;
using protocol::order_key;
using protocol::order_phase;

namespace {

struct limiter_fixture : coordinator_fixture {
  std::shared_ptr<pass_log> log = std::make_shared<pass_log>();
  caf::actor gate = keep(sys.spawn(gate_actor, "gate"));

  caf::actor order(const caf::actor& limiter, int i, const std::string& cluster = "") {
    order_actor_config oc;
    oc.key = order_key{cluster, "ns", "order-" + std::to_string(i)};
    oc.pass = gated_pass(gate, log);
    oc.limiter = limiter;
    return keep(spawn_order_actor(sys, std::move(oc)));
  }

  bool release_any(pass_result r = pass_result::converged()) {
    return ask<bool>(gate, free_atom::value, order_key{}, std::move(r));
  }

  protocol::limiter_probe probe(const caf::actor& limiter) {
    return ask<protocol::limiter_probe>(limiter, protocol::probe_atom::value);
  }
  protocol::limiter_probe probe(const caf::actor& limiter, const std::string& cluster) {
    return ask<protocol::limiter_probe>(limiter, protocol::probe_atom::value, cluster);
  }
  int started_on(const std::string& cluster) const {
    int n = 0;
    for (std::size_t i = 0; i < log->keys.size(); ++i)
      if (log->keys[i].cluster == cluster) ++n;
    return n;
  }
};

// Asks the limiter for a token with a bare acquire_atom (and answers no
// probe_atom: an unexpected message), counting the grants.
struct bare_state {
  int grants = 0;
};
caf::behavior bare_acquirer(caf::stateful_actor<bare_state>* self, caf::actor limiter) {
  self->request(limiter, caf::infinite, protocol::acquire_atom::value)
      .then([self](protocol::grant_atom) { ++self->state.grants; });
  return {[self](count_atom) { return static_cast<std::uint32_t>(self->state.grants); }};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(concurrency_limiter)

BOOST_FIXTURE_TEST_CASE(the_limit_is_never_exceeded, limiter_fixture) {
  auto limiter = keep(spawn_limiter(sys, 2));
  std::vector<caf::actor> orders;
  for (int i = 0; i < 6; ++i) orders.push_back(order(limiter, i));
  for (auto& a : orders) caf::anon_send(a, protocol::wake_atom::value);
  run();
  BOOST_TEST(log->running == 2);
  auto p = probe(limiter);
  BOOST_TEST(p.max == 2u);
  BOOST_TEST(p.in_use == 2u);
  BOOST_TEST(p.waiting == 4u);
  // Wake-ups of waiting and running orders change nothing about the limit.
  for (auto& a : orders) caf::anon_send(a, protocol::wake_atom::value);
  run();
  BOOST_TEST(log->running == 2);
  // Finish passes one at a time; each frees a token for the next in line.
  int rounds = 0;
  while (log->running > 0 && rounds < 100) {
    BOOST_TEST(release_any());
    BOOST_TEST(log->running <= 2);
    ++rounds;
  }
  BOOST_TEST(log->max_running == 2);
  // Six first passes plus the two coalesced re-passes of the orders that were
  // running when woken again.
  BOOST_TEST(log->started == 8);
  p = probe(limiter);
  BOOST_TEST(p.in_use == 0u);
  BOOST_TEST(p.waiting == 0u);
  BOOST_TEST(p.peak == 2u);
}

BOOST_FIXTURE_TEST_CASE(a_limit_of_one_serialises_passes_in_arrival_order, limiter_fixture) {
  auto limiter = keep(spawn_limiter(sys, 0));  // below 1 counts as 1
  auto a = order(limiter, 1);
  auto b = order(limiter, 2);
  caf::anon_send(a, protocol::wake_atom::value);
  run();
  caf::anon_send(b, protocol::wake_atom::value);
  run();
  BOOST_TEST(log->started == 1);
  BOOST_TEST(probe_order(b).phase == static_cast<std::uint8_t>(order_phase::waiting_for_token));
  BOOST_TEST(release_any());
  BOOST_TEST(log->started == 2);
  BOOST_TEST(log->keys.back().name == "order-2");
  BOOST_TEST(log->max_running == 1);
}

BOOST_FIXTURE_TEST_CASE(a_dead_holder_gives_its_token_back, limiter_fixture) {
  auto limiter = keep(spawn_limiter(sys, 1));
  auto a = order(limiter, 1);
  auto b = order(limiter, 2);
  caf::anon_send(a, protocol::wake_atom::value);
  caf::anon_send(b, protocol::wake_atom::value);
  run();
  BOOST_TEST(log->started == 1);
  caf::anon_send_exit(a, caf::exit_reason::kill);  // dies holding the token
  run();
  BOOST_TEST(log->started == 2);
  BOOST_TEST(log->keys.back().name == "order-2");
  BOOST_TEST(probe(limiter).in_use == 1u);
}

BOOST_FIXTURE_TEST_CASE(a_dead_waiter_leaves_the_queue, limiter_fixture) {
  auto limiter = keep(spawn_limiter(sys, 1));
  auto a = order(limiter, 1);
  auto b = order(limiter, 2);
  auto c = order(limiter, 3);
  for (auto& x : {a, b, c}) caf::anon_send(x, protocol::wake_atom::value);
  run();
  BOOST_TEST(probe(limiter).waiting == 2u);
  caf::anon_send_exit(b, caf::exit_reason::kill);
  run();
  BOOST_TEST(probe(limiter).waiting == 1u);
  BOOST_TEST(release_any());
  BOOST_TEST(log->keys.back().name == "order-3");
  BOOST_TEST(probe(limiter).in_use == 1u);
}

BOOST_FIXTURE_TEST_CASE(stop_refuses_new_passes_and_waits_for_those_in_flight, limiter_fixture) {
  auto limiter = keep(spawn_limiter(sys, 1));
  auto a = order(limiter, 1);
  auto b = order(limiter, 2);
  caf::anon_send(a, protocol::wake_atom::value);
  caf::anon_send(b, protocol::wake_atom::value);
  run();
  self->monitor(limiter);
  auto stopped = self->request(limiter, caf::infinite, protocol::stop_atom::value);
  run();
  BOOST_TEST(self->mailbox().empty());  // a's pass is still in flight
  // The waiter was refused and went idle without a pass.
  BOOST_TEST(probe_order(b).phase == static_cast<std::uint8_t>(order_phase::idle));
  // A new request is refused too.
  auto err = ask_error(limiter, protocol::acquire_atom::value);
  BOOST_TEST((protocol::api_errc_of(err) == protocol::api_errc::shutting_down));
  // The pass in flight ends: the limiter answers ok and quits.
  BOOST_TEST(release_any());
  bool ok = false, down = false;
  stopped.receive([&](protocol::ok_atom) { ok = true; }, [](caf::error&) {});
  self->receive([&](caf::down_msg& dm) { down = dm.source == limiter.address(); });
  BOOST_TEST(ok);
  BOOST_TEST(down);
  BOOST_TEST(log->started == 1);
}

// Passes on one cluster that never come back (an unreachable target) hold
// that cluster's tokens only: an order on the management cluster still
// runs. With one pool for everything (before) it waited behind them.
BOOST_FIXTURE_TEST_CASE(a_cluster_whose_passes_hang_holds_only_its_own_tokens, limiter_fixture) {
  auto limiter = keep(spawn_limiter(sys, 2));
  std::vector<caf::actor> east;
  for (int i = 0; i < 3; ++i) east.push_back(order(limiter, i, "east"));
  for (auto& a : east) caf::anon_send(a, protocol::wake_atom::value);
  run();
  BOOST_TEST(started_on("east") == 2);
  BOOST_TEST(probe(limiter, "east").in_use == 2u);
  BOOST_TEST(probe(limiter, "east").waiting == 1u);
  // The gate never answers the east passes. A management order and another
  // target's order start at once.
  auto m = order(limiter, 10);
  auto w = order(limiter, 11, "west");
  caf::anon_send(m, protocol::wake_atom::value);
  caf::anon_send(w, protocol::wake_atom::value);
  run();
  BOOST_TEST(started_on("") == 1);
  BOOST_TEST(started_on("west") == 1);
  BOOST_TEST(probe_order(m).phase == static_cast<std::uint8_t>(order_phase::running));
  auto all = probe(limiter);
  BOOST_TEST(all.in_use == 4u);
  BOOST_TEST(all.waiting == 1u);
  BOOST_TEST(all.pools == 3u);
  BOOST_TEST(all.peak == 2u);  // no pool ever above its limit
  // The management pass ends; its pool goes, east's stays as it was.
  BOOST_TEST(ask<bool>(gate, free_atom::value, order_key{"", "ns", "order-10"}, pass_result::converged()));
  BOOST_TEST(probe(limiter, "").in_use == 0u);
  BOOST_TEST(probe(limiter).pools == 2u);
  BOOST_TEST(probe(limiter, "east").waiting == 1u);
}

BOOST_FIXTURE_TEST_CASE(acquire_may_name_its_cluster, limiter_fixture) {
  auto limiter = keep(spawn_limiter(sys, 1));
  auto a1 = self->request(limiter, caf::infinite, protocol::acquire_atom::value, std::string("a"));
  run();
  bool granted = false;
  a1.receive([&](protocol::grant_atom) { granted = true; }, [](caf::error&) {});
  BOOST_TEST(granted);
  // A second token of "a" waits; one of "b" does not.
  auto a2 = self->request(limiter, caf::infinite, protocol::acquire_atom::value, std::string("a"));
  run();
  BOOST_TEST(probe(limiter, "a").waiting == 1u);
  auto b = self->request(limiter, caf::infinite, protocol::acquire_atom::value, std::string("b"));
  run();
  granted = false;
  b.receive([&](protocol::grant_atom) { granted = true; }, [](caf::error&) {});
  BOOST_TEST(granted);
  // Giving back b's token leaves "a" waiting; giving back a's grants it.
  self->send(limiter, protocol::release_atom::value, std::string("b"));
  run();
  BOOST_TEST(probe(limiter, "a").waiting == 1u);
  self->send(limiter, protocol::release_atom::value, std::string("a"));
  run();
  granted = false;
  a2.receive([&](protocol::grant_atom) { granted = true; }, [](caf::error&) {});
  BOOST_TEST(granted);
  BOOST_TEST(probe(limiter, "a").in_use == 1u);
}

// One actor waiting in two pools, between others: its death takes both of
// its waits out (the limiter finds them by its index, not by a scan) and
// leaves the others' order as it was.
caf::behavior two_pool_waiter(caf::event_based_actor* self, caf::actor limiter) {
  for (const char* cluster : {"a", "b"})
    self->request(limiter, caf::infinite, protocol::acquire_atom::value, std::string(cluster))
        .then([](protocol::grant_atom) {});
  return {[](count_atom) { return std::uint32_t{0}; }};
}

BOOST_FIXTURE_TEST_CASE(a_waiter_of_two_pools_leaves_both_when_it_dies, limiter_fixture) {
  auto limiter = keep(spawn_limiter(sys, 1));
  auto a = order(limiter, 1, "a"), b = order(limiter, 2, "b");
  for (const auto& x : {a, b}) caf::anon_send(x, protocol::wake_atom::value);
  run();
  BOOST_TEST(log->running == 2);
  auto waiting_a = order(limiter, 3, "a");
  caf::anon_send(waiting_a, protocol::wake_atom::value);
  run();
  auto twice = sys.spawn(two_pool_waiter, limiter);
  run();
  auto waiting_b = order(limiter, 4, "b");
  caf::anon_send(waiting_b, protocol::wake_atom::value);
  run();
  BOOST_TEST(probe(limiter, "a").waiting == 2u);
  BOOST_TEST(probe(limiter, "b").waiting == 2u);
  caf::anon_send_exit(twice, caf::exit_reason::kill);
  run();
  BOOST_TEST(probe(limiter, "a").waiting == 1u);
  BOOST_TEST(probe(limiter, "b").waiting == 1u);
  // Each pool's next token goes to the order behind the dead one.
  BOOST_TEST(release_any());
  BOOST_TEST(release_any());
  BOOST_TEST(log->started == 4);
  BOOST_TEST(started_on("a") == 2);
  BOOST_TEST(started_on("b") == 2);
  BOOST_TEST(release_any());
  BOOST_TEST(release_any());
  BOOST_TEST(probe(limiter).in_use == 0u);
  BOOST_TEST(probe(limiter).pools == 0u);
}

BOOST_FIXTURE_TEST_CASE(a_bare_acquire_from_an_actor_without_a_probe_counts_against_management, limiter_fixture) {
  auto limiter = keep(spawn_limiter(sys, 1));
  auto holder = order(limiter, 1);  // an order actor on the management cluster
  caf::anon_send(holder, protocol::wake_atom::value);
  run();
  BOOST_TEST(log->running == 1);
  auto bare = keep(sys.spawn(bare_acquirer, limiter));
  run();
  BOOST_TEST(ask<std::uint32_t>(bare, count_atom::value) == 0u);
  BOOST_TEST(probe(limiter, "").waiting == 1u);
  BOOST_TEST(release_any());
  BOOST_TEST(ask<std::uint32_t>(bare, count_atom::value) == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(protocol_registry)

BOOST_FIXTURE_TEST_CASE(types_have_portable_names_and_api_errors_render, coordinator_fixture) {
  auto& types = sys.types();
  BOOST_TEST(types.portable_name(0, &typeid(protocol::order_key)) == "c5c3::protocol::order_key");
  BOOST_TEST(types.portable_name(0, &typeid(protocol::get_request)) ==
             "c5c3::protocol::get_request");
  BOOST_TEST(types.portable_name(0, &typeid(protocol::subscribe_request)) ==
             "c5c3::protocol::subscribe_request");
  auto err = protocol::make_error(k8s::make_conflict("", "secrets", "x", "the object has been modified"));
  auto text = sys.render(err);
  BOOST_TEST(text.find("conflict") == 0u);
  BOOST_TEST(text.find("secrets") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
