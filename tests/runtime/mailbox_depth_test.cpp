// mailbox_depth on CAF's normal scheduler.
// 1. Exact: an actor's handler waits until the test has sent it `n` more
//    messages, then reads its own depth: it must be n (a stub answering 0,
//    or a count that misses the inbox, fails here).
// 2. The path where CAF 0.17's queues cast their sentinel node (which the
//    sanitizer build must not stop on): depths read while messages trickle
//    in, and an idle mailbox reads 0.
#include "actors/runtime/mailbox_depth.hpp"

#include <boost/test/unit_test.hpp>
#include <caf/all.hpp>

#include <chrono>
#include <future>
#include <memory>
#include <thread>

namespace {

using depth_atom = caf::atom_constant<caf::atom("depth")>;
using hold_atom = caf::atom_constant<caf::atom("hold")>;

// One argument besides self (CAF 0.17 and UBSan, see actors/runtime/README.md).
caf::behavior reporter(caf::event_based_actor* self, std::shared_ptr<std::shared_future<void>> gate) {
  return {
      [self](depth_atom, int) { return static_cast<std::uint64_t>(c5c3::runtime::mailbox_depth(self)); },
      // Waits for the gate (the test sends more meanwhile), then reports.
      [self, gate](hold_atom) {
        gate->wait();
        return static_cast<std::uint64_t>(c5c3::runtime::mailbox_depth(self));
      },
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(mailbox_depth)

BOOST_AUTO_TEST_CASE(depth_counts_the_messages_waiting) {
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  std::promise<void> open;
  auto gate = std::make_shared<std::shared_future<void>>(open.get_future().share());
  // Detached: its handler may block without taking a scheduler thread.
  auto a = sys.spawn<caf::detached>(reporter, gate);
  caf::scoped_actor self{sys};
  auto held = self->request(a, caf::infinite, hold_atom::value);
  constexpr int n = 7;
  for (int i = 0; i < n; ++i) self->send(a, depth_atom::value, i);
  // Every send has been enqueued when send() returns; now let it read.
  open.set_value();
  std::uint64_t depth = 0;
  held.receive([&](std::uint64_t d) { depth = d; }, [](caf::error&) {});
  // The hold message itself is being handled; the n depth requests wait.
  BOOST_TEST(depth == static_cast<std::uint64_t>(n));
  // They are answered in order, each seeing the ones behind it.
  for (int i = 0; i < n; ++i) {
    std::uint64_t d = 99;
    self->receive([&](std::uint64_t x) { d = x; }, caf::after(std::chrono::seconds(30)) >> [] {});
    BOOST_TEST(d < static_cast<std::uint64_t>(n));
  }
  caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
}

BOOST_AUTO_TEST_CASE(depth_is_read_while_messages_trickle_in) {
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  std::promise<void> never_used;
  auto gate = std::make_shared<std::shared_future<void>>(never_used.get_future().share());
  auto a = sys.spawn(reporter, gate);
  caf::scoped_actor self{sys};
  constexpr int n = 200;
  int answers = 0;
  for (int i = 0; i < n; ++i) self->send(a, depth_atom::value, i);
  for (int i = 0; i < n; ++i)
    self->receive([&](std::uint64_t d) { answers += d < static_cast<std::uint64_t>(n) ? 1 : 0; },
                  caf::after(std::chrono::seconds(30)) >> [] {});
  BOOST_TEST(answers == n);
  // An idle actor's mailbox is empty.
  std::uint64_t idle = 1;
  self->request(a, std::chrono::seconds(30), depth_atom::value, 0)
      .receive([&](std::uint64_t d) { idle = d; }, [](caf::error&) {});
  BOOST_TEST(idle == 0u);
  caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
}

BOOST_AUTO_TEST_SUITE_END()
