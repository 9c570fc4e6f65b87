// The order actor's account of the versions its host delivered
// (pass_context::delivered): every version since the previous pass began,
// in the order they came, filtered updates too; the runner's memo orders its
// own writes' answers by it (tests/runner/memo_delivery_test.cpp). A child's
// event that the last pass calls the echo of its own write wakes no pass.
#include "coordinator_fixture.hpp"

#include "actors/runtime/order_actor.hpp"

using namespace c5c3;
using namespace c5c3::runtime;
using namespace c5c3::testing;

namespace {

using strings = std::vector<std::string>;

k8s::object secret_at(const std::string& rv) {
  k8s::object_builder b{"v1", "Secret", "monitoring-operator", "ra"};
  b.set_resource_version(rv);
  return std::move(b).freeze();
}

struct delivery_fixture : registry_holder, coordinator_fixture {
  std::shared_ptr<pass_log> log = std::make_shared<pass_log>();
  caf::actor gate = keep(sys.spawn(gate_actor, "gate"));
  caf::actor actor;

  delivery_fixture() {
    order_actor_config oc;
    oc.key = {"", "monitoring-operator", "ra"};
    oc.pass = gated_pass(gate, log);
    actor = keep(spawn_order_actor(sys, std::move(oc)));
  }
  void deliver(const std::string& rv, bool wake = true) {
    caf::anon_send(actor, protocol::order_update{secret_at(rv), wake});
    run();
  }
  // An event of the order's child ConfigMap ra-cm on `cluster`, at `rv`.
  void child_event(const std::string& cluster, const std::string& rv) {
    k8s::object_builder b{"v1", "ConfigMap", "monitoring-operator", "ra-cm"};
    b.set_resource_version(rv);
    caf::anon_send(actor, protocol::child_update{cluster, std::move(b).freeze()});
    run();
  }
  bool release() { return ask<bool>(gate, free_atom::value, protocol::order_key{}, pass_result::converged()); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(order_actor_delivery)

BOOST_FIXTURE_TEST_CASE(each_pass_is_told_every_version_delivered_since_the_previous_began, delivery_fixture) {
  deliver("55");
  BOOST_TEST_REQUIRE(log->started == 1);
  BOOST_TEST(log->delivered.back() == strings{"55"}, boost::test_tools::per_element());
  BOOST_TEST(log->delivered_all.back());
  // During the pass: a filtered update (status only), then a user's edit.
  deliver("56", false);
  deliver("58");
  BOOST_TEST(release());
  BOOST_TEST_REQUIRE(log->started == 2);
  BOOST_TEST(log->delivered.back() == (strings{"56", "58"}), boost::test_tools::per_element());
  BOOST_TEST(log->delivered_all.back());
  BOOST_TEST(release());
  // Idle: a filtered update starts no pass; the next pass is told it too.
  deliver("59", false);
  BOOST_TEST(log->started == 2);
  deliver("60");
  BOOST_TEST_REQUIRE(log->started == 3);
  BOOST_TEST(log->delivered.back() == (strings{"59", "60"}), boost::test_tools::per_element());
  BOOST_TEST(release());
}

BOOST_FIXTURE_TEST_CASE(an_account_longer_than_kept_says_it_is_not_all, delivery_fixture) {
  deliver("1");
  for (int i = 2; i < 100; ++i) deliver(std::to_string(i), false);
  BOOST_TEST(release());
  deliver("100");
  BOOST_TEST_REQUIRE(log->started == 2);
  BOOST_TEST(!log->delivered_all.back());
  BOOST_TEST(log->delivered.back().back() == "100");
  BOOST_TEST(release());
  deliver("101");
  BOOST_TEST_REQUIRE(log->started == 3);
  BOOST_TEST(log->delivered_all.back());  // a new account each pass
  BOOST_TEST(log->delivered.back() == strings{"101"}, boost::test_tools::per_element());
  BOOST_TEST(release());
}

BOOST_FIXTURE_TEST_CASE(a_childs_echo_of_the_orders_own_write_wakes_no_pass, delivery_fixture) {
  auto child = [&](const std::string& rv) { child_event("target-1", rv); };
  // Before any pass said what its writes answered, every child event wakes.
  deliver("55");
  BOOST_TEST_REQUIRE(log->started == 1);
  BOOST_TEST(release());
  child("6");
  BOOST_TEST_REQUIRE(log->started == 2);
  // This pass's write answered version 7 of the ConfigMap.
  strings asked;
  auto r = pass_result::converged();
  r.echo = [&asked](const std::string& cluster, const k8s::object& o, caf::actor_clock::time_point) {
    asked.push_back(cluster + " " + std::string(o.name()) + " " + std::string(o.resource_version()));
    return o.resource_version() == "7";
  };
  BOOST_TEST(ask<bool>(gate, free_atom::value, protocol::order_key{}, r));
  child("7");
  BOOST_TEST(log->started == 2);  // the echo: no pass
  BOOST_TEST(probe_order(actor).echoes == 1u);
  child("8");  // somebody else's version: a pass
  BOOST_TEST_REQUIRE(log->started == 3);
  BOOST_TEST(asked == (strings{"target-1 ra-cm 7", "target-1 ra-cm 8"}), boost::test_tools::per_element());
  // During that pass, the echo is judged when it ends, and coalesces nothing.
  child("7");
  BOOST_TEST(release());
  BOOST_TEST(log->started == 3);
  // A plain wake and an order update wake whatever the echo says.
  caf::anon_send(actor, protocol::wake_atom::value);
  run();
  BOOST_TEST_REQUIRE(log->started == 4);
  BOOST_TEST(release());
  BOOST_TEST(probe_order(actor).echoes == 2u);
}

BOOST_FIXTURE_TEST_CASE(a_childs_event_during_a_pass_is_judged_when_the_pass_ends, delivery_fixture) {
  auto child = [&](const std::string& rv) { child_event("", rv); };
  auto ending = [](std::string echo_rv) {
    auto r = pass_result::converged();
    r.echo = [echo_rv](const std::string&, const k8s::object& o, caf::actor_clock::time_point) {
      return o.resource_version() == echo_rv;
    };
    return r;
  };
  // The first pass: the event of its write overtakes the write's answer,
  // and the pass's own answer to the question, which comes only as it ends,
  // says it was the echo: no second pass.
  deliver("55");
  BOOST_TEST_REQUIRE(log->started == 1);
  child("7");
  BOOST_TEST(ask<bool>(gate, free_atom::value, protocol::order_key{}, ending("7")));
  BOOST_TEST(log->started == 1);
  BOOST_TEST(probe_order(actor).echoes == 1u);
  // During the next pass, somebody else's version: one more pass after it.
  deliver("56");
  BOOST_TEST_REQUIRE(log->started == 2);
  child("7");
  child("8");
  BOOST_TEST(ask<bool>(gate, free_atom::value, protocol::order_key{}, ending("7")));
  BOOST_TEST_REQUIRE(log->started == 3);
  BOOST_TEST(release());
  BOOST_TEST(log->started == 3);
  BOOST_TEST(probe_order(actor).echoes == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
