// orderPassResult, ShortestRequeue and aggregate Ready (apis.md 1.1).
#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/pass_result.hpp"
#include "tests/c5c3/snapshots.hpp"

#include <boost/test/unit_test.hpp>

#include <array>

using namespace c5c3::test;
using namespace std::chrono_literals;
using orders::requeue;

BOOST_AUTO_TEST_SUITE(scaffold_pass_result)

BOOST_AUTO_TEST_CASE(order_pass_result_table) {
  struct row {
    const char* sentence;
    std::string cluster;
    bool converged;
    requeue asked;
    requeue want;
  };
  const row rows[] = {
      {"a requeue a step asked for stands", "", true, 30s, 30s},
      {"a requeue a step asked for stands on a target cluster too", "edge-1", false, 10s, 10s},
      {"a converged order on the management cluster waits for an event", "", true, std::nullopt, std::nullopt},
      {"an unconverged order on the management cluster comes back after 10 minutes", "", false, std::nullopt, 10min},
      {"a converged order on a target cluster comes back after 10 minutes", "edge-1", true, std::nullopt, 10min},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      BOOST_TEST((orders::order_pass_result(r.cluster, r.converged, r.asked) == r.want));
    }
  }
}

BOOST_AUTO_TEST_CASE(shortest_requeue_and_requeue_at) {
  BOOST_TEST((orders::shortest_requeue(std::nullopt, 5s) == requeue(5s)));
  BOOST_TEST((orders::shortest_requeue(5s, std::nullopt) == requeue(5s)));
  BOOST_TEST((orders::shortest_requeue(5s, 3s) == requeue(3s)));
  BOOST_TEST((orders::shortest_requeue(std::nullopt, std::nullopt) == requeue()));
  BOOST_TEST((orders::requeue_at(std::nullopt, t0()) == requeue()));
  BOOST_TEST((orders::requeue_at(t0() + 90s, t0()) == requeue(90s)));
  BOOST_TEST((orders::requeue_at(t0() - 1s, t0()) == requeue(10s)));
}

BOOST_AUTO_TEST_CASE(aggregate_ready_table) {
  const std::array<std::string_view, 2> types{"VhostReady", "DeliveryReady"};
  auto cond = [](std::string type, bool status) {
    return k8s::condition{std::move(type), status ? "True" : "False", "R", "", "", 1};
  };
  struct row {
    const char* sentence;
    std::vector<k8s::condition> conds;
    bool ready;
    std::string reason;
  };
  const row rows[] = {
      {"True/AllReady when every sub-condition is True", {cond("VhostReady", true), cond("DeliveryReady", true)}, true,
       "AllReady"},
      {"False/NotAllReady when one is False", {cond("VhostReady", true), cond("DeliveryReady", false)}, false,
       "NotAllReady"},
      {"False/NotAllReady when one is missing", {cond("VhostReady", true)}, false, "NotAllReady"},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      auto ready = orders::aggregate_ready(r.conds, types, 7);
      BOOST_TEST(ready.type == "Ready");
      BOOST_TEST(ready.is_true() == r.ready);
      BOOST_TEST(ready.reason == r.reason);
      BOOST_TEST(ready.observed_generation == 7);
    }
  }
}

BOOST_AUTO_TEST_CASE(condition_messages_are_truncated_to_what_the_api_admits) {
  auto c = orders::make_condition("VhostReady", false, "VhostFailed", std::string(40000, 'x'), 1);
  BOOST_TEST(c.message.size() == 32768u);
}

BOOST_AUTO_TEST_SUITE_END()
