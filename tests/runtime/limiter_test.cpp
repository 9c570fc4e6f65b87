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

  caf::actor order(const caf::actor& limiter, int i) {
    order_actor_config oc;
    oc.key = order_key{"", "ns", "order-" + std::to_string(i)};
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
};

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
