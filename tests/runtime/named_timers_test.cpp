#include "actors/runtime/named_timers.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>

using namespace c5c3::runtime;
using namespace std::chrono_literals;

namespace {
const named_timers::time_point t0{};
}

BOOST_AUTO_TEST_SUITE(named_timer_ticks)

BOOST_AUTO_TEST_CASE(the_first_arming_sends_a_tick_that_fires_it_once) {
  named_timers t;
  BOOST_TEST((t.arm("rotation", t0 + 60s) == t0 + 60s));
  BOOST_TEST(t.armed("rotation"));
  auto early = t.tick(t0 + 60s, t0 + 59s);  // a tick never fires what is not due yet
  BOOST_TEST(early.names.empty());
  BOOST_TEST((early.next_tick == t0 + 60s));
  auto f = t.tick(t0 + 60s, t0 + 60s);
  BOOST_TEST((f.names == std::vector<std::string>{"rotation"}));
  BOOST_TEST(!f.next_tick);
  BOOST_TEST(!t.armed("rotation"));
  BOOST_TEST(t.ticks_in_flight() == 0u);
}

BOOST_AUTO_TEST_CASE(rearming_later_sends_nothing_and_the_tick_sends_the_next) {
  named_timers t;
  BOOST_TEST(t.arm("grace", t0 + 10s).has_value());
  for (int i = 1; i <= 100; ++i) BOOST_TEST(!t.arm("grace", t0 + 10s + i * 1s));
  BOOST_TEST(t.ticks_in_flight() == 1u);
  auto f = t.tick(t0 + 10s, t0 + 10s);
  BOOST_TEST(f.names.empty());
  BOOST_TEST((f.next_tick == t0 + 110s));
  BOOST_TEST((t.tick(t0 + 110s, t0 + 110s).names == std::vector<std::string>{"grace"}));
}

BOOST_AUTO_TEST_CASE(an_earlier_timer_sends_an_earlier_tick) {
  named_timers t;
  BOOST_TEST((t.arm("rotation", t0 + 24h) == t0 + 24h));
  BOOST_TEST((t.arm("requeue", t0 + 30s) == t0 + 30s));
  BOOST_TEST(!t.arm("grace", t0 + 1h));
  BOOST_TEST(t.ticks_in_flight() == 2u);
  auto f = t.tick(t0 + 30s, t0 + 30s);
  BOOST_TEST((f.names == std::vector<std::string>{"requeue"}));
  BOOST_TEST((f.next_tick == t0 + 1h));  // the grace's tick: the rotation's comes later
  f = t.tick(t0 + 1h, t0 + 1h);
  BOOST_TEST((f.names == std::vector<std::string>{"grace"}));
  BOOST_TEST(!f.next_tick);  // the rotation's tick is still on its way
  f = t.tick(t0 + 24h, t0 + 24h);
  BOOST_TEST((f.names == std::vector<std::string>{"rotation"}));
  BOOST_TEST(t.ticks_in_flight() == 0u);
}

BOOST_AUTO_TEST_CASE(cancelled_timers_fire_nothing) {
  named_timers t;
  (void)t.arm("requeue", t0 + 5s);
  (void)t.arm("rotation", t0 + 50s);
  t.cancel("requeue");
  BOOST_TEST(!t.armed("requeue"));
  BOOST_TEST((t.armed_names() == std::vector<std::string>{"rotation"}));
  BOOST_TEST(t.tick(t0 + 5s, t0 + 5s).names.empty());
  t.cancel_all();
  BOOST_TEST(t.armed_names().empty());
  BOOST_TEST(t.tick(t0 + 50s, t0 + 50s).names.empty());
  BOOST_TEST(t.ticks_in_flight() == 0u);
  t.cancel("nope");  // harmless
  BOOST_TEST(t.tick(t0 + 1s, t0 + 1s).names.empty());  // an unknown tick too
}

BOOST_AUTO_TEST_SUITE_END()
