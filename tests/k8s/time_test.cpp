#include "k8s/time.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::k8s;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(time_values)

BOOST_AUTO_TEST_CASE(rfc3339_round_trip) {
  auto t = parse_rfc3339("2026-12-01T00:15:31Z");
  BOOST_REQUIRE(t);
  BOOST_TEST(format_rfc3339(*t) == "2026-12-01T00:15:31Z");
  BOOST_TEST(std::chrono::duration_cast<std::chrono::seconds>(t->time_since_epoch()).count() ==
             1796084131);
  auto with_offset = parse_rfc3339("2026-12-01T02:15:31.5+02:00");
  BOOST_REQUIRE(with_offset);
  BOOST_TEST(format_rfc3339(*with_offset) == "2026-12-01T00:15:31Z");
  BOOST_TEST(!parse_rfc3339("2026-13-01T00:00:00Z"));
  BOOST_TEST(!parse_rfc3339("2026-12-01 00:00:00"));
  BOOST_TEST(!parse_rfc3339("2026-12-01T00:00:00Zjunk"));
}

struct duration_case {
  const char* text;
  std::chrono::nanoseconds value;
  const char* printed;
};

BOOST_AUTO_TEST_CASE(go_durations) {
  const duration_case cases[] = {
      {"720h", 720h, "720h0m0s"}, {"24h", 24h, "24h0m0s"},   {"1m", 1min, "1m0s"},
      {"0s", 0s, "0s"},           {"0", 0s, "0s"},           {"1h30m", 90min, "1h30m0s"},
      {"1.5s", 1500ms, "1.5s"},   {"300ms", 300ms, "300ms"}, {"-1h", -1h, "-1h0m0s"},
      {"87601h", 87601h, "87601h0m0s"},
  };
  for (auto& c : cases) {
    BOOST_TEST_CONTEXT(c.text) {
      auto d = parse_go_duration(c.text);
      BOOST_REQUIRE(d);
      BOOST_TEST(d->count() == c.value.count());
      BOOST_TEST(format_go_duration(*d) == c.printed);
    }
  }
  for (const char* bad : {"", "h", "1x", "1", "--1h", "1h-"}) {
    BOOST_TEST_CONTEXT(bad) { BOOST_TEST(!parse_go_duration(bad)); }
  }
}

BOOST_AUTO_TEST_SUITE_END()
