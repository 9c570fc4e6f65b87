// The echo of an order actor's own write (write_memo::echo): a child's watch
// event showing a version the memo holds as an answer wakes no pass, and the
// entries it shows the cache has caught up with are spent. Anything else
// (somebody else's version, an expired answer, another object) is news.
#include "actors/runtime/runner/memo.hpp"

#include <boost/test/unit_test.hpp>

namespace c5c3::testing {
namespace {

using namespace std::chrono_literals;
namespace rt = ::c5c3::runtime;

const auto t0 = std::chrono::steady_clock::time_point{} + 1h;

rt::memo_key key_of(const std::string& name) { return {"", "", "ConfigMap", "tenant-a", name}; }

k8s::object config_map(const std::string& name, const std::string& rv) {
  k8s::object_builder b("v1", "ConfigMap", "tenant-a", name);
  b.set_resource_version(rv);
  return std::move(b).freeze();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(runner_memo_echo)

BOOST_AUTO_TEST_CASE(rows) {
  struct row {
    const char* what;
    std::vector<std::pair<std::string, std::string>> writes;  // before rv -> answer rv, of "a"
    std::string shown_name;
    std::string shown_rv;
    std::chrono::seconds after;
    bool echo;
    std::size_t left;  // entries of "a" the memo holds afterwards
  };
  const std::vector<row> rows{
      {"the create's answer shown: an echo, spent", {{"", "5"}}, "a", "5", 1s, true, 0},
      {"the update's answer shown: an echo, spent", {{"4", "5"}}, "a", "5", 1s, true, 0},
      {"the first of two chained writes shown: an echo, the second kept", {{"4", "5"}, {"5", "6"}}, "a", "5", 1s,
       true, 1},
      {"the second of two chained writes shown: an echo, both spent", {{"4", "5"}, {"5", "6"}}, "a", "6", 1s, true,
       0},
      {"a version the actor did not write: news, kept", {{"4", "5"}}, "a", "7", 1s, false, 1},
      {"the version the write replaced: news", {{"4", "5"}}, "a", "4", 1s, false, 1},
      {"another object at the answer's version: news", {{"4", "5"}}, "b", "5", 1s, false, 1},
      {"the answer after the horizon: news (expired)", {{"4", "5"}}, "a", "5", 31s, false, 0},
      {"no resourceVersion: news", {{"4", "5"}}, "a", "", 1s, false, 1},
      {"after a delete (no answer): any version is news", {{"4", ""}}, "a", "9", 1s, false, 1},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      rt::write_memo m{30s};
      for (const auto& [before, answer] : r.writes)
        m.wrote(key_of("a"), before, answer.empty() ? k8s::object{} : config_map("a", answer), t0);
      const bool echo = m.echo(key_of(r.shown_name), config_map(r.shown_name, r.shown_rv), t0 + r.after);
      BOOST_TEST(echo == r.echo);
      BOOST_TEST(m.size() == r.left);
      BOOST_TEST(!m.used());
      BOOST_TEST(!m.ahead());
    }
  }
}

BOOST_AUTO_TEST_CASE(a_spent_echo_leaves_the_view_to_the_cache) {
  // After the echo the cache's version is the view: the memo no longer
  // bridges it, and a later version somebody else wrote is seen as it is.
  rt::write_memo m{30s};
  m.wrote(key_of("a"), "4", config_map("a", "5"), t0);
  BOOST_TEST(m.echo(key_of("a"), config_map("a", "5"), t0 + 1s));
  BOOST_TEST(m.latest(key_of("a"), config_map("a", "8"), t0 + 2s).resource_version() == "8");
  BOOST_TEST(!m.used());
  BOOST_TEST(!m.echo(key_of("a"), config_map("a", "5"), t0 + 3s));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
