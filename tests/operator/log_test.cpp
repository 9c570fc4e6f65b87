#include "k8s/log.hpp"
#include "k8s/json.hpp"
#include "k8s/object.hpp"

#include <boost/test/unit_test.hpp>

#include <rapidjson/document.h>

#include <cmath>
#include <thread>

using namespace c5c3::k8s;
using namespace std::chrono_literals;

namespace {

// A logger writing into `lines`, at a fixed clock.
struct capture {
  std::vector<std::string> lines;
  log::logger make(log::level lvl = log::level::info, int v = 0) {
    log::options o;
    o.min_level = lvl;
    o.verbosity = v;
    o.sink = [this](std::string_view l) { lines.emplace_back(l); };
    // 2026-12-01T00:15:31.123Z
    o.clock = [] { return std::chrono::system_clock::time_point(1796084131123ms); };
    return log::logger(o);
  }
};

rapidjson::Document parse(const std::string& line) {
  rapidjson::Document d;
  d.Parse(line.data(), line.size());
  BOOST_REQUIRE_MESSAGE(!d.HasParseError() && d.IsObject(), "not a JSON object: " << line);
  return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(logging)

BOOST_AUTO_TEST_CASE(line_shape_follows_zap_production_encoder) {
  capture c;
  auto l = c.make().named("controller").with({{"controller", "rabbitmqvhost"}});
  l.info("Reconciling", {{"namespace", "a"}, {"name", "b"}, {"reconcileID", "0b2c"}});
  BOOST_REQUIRE_EQUAL(c.lines.size(), 1u);
  BOOST_TEST(c.lines[0] ==
             R"({"level":"info","ts":"2026-12-01T00:15:31.123Z","logger":"controller","msg":"Reconciling",)"
             R"("controller":"rabbitmqvhost","namespace":"a","name":"b","reconcileID":"0b2c"})");
}

BOOST_AUTO_TEST_CASE(logger_names_join_with_dots_and_empty_name_is_left_out) {
  capture c;
  auto l = c.make();
  l.info("plain");
  l.named("controller-runtime").named("metrics").info("named");
  BOOST_TEST(c.lines[0] == R"({"level":"info","ts":"2026-12-01T00:15:31.123Z","msg":"plain"})");
  BOOST_TEST(parse(c.lines[1])["logger"].GetString() == std::string("controller-runtime.metrics"));
}

BOOST_AUTO_TEST_CASE(value_types) {
  capture c;
  c.make().info("types", {{"s", std::string("x")},
                          {"i", -3},
                          {"u", std::uint64_t{18446744073709551615u}},
                          {"d", 0.25},
                          {"b", true},
                          {"n", nullptr},
                          {"dur", 1500ms},
                          {"nan", std::nan("")}});
  BOOST_TEST(c.lines[0].find(R"("s":"x","i":-3,"u":18446744073709551615,"d":0.25,"b":true,"n":null,)"
                             R"("dur":1.5,"nan":"NaN")") != std::string::npos);
  parse(c.lines[0]);
}

struct escape_case {
  std::string in;
  std::string out;
};

BOOST_AUTO_TEST_CASE(json_escaping) {
  const std::vector<escape_case> cases{
      {"plain", R"("plain")"},
      {"quote \" backslash \\", R"("quote \" backslash \\")"},
      {"line\nbreak\r\ttab", R"("line\nbreak\r\ttab")"},
      {std::string("nul\0bell\x07", 9), R"("nul\u0000bell\u0007")"},
      {"del\x7f", R"("del\u007f")"},
      {"utf8 \xc3\xa4 \xe2\x82\xac \xf0\x9f\x90\x87", "\"utf8 \xc3\xa4 \xe2\x82\xac \xf0\x9f\x90\x87\""},
      {"bad \xff end", R"("bad \ufffd end")"},
      {"truncated \xe2\x82", R"("truncated \ufffd\ufffd")"},
      {"overlong \xc0\xaf", R"("overlong \ufffd\ufffd")"},
      {"surrogate \xed\xa0\x80", R"("surrogate \ufffd\ufffd\ufffd")"},
  };
  for (const auto& tc : cases) {
    std::string out;
    log::append_json_string(out, tc.in);
    BOOST_TEST(out == tc.out);
  }
  // Keys, messages and the error text are escaped too, and the line stays one line of valid JSON.
  capture c;
  c.make().error("failed \"x\"\n", "boom\nsecond line", {{"we\"ird", "a\\b"}});
  BOOST_TEST(c.lines[0].find('\n') == std::string::npos);
  auto d = parse(c.lines[0]);
  BOOST_TEST(d["level"].GetString() == std::string("error"));
  BOOST_TEST(d["msg"].GetString() == std::string("failed \"x\"\n"));
  BOOST_TEST(d["error"].GetString() == std::string("boom\nsecond line"));
  BOOST_TEST(d["we\"ird"].GetString() == std::string("a\\b"));
}

struct level_case {
  log::level min_level;
  int verbosity;
  bool info, warn, error, v1, v2, v5;
};

BOOST_AUTO_TEST_CASE(levels_and_verbosity) {
  const std::vector<level_case> cases{
      {log::level::info, 0, true, true, true, false, false, false},
      {log::level::info, 1, true, true, true, true, false, false},
      {log::level::info, 2, true, true, true, true, true, false},
      {log::level::info, 5, true, true, true, true, true, true},
      {log::level::debug, 0, true, true, true, true, false, false},
      {log::level::warn, 0, false, true, true, false, false, false},
      {log::level::error, 0, false, false, true, false, false, false},
  };
  for (const auto& tc : cases) {
    capture c;
    auto l = c.make(tc.min_level, tc.verbosity);
    l.info("info");
    l.warn("warn");
    l.error("error", "e");
    l.v(1).info("v1");
    l.v(2).info("v2");
    l.v(5).info("v5");
    std::vector<std::string> want;
    if (tc.info) want.push_back("info");
    if (tc.warn) want.push_back("warn");
    if (tc.error) want.push_back("error");
    if (tc.v1) want.push_back("v1");
    if (tc.v2) want.push_back("v2");
    if (tc.v5) want.push_back("v5");
    std::vector<std::string> got;
    for (const auto& line : c.lines) got.push_back(parse(line)["msg"].GetString());
    BOOST_TEST(got == want, boost::test_tools::per_element());
    BOOST_TEST(l.v(2).enabled() == tc.v2);
  }
}

BOOST_AUTO_TEST_CASE(verbose_lines_are_debug_and_levels_change_at_run_time) {
  capture c;
  auto l = c.make(log::level::info, 0);
  l.v(1).info("hidden");
  BOOST_TEST(c.lines.empty());
  l.named("x").set_levels(log::level::info, 3);  // shared core
  l.v(3).info("shown");
  BOOST_REQUIRE_EQUAL(c.lines.size(), 1u);
  BOOST_TEST(parse(c.lines[0])["level"].GetString() == std::string("debug"));
  l.v(0).info("v0 is info");
  BOOST_TEST(parse(c.lines[1])["level"].GetString() == std::string("info"));
}

BOOST_AUTO_TEST_CASE(object_references_carry_kind_namespace_and_name_only) {
  auto with_data = object::parse(R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"creds","namespace":"ns1"},)"
                                 R"("data":{"password":"c2VjcmV0"}})");
  BOOST_REQUIRE(with_data);
  capture c;
  auto l = c.make();
  l.info("ref", {{"object", log::ref(*with_data)}, {"cluster", log::ref("Namespace", "", "team-a")}});
  BOOST_TEST(c.lines[0].find(R"("object":{"kind":"Secret","namespace":"ns1","name":"creds"})") != std::string::npos);
  BOOST_TEST(c.lines[0].find(R"("cluster":{"kind":"Namespace","name":"team-a"})") != std::string::npos);
  BOOST_TEST(c.lines[0].find("c2VjcmV0") == std::string::npos);
  BOOST_TEST(c.lines[0].find("password") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(timestamps_are_utc_milliseconds) {
  using tp = std::chrono::system_clock::time_point;
  BOOST_TEST(log::format_timestamp(tp(1796084131123ms)) == "2026-12-01T00:15:31.123Z");
  BOOST_TEST(log::format_timestamp(tp(1796084131000ms)) == "2026-12-01T00:15:31.000Z");
  BOOST_TEST(log::format_timestamp(tp(0ms)) == "1970-01-01T00:00:00.000Z");
  BOOST_TEST(log::format_timestamp(tp(-1ms)) == "1969-12-31T23:59:59.999Z");
}

BOOST_AUTO_TEST_CASE(concurrent_lines_are_never_interleaved) {
  capture c;
  auto l = c.make();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) l.info("line", {{"thread", t}, {"i", i}, {"pad", std::string(64, 'x')}});
    });
  for (auto& th : threads) th.join();
  BOOST_REQUIRE_EQUAL(c.lines.size(), 800u);
  for (const auto& line : c.lines) parse(line);
}

BOOST_AUTO_TEST_SUITE_END()
