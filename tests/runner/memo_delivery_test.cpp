// The read-your-writes memo ordered by the informer's delivery (issue 18:
// the TokenRefresher renewed twice). An order actor is handed every version
// of its order in the order its informer delivered them (one watch stream
// delivers versions in the order they were written), and tells the memo
// (write_memo::delivered). The refresher merge-patched its Secret, read at
// 57, and the API server answered 59, applied on top of a user's edit at 58;
// the edit's event reached the actor after the answer, so the next pass
// started from 58, which the write did not replace. With equality alone the
// memo spent its entry and the pass saw a Secret without token.next: a
// second renewal. 58 was delivered before 59: it is older than the answer,
// which the pass must see. A version delivered after the answer is newer
// (somebody else's write after the actor's) and wins.
#include "actors/runtime/runner/memo.hpp"

#include <boost/test/unit_test.hpp>

namespace c5c3::testing {
namespace {

using namespace std::chrono_literals;
namespace rt = ::c5c3::runtime;

const rt::memo_key key_ra{"", "", "Secret", "monitoring-operator", "ra"};
const auto t0 = std::chrono::steady_clock::time_point{} + 1h;

k8s::object secret(const std::string& rv, const std::string& uid = "u1") {
  k8s::object_builder b("v1", "Secret", "monitoring-operator", "ra");
  b.set_resource_version(rv);
  b.set_string({"metadata", "uid"}, uid);
  return std::move(b).freeze();
}

struct account {
  std::vector<std::string> versions;
  bool complete = true;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(runner_memo_delivery)

BOOST_AUTO_TEST_CASE(a_version_delivered_before_the_actors_answer_is_older_than_it) {
  struct row {
    const char* what;
    std::vector<std::pair<std::string, std::string>> writes;  // before rv -> answer rv
    std::vector<account> accounts;                            // delivered() calls after the writes
    std::string cached_rv;
    std::string cached_uid;
    std::string seen;
    bool ahead;
  };
  const std::vector<row> rows{
      // The failing case: the user's edit (58), delivered before the patch's answer (59).
      {"an edit the patch was applied on, delivered before its answer: the answer", {{"57", "59"}}, {{{"58"}}},
       "58", "u1", "59", true},
      {"the same, the write recorded as a create (\"\" before)", {{"", "59"}}, {{{"58"}}}, "58", "u1", "59", true},
      {"the answer delivered, then somebody else's write: theirs", {{"57", "59"}}, {{{"58", "59", "60"}}}, "60",
       "u1", "60", false},
      {"the answer in one account, a newer write in the next: theirs", {{"57", "59"}}, {{{"59"}}, {{"60"}}}, "60",
       "u1", "60", false},
      {"the answer delivered: caught up", {{"57", "59"}}, {{{"58", "59"}}}, "59", "u1", "59", false},
      {"the version the write replaced: chained, as before", {{"57", "59"}}, {{{"57"}}}, "57", "u1", "59", false},
      {"an older version over two accounts, the answer in neither", {{"57", "59"}}, {{{"58"}}, {{}}}, "58", "u1",
       "59", true},
      {"an incomplete account (versions lost): equality only", {{"57", "59"}}, {{{"58"}, false}}, "58", "u1", "58",
       false},
      {"no account (a child, not the order): equality only", {{"57", "59"}}, {}, "58", "u1", "58", false},
      {"another object of that name (a new uid): spent", {{"57", "59"}}, {{{"61"}}}, "61", "u2", "61", false},
      {"two writes (patch, status), an older version: the last answer", {{"57", "59"}, {"59", "62"}}, {{{"58"}}},
       "58", "u1", "62", true},
      {"two writes, the first answer delivered, then an older one than the last", {{"57", "59"}, {"59", "62"}},
       {{{"59", "61"}}}, "61", "u1", "62", true},
      {"two writes, the last answer delivered, then a newer write", {{"57", "59"}, {"59", "62"}},
       {{{"58", "59", "62", "63"}}}, "63", "u1", "63", false},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      rt::write_memo m;
      // The account before the writes: the pass began at 57.
      m.delivered(key_ra, {"57"}, true);
      for (const auto& [before, after] : r.writes) m.wrote(key_ra, before, secret(after), t0);
      for (const auto& a : r.accounts) m.delivered(key_ra, a.versions, a.complete);
      auto got = m.latest(key_ra, secret(r.cached_rv, r.cached_uid), t0 + 1s);
      BOOST_TEST(std::string(got ? got.resource_version() : "") == r.seen);
      BOOST_TEST(m.ahead() == r.ahead);
      BOOST_TEST(m.used() == (r.seen != r.cached_rv));
    }
  }
}

// A write that changed nothing answers the version it met: that version was
// delivered already (before the account of the pass that wrote), and a
// version after it is somebody else's newer write.
BOOST_AUTO_TEST_CASE(a_write_that_changed_nothing_is_not_awaited) {
  rt::write_memo m;
  m.delivered(key_ra, {"55", "57"}, true);
  m.wrote(key_ra, "57", secret("57"), t0);
  m.delivered(key_ra, {"60"}, true);
  auto got = m.latest(key_ra, secret("60"), t0 + 1s);
  BOOST_TEST(std::string(got.resource_version()) == "60");
  BOOST_TEST(!m.ahead());
}

// The horizon bounds the view as it bounds every entry: a relist past the
// answer (a 410, a new scope) may never deliver it, and the pass that saw it
// comes back after the horizon (ahead()) to the cache as it is.
BOOST_AUTO_TEST_CASE(an_answer_never_delivered_holds_until_the_horizon) {
  rt::write_memo m{30s};
  m.delivered(key_ra, {"57"}, true);
  m.wrote(key_ra, "57", secret("59"), t0);
  m.delivered(key_ra, {"61"}, true);
  BOOST_TEST(std::string(m.latest(key_ra, secret("61"), t0 + 1s).resource_version()) == "59");
  BOOST_TEST(m.ahead());
  m.reset_used();
  BOOST_TEST(std::string(m.latest(key_ra, secret("61"), t0 + 31s).resource_version()) == "61");
  BOOST_TEST(!m.ahead());
  BOOST_TEST(m.size() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
