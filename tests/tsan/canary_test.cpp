// Under ThreadSanitizer only (tools/tsan): the canary of tests/tsan.supp.
//
// A `race:` suppression matches a frame anywhere in either stack of a report,
// and every actor handler runs under CAF's worker loop: an entry naming the
// loop (or a frame that calls project code, as CAF's cleanup and finalize do)
// would hide every race in project code run by an actor. Here an actor's
// handler and the test's thread write one int with nothing between them
// (the send before the write orders nothing after it), so TSan must report
// the race; ctest wants the report (PASS_REGULAR_EXPRESSION).
#include <caf/all.hpp>

#include <boost/test/unit_test.hpp>

namespace {

int unguarded = 0;  // written by the handler and by the test's thread, deliberately

}  // namespace

BOOST_AUTO_TEST_SUITE(tsan_canary)

BOOST_AUTO_TEST_CASE(a_race_in_an_actor_handler_is_reported) {
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  auto counter = sys.spawn([]() -> caf::behavior {
    return {[](int x) {
      unguarded += x;
      return unguarded;
    }};
  });
  caf::scoped_actor self{sys};
  for (int i = 0; i < 200; ++i) {
    self->send(counter, 1);
    unguarded += 1;
  }
  int last = 0;
  self->request(counter, caf::infinite, 0).receive([&](int v) { last = v; }, [](caf::error&) {});
  BOOST_TEST(last > 0);
  self->send_exit(counter, caf::exit_reason::user_shutdown);
}

BOOST_AUTO_TEST_SUITE_END()
