// bench_replay's file of writes (bench/apiserver/replay.hpp): reading it, the
// placeholders, one connection per key.
#include "bench/apiserver/replay.hpp"

#include <boost/test/unit_test.hpp>

#include <set>
#include <sstream>
#include <stdexcept>

using namespace c5c3::bench;

BOOST_AUTO_TEST_SUITE(bench_replay)

BOOST_AUTO_TEST_CASE(reads_one_write_a_line) {
  std::istringstream in(
      R"({"setup":true,"key":"/api/v1/namespaces/@RUN@-a","method":"POST","target":"/api/v1/namespaces",)"
      R"("contentType":"application/json","body":"{\"metadata\":{\"name\":\"@RUN@-a\"}}"})"
      "\n\n"
      R"({"key":"k","method":"PATCH","target":"/x?fieldManager=m","contentType":"application/apply-patch+yaml",)"
      R"("body":"{}"})"
      "\n");
  auto w = read_replay(in);
  BOOST_TEST_REQUIRE(w.size() == 2u);
  BOOST_TEST(w[0].setup);
  BOOST_TEST(w[0].body == R"({"metadata":{"name":"@RUN@-a"}})");
  BOOST_TEST(!w[1].setup);
  BOOST_TEST(w[1].target == "/x?fieldManager=m");
  BOOST_TEST(w[1].content_type == "application/apply-patch+yaml");
}

BOOST_AUTO_TEST_CASE(names_the_line_it_cannot_read) {
  std::istringstream bad("{\"key\":\"k\",\"method\":\"PUT\",\"target\":\"/x\"}\nnot json\n");
  try {
    read_replay(bad);
    BOOST_FAIL("no error");
  } catch (const std::runtime_error& e) {
    BOOST_TEST(std::string(e.what()).find("line 2") != std::string::npos);
  }
  std::istringstream missing("{\"key\":\"k\",\"method\":\"PUT\"}\n");
  BOOST_CHECK_THROW(read_replay(missing), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(substitutes_every_placeholder) {
  BOOST_TEST(substitute("/namespaces/@RUN@-a/x/@RUN@", "@RUN@", "r1") == "/namespaces/r1-a/x/r1");
  BOOST_TEST(substitute(R"({"resourceVersion":"@RV@"})", "@RV@", "42") == R"({"resourceVersion":"42"})");
  BOOST_TEST(substitute("none", "@RV@", "42") == "none");
}

BOOST_AUTO_TEST_CASE(keeps_each_keys_writes_in_order_on_one_connection) {
  std::vector<replay_write> w;
  for (int i = 0; i < 40; ++i) w.push_back({false, "key-" + std::to_string(i % 7), "PUT", "/t", "", std::to_string(i)});
  std::vector<std::size_t> which;
  for (std::size_t i = 0; i < w.size(); ++i) which.push_back(i);
  auto q = partition_by_key(w, which, 3);
  BOOST_TEST_REQUIRE(q.size() == 3u);
  std::size_t n = 0;
  std::set<std::string> seen_on_other;
  for (const auto& queue : q) {
    n += queue.size();
    std::set<std::string> keys;
    for (std::size_t j = 0; j < queue.size(); ++j) {
      keys.insert(w[queue[j]].key);
      if (j > 0) BOOST_TEST(queue[j - 1] < queue[j]);  // file order
    }
    for (const auto& k : keys) BOOST_TEST(seen_on_other.insert(k).second);  // a key on one queue only
  }
  BOOST_TEST(n == w.size());
}

BOOST_AUTO_TEST_CASE(reads_the_answered_resource_version) {
  BOOST_TEST(answered_resource_version(R"({"metadata":{"name":"a","resourceVersion":"17"}})") == "17");
  BOOST_TEST(answered_resource_version(R"({"kind":"Status"})").empty());
  BOOST_TEST(answered_resource_version("not json").empty());
}

BOOST_AUTO_TEST_SUITE_END()
