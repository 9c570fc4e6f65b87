#include "actors/runtime/named_timers.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::runtime;

BOOST_AUTO_TEST_SUITE(named_timer_generations)

BOOST_AUTO_TEST_CASE(current_arming_fires_once) {
  named_timers t;
  auto g = t.arm("rotation");
  BOOST_TEST(t.armed("rotation"));
  BOOST_TEST(t.fire("rotation", g));
  BOOST_TEST(!t.armed("rotation"));
  BOOST_TEST(!t.fire("rotation", g));  // a duplicate is stale
}

BOOST_AUTO_TEST_CASE(rearming_makes_the_old_message_stale) {
  named_timers t;
  auto g1 = t.arm("grace");
  auto g2 = t.arm("grace");
  BOOST_TEST(g1 != g2);
  BOOST_TEST(!t.fire("grace", g1));
  BOOST_TEST(t.armed("grace"));
  BOOST_TEST(t.fire("grace", g2));
}

BOOST_AUTO_TEST_CASE(cancel_makes_in_flight_messages_stale) {
  named_timers t;
  auto g = t.arm("requeue");
  t.cancel("requeue");
  BOOST_TEST(!t.armed("requeue"));
  BOOST_TEST(!t.fire("requeue", g));
  auto r = t.arm("rotation");
  auto q = t.arm("requeue");
  t.cancel_all();
  BOOST_TEST(!t.fire("rotation", r));
  BOOST_TEST(!t.fire("requeue", q));
  BOOST_TEST(t.armed_names().empty());
}

BOOST_AUTO_TEST_CASE(timers_are_independent_and_unknown_names_are_stale) {
  named_timers t;
  auto r = t.arm("rotation");
  auto g = t.arm("grace");
  t.cancel("grace");
  BOOST_TEST(t.fire("rotation", r));
  BOOST_TEST(!t.fire("grace", g));
  BOOST_TEST(!t.fire("nope", 1));
  t.cancel("nope");  // harmless
  auto names = t.arm("b"), names2 = t.arm("a");
  (void)names;
  (void)names2;
  BOOST_TEST((t.armed_names() == std::vector<std::string>{"a", "b"}));
}

BOOST_AUTO_TEST_SUITE_END()
