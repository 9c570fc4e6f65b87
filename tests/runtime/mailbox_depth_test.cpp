// mailbox_depth on CAF's normal scheduler: an actor asks for its own depth
// while more messages wait in its inbox (the path where CAF 0.17's queues
// cast their sentinel node, which the sanitizer build must not stop on),
// and the answers are plausible depths.
#include "actors/runtime/mailbox_depth.hpp"

#include <boost/test/unit_test.hpp>
#include <caf/all.hpp>

#include <chrono>
#include <thread>

namespace {

using depth_atom = caf::atom_constant<caf::atom("depth")>;

// One argument besides self (CAF 0.17 and UBSan, see actors/runtime/README.md).
caf::behavior reporter(caf::event_based_actor* self, int /*unused*/) {
  return {[self](depth_atom, int) {
    // Slow enough that the next messages arrive while this one runs: they
    // wait in the inbox, not yet in the actor's queue.
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    return static_cast<std::uint64_t>(c5c3::runtime::mailbox_depth(self));
  }};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(mailbox_depth)

BOOST_AUTO_TEST_CASE(depth_is_read_while_messages_wait) {
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  auto a = sys.spawn(reporter, 0);
  caf::scoped_actor self{sys};
  constexpr int n = 200;
  for (int round = 0; round < 5; ++round) {
    // Requests trickling in while earlier ones run.
    for (int i = 0; i < n; ++i) {
      self->send(a, depth_atom::value, i);
      std::this_thread::sleep_for(std::chrono::microseconds(i % 3 == 0 ? 300 : 50));
    }
    std::uint64_t max_seen = 0;
    int answers = 0;
    for (int i = 0; i < n; ++i) {
      self->receive([&](std::uint64_t d) {
                      ++answers;
                      max_seen = std::max(max_seen, d);
                    },
                    caf::after(std::chrono::seconds(30)) >> [] {});
    }
    BOOST_TEST(answers == n);
    BOOST_TEST(max_seen < static_cast<std::uint64_t>(n));
  }
  // An idle actor's mailbox is empty.
  std::uint64_t idle = 1;
  self->request(a, std::chrono::seconds(30), depth_atom::value, 0)
      .receive([&](std::uint64_t d) { idle = d; }, [](caf::error&) {});
  BOOST_TEST(idle == 0u);
  caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
}

BOOST_AUTO_TEST_SUITE_END()
