// The sync poller caches the cluster directory's synced answer: it follows
// the answer both ways, and a directory that no longer answers reads as not
// synced. It publishes each target cluster's health as gauges and logs a
// change of reachability once. CAF's normal scheduler with a short period;
// waits are bounded polls of what the poller did (answers it got, lines it
// wrote), never a fixed delay.
#include "actors/operator/sync_poller.hpp"
#include "tests/captured_log.hpp"
#include "protocol/clusters.hpp"
#include "protocol/registry.hpp"

#include <boost/test/unit_test.hpp>
#include <caf/all.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;

bool eventually(const std::function<bool()>& cond) {
  auto end = std::chrono::steady_clock::now() + 30s;
  while (!cond()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

// What the stand-in directory answers to health_atom, and how often it did.
struct health_script {
  std::mutex mu;
  std::vector<c5c3::protocol::cluster_health> answer;
  int asked = 0;

  void set(std::vector<c5c3::protocol::cluster_health> a) {
    std::lock_guard<std::mutex> l(mu);
    answer = std::move(a);
  }
  int count() {
    std::lock_guard<std::mutex> l(mu);
    return asked;
  }
};

// A stand-in directory answering synced_atom from `answer`, health_atom from `health`.
caf::behavior fake_directory(caf::event_based_actor*, std::shared_ptr<std::atomic<bool>> answer,
                             std::shared_ptr<health_script> health) {
  return {
      [answer](c5c3::protocol::synced_atom) { return answer->load(); },
      [health](c5c3::protocol::health_atom) {
        std::lock_guard<std::mutex> l(health->mu);
        ++health->asked;
        return health->answer;
      },
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sync_poller)

BOOST_AUTO_TEST_CASE(follows_the_directory_and_reads_false_once_it_is_gone) {
  caf::actor_system_config cfg;
  c5c3::protocol::register_types(cfg);
  caf::actor_system sys{cfg};
  auto answer = std::make_shared<std::atomic<bool>>(false);
  auto synced = std::make_shared<std::atomic<bool>>(false);
  auto dir = sys.spawn(fake_directory, answer, std::make_shared<health_script>());
  auto poller = c5c3::operator_::spawn_sync_poller(sys, dir, synced, std::chrono::milliseconds(5));

  BOOST_TEST(!synced->load());
  answer->store(true);
  BOOST_TEST(eventually([&] { return synced->load(); }));
  answer->store(false);
  BOOST_TEST(eventually([&] { return !synced->load(); }));
  answer->store(true);
  BOOST_TEST_REQUIRE(eventually([&] { return synced->load(); }));

  caf::scoped_actor self{sys};
  caf::anon_send_exit(dir, caf::exit_reason::user_shutdown);
  self->wait_for(dir);
  BOOST_TEST(eventually([&] { return !synced->load(); }));

  caf::anon_send_exit(poller, caf::exit_reason::user_shutdown);
  self->wait_for(poller);
}

BOOST_AUTO_TEST_CASE(target_health_becomes_gauges_and_one_line_per_change) {
  caf::actor_system_config cfg;
  c5c3::protocol::register_types(cfg);
  caf::actor_system sys{cfg};
  auto health = std::make_shared<health_script>();
  auto dir = sys.spawn(fake_directory, std::make_shared<std::atomic<bool>>(true), health);
  c5c3::testing::captured_log out;
  c5c3::runtime::metrics::registry reg;
  c5c3::operator_::poller_options po;
  po.period = std::chrono::milliseconds(2);
  // -v 2: a repeated state is logged again at debug, which shows the poller
  // went on polling; the change itself is logged once at its level.
  po.log = c5c3::k8s::log::logger({c5c3::k8s::log::level::info, 2, out.sink(), {}});
  po.registry = &reg;
  auto poller = c5c3::operator_::spawn_sync_poller(sys, dir, std::make_shared<std::atomic<bool>>(false), po);
  const std::string up = "c5c3_target_cluster_reachable{cluster=\"east\"} 1\n";
  const std::string down = "c5c3_target_cluster_reachable{cluster=\"east\"} 0\n";
  const std::string unreachable = "\"msg\":\"Target cluster unreachable\"";
  const std::string back = "\"msg\":\"Target cluster reachable\"";
  const std::string warn = "\"level\":\"warn\"", info = "\"level\":\"info\"", debug = "\"level\":\"debug\"";
  auto rendered = [&](const std::string& needle) { return reg.render().find(needle) != std::string::npos; };

  health->set({{"", true, true, true, ""}, {"east", true, true, true, ""}});
  BOOST_TEST(eventually([&] { return rendered(up); }));
  BOOST_TEST(rendered("c5c3_target_cluster_synced{cluster=\"east\"} 1\n"));

  health->set({{"", true, true, true, ""}, {"east", false, true, false, "GET /api: transport error: timed out"}});
  BOOST_TEST(eventually([&] { return rendered(down) && out.count({unreachable, debug}) >= 5; }));
  BOOST_TEST(out.count({unreachable, warn}) == 1);  // once per change, not per poll
  BOOST_TEST(out.count({unreachable, warn, "timed out", "\"cluster\":\"east\""}) == 1);

  health->set({{"", true, true, true, ""}, {"east", true, true, true, ""}});
  BOOST_TEST(eventually([&] { return rendered(up) && out.count({back, info}) == 1; }));
  // Polls go on: the recovery is not logged again.
  int polled = health->count();
  BOOST_TEST(eventually([&] { return health->count() >= polled + 10; }));
  BOOST_TEST(out.count({back}) == 1);
  BOOST_TEST(out.count({unreachable, warn}) == 1);

  // Disengaged: its series go.
  health->set({{"", true, true, true, ""}});
  BOOST_TEST(eventually([&] { return !rendered("cluster=\"east\""); }));

  caf::scoped_actor self{sys};
  for (auto& a : {poller, dir}) {
    caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
    self->wait_for(a);
  }
}

BOOST_AUTO_TEST_SUITE_END()
