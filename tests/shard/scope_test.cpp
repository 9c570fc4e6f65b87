// A replica's watch scope (shard/scope.hpp) and what its caches show while it
// moves from one scope to another (shard/scope_cover.hpp).
#include "actors/runtime/shard/scope.hpp"
#include "actors/runtime/shard/scope_cover.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using namespace c5c3::runtime::shard;
using c5c3::protocol::shard_view;

namespace {

scope of(const std::vector<std::string>& members) {
  shard_view v{members, true, 1, {}};
  return scope_of("a", &v);
}

// For a, b, c and unstamped: the holder ("-" unstamped) when `s` shows its
// stamps, else ".".
std::string shown(const scope& s) {
  std::string out;
  for (const char* h : {"a", "b", "c", ""}) out += s.shows(h) ? (*h ? h : "-") : ".";
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shard_scope)

BOOST_AUTO_TEST_CASE(a_scope_is_its_selector_and_shows_what_the_selector_selects) {
  struct row {
    std::string what;
    scope s;
    std::string selector, shows;  // shows: a, b, c, unstamped
  };
  for (const auto& r : {row{"before the first view", scope_of("a", nullptr), "c5c3.io/shard in (a)", "a..."},
                        row{"alone", of({"a"}), "", "abc-"},
                        row{"with b", of({"a", "b"}), "c5c3.io/shard notin (b)", "a.c-"},
                        row{"with c and b", of({"c", "a", "b"}), "c5c3.io/shard notin (b,c)", "a..-"}}) {
    BOOST_TEST_CONTEXT(r.what) {
      BOOST_TEST(r.s.selector() == r.selector);
      BOOST_TEST(shown(r.s) == r.shows);
    }
  }
  shard_view v{{"c", "a", "b"}, true, 1, {}};
  BOOST_TEST(watch_scope("a", &v) == "c5c3.io/shard notin (b,c)");
  // c stopped renewing: still on the ring, its stamps shown already.
  shard_view fading{{"a", "b", "c"}, true, 2, {"c"}};
  BOOST_TEST(watch_scope("a", &fading) == "c5c3.io/shard notin (b)");
  BOOST_TEST(shown(scope_of("a", &fading)) == "a.c-");
  shard_view both{{"a", "b", "c"}, true, 3, {"b", "c"}};
  BOOST_TEST(watch_scope("a", &both) == "");
  BOOST_TEST(shown(scope_of("a", &both)) == "abc-");
}

// While a rescope is under way either scope's informer may answer a read: a
// stamp is shown only when both show it; once the move is complete, only the
// new scope answers.
BOOST_AUTO_TEST_CASE(a_cover_shows_what_every_scope_that_may_answer_shows) {
  scope_cover c(scope_of("a", nullptr));
  BOOST_TEST(c.shows("a"));
  BOOST_TEST(!c.shows("b"));
  c.asked(of({"a", "b", "c"}));  // the first view: b and c are ready
  BOOST_TEST(!c.shows("b"));
  c.settled(of({"a", "b", "c"}));
  BOOST_TEST(!c.shows("b"));
  BOOST_TEST(c.shows(""));
  c.asked(of({"a", "c"}));  // b died: its stamps come into the scope
  BOOST_TEST(!c.shows("b"));  // not yet: the old informer may still answer
  c.settled(of({"a", "c"}));
  BOOST_TEST(c.shows("b"));
  BOOST_TEST(!c.shows("c"));
  c.asked(of({"a", "b", "c"}));  // b is back
  BOOST_TEST(!c.shows("b"));
  c.asked(of({"a", "c"}));  // and gone again before the move completed
  BOOST_TEST(!c.shows("b"));
  c.settled(of({"a", "c"}));
  BOOST_TEST(c.shows("b"));
}

BOOST_AUTO_TEST_SUITE_END()
