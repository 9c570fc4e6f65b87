// The sync poller caches the cluster directory's synced answer: it follows
// the answer both ways, and a directory that no longer answers reads as not
// synced. CAF's normal scheduler with a short period; waits are bounded polls.
#include "actors/operator/sync_poller.hpp"
#include "protocol/clusters.hpp"
#include "protocol/registry.hpp"

#include <boost/test/unit_test.hpp>
#include <caf/all.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <thread>

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

// A stand-in directory answering synced_atom from `answer`.
caf::behavior fake_directory(caf::event_based_actor*, std::shared_ptr<std::atomic<bool>> answer) {
  return {[answer](c5c3::protocol::synced_atom) { return answer->load(); }};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sync_poller)

BOOST_AUTO_TEST_CASE(follows_the_directory_and_reads_false_once_it_is_gone) {
  caf::actor_system_config cfg;
  c5c3::protocol::register_types(cfg);
  caf::actor_system sys{cfg};
  auto answer = std::make_shared<std::atomic<bool>>(false);
  auto synced = std::make_shared<std::atomic<bool>>(false);
  auto dir = sys.spawn(fake_directory, answer);
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

BOOST_AUTO_TEST_SUITE_END()
