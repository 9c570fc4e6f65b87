// A target cluster that accepts TCP connections and never answers (a TCP
// proxy in front of the target emulator that goes dark) must not hold up the
// orders of other clusters: its passes hang holding tokens of its own pool
// only (actors/runtime/limiter.hpp), and the management cluster's orders
// still converge; nor may it make the operator unready: the directory's
// synced answer (/readyz) follows the management cluster, and the target's
// health tells it is unreachable.
#include "tests/cluster/kind_fixture.hpp"
#include "tests/tcp_proxy.hpp"

#include <boost/test/unit_test.hpp>

#include <memory>

namespace c5c3::testing {
namespace {

// The target's passes and requests wait far longer than any bounded wait of
// the test: a pass that hangs there holds its token for the whole case.
kind_options hanging_target() {
  kind_options o;
  o.pass_timeout = std::chrono::minutes(10);
  o.tune_target = [](k8s::client_config& c) {
    fast_retries(c);
    c.request_timeout = std::chrono::minutes(10);
  };
  return o;
}

// `kubeconfig` with the server's port replaced by `port`.
std::string via_port(std::string kubeconfig, std::uint16_t from, std::uint16_t port) {
  auto old = "127.0.0.1:" + std::to_string(from);
  auto at = kubeconfig.find(old);
  BOOST_TEST_REQUIRE(at != std::string::npos);
  return kubeconfig.replace(at, old.size(), "127.0.0.1:" + std::to_string(port));
}

struct dark_target_fixture : kind_fixture {
  std::unique_ptr<tcp_proxy> proxy;
  dark_target_fixture() : kind_fixture(hanging_target()) {
    proxy = std::make_unique<tcp_proxy>(target.port());
  }
  ~dark_target_fixture() {
    // The cluster actors go first (the base's destructor): stop the target's
    // before the proxy so nothing reconnects meanwhile.
    disengage("east");
    eventually([&] { return !lookup("east"); });
  }
};

// Requests to the target give up after a second.
kind_options impatient_target() {
  kind_options o;
  o.tune_target = [](k8s::client_config& c) {
    fast_retries(c);
    c.request_timeout = std::chrono::seconds(1);
  };
  return o;
}

struct black_hole_fixture : kind_fixture {
  tcp_proxy hole{0};  // dark from the start: accepts, never answers, forwards nowhere
  black_hole_fixture() : kind_fixture(impatient_target()) { hole.go_dark(); }
  ~black_hole_fixture() {
    disengage("hole");
    eventually([&] { return !lookup("hole"); });
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(unreachable_target)

BOOST_FIXTURE_TEST_CASE(a_target_that_never_answers_leaves_the_operator_ready, black_hole_fixture) {
  engage("hole", via_port(target.kubeconfig_yaml(), target.port(), hole.port()));
  BOOST_TEST_REQUIRE(eventually([&] { return hole.accepted() >= 1; }));
  // Its first request times out: unreachable, not synced, the error said.
  BOOST_TEST_REQUIRE(eventually([&] {
    auto h = health("hole");
    return h.known && !h.reachable;
  }));
  auto h = health("hole");
  BOOST_TEST(!h.synced);
  BOOST_TEST(h.error.find("timeout") != std::string::npos, h.error);
  // The directory stays synced (before, it answered false while any engaged
  // target had not synced), and an order on the management cluster converges.
  caf::scoped_actor self{sys};
  BOOST_TEST(synced(self));
  auto made = write(management, protocol::create_request{gadget("m2"), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(made), why(made));
  BOOST_TEST(eventually([&] { return passes(server.get_object("gadgets.test.c5c3.io", "default", "m2")) == 1; }));
}

BOOST_FIXTURE_TEST_CASE(passes_hanging_on_a_dark_target_do_not_hold_up_management_orders, dark_target_fixture) {
  caf::actor east = engage("east", via_port(target.kubeconfig_yaml(), target.port(), proxy->port()));
  // Three orders on the target, each through one pass while it still answers.
  std::vector<protocol::order_key> keys;
  for (int i = 0; i < 3; ++i) {
    keys.push_back({"east", "default", "t" + std::to_string(i)});
    auto made = write(east, protocol::create_request{gadget(keys.back().name), {}});
    BOOST_TEST_REQUIRE(static_cast<bool>(made), why(made));
  }
  BOOST_TEST_REQUIRE(eventually([&] {
    for (const auto& k : keys)
      if (passes(target.get_object("gadgets.test.c5c3.io", "default", k.name)) < 1) return false;
    return true;
  }));
  // And each first pass has had its answer (its token is back). The server
  // shows a patch before its answer has come back through the proxy: going
  // dark in between hung a first pass, which the count below does not see
  // (it failed so under load: "tokens in use 2, waiting 1, hung passes 1").
  BOOST_TEST_REQUIRE(eventually([&] { return pool(std::string("east")).in_use == 0; }));

  // The target stops answering. A child on the management cluster wakes
  // each of its orders; their passes send a status patch that never comes
  // back, and hold both tokens of the target's pool (the third waits).
  proxy->go_dark();
  for (const auto& k : keys) {
    auto c = add_child(k, k.name + "-child");
    BOOST_TEST_REQUIRE(static_cast<bool>(c), why(c));
  }
  auto hung = [&] {
    int n = 0;
    for (const auto& k : keys) n += rec->count(k) - 1;
    return n;
  };
  // (At least two passes: under load a hung pass may time out after 10 s and
  // be retried before this looks, so the count may be past two by then.)
  auto all = [&] { return pool(std::nullopt); };  // all pools: only the target's passes run now
  bool held = eventually([&] {
    auto p = all();
    return p.in_use == 2 && p.waiting == 1 && hung() >= 2;
  });
  auto seen = all();
  BOOST_TEST_REQUIRE(held, "tokens in use " << seen.in_use << ", waiting " << seen.waiting << ", hung passes "
                                            << hung() << ", pass errors: " << errors());

  // An order on the management cluster converges meanwhile. With one token
  // pool for every cluster it waited for a hung pass to give up (10 minutes),
  // and this bounded wait would fail.
  auto made = write(management, protocol::create_request{gadget("m1"), {}});
  BOOST_TEST_REQUIRE(static_cast<bool>(made), why(made));
  BOOST_TEST(eventually([&] { return passes(server.get_object("gadgets.test.c5c3.io", "default", "m1")) == 1; }));
  // The target's passes still hang, holding their pool's two tokens.
  auto east_pool = pool(std::string("east"));
  BOOST_TEST(east_pool.in_use == 2u);
  BOOST_TEST(east_pool.waiting == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
