#include "actors/runtime/controller_metrics.hpp"
#include "actors/runtime/metrics.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace c5c3::runtime;
using namespace c5c3::runtime::metrics;

namespace {

// A strict reader of the text exposition format 0.0.4: what Prometheus'
// parser (and promtool check metrics) insists on, for our output.
struct sample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};
struct parsed_family {
  std::string type;
  std::string help;
  std::vector<sample> samples;
};

bool is_name(const std::string& s, bool colon) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool ok = std::isalpha(static_cast<unsigned char>(c)) || c == '_' || (colon && c == ':') ||
              (i > 0 && std::isdigit(static_cast<unsigned char>(c)));
    if (!ok) return false;
  }
  return true;
}

double parse_value(const std::string& v) {
  if (v == "+Inf") return std::numeric_limits<double>::infinity();
  if (v == "-Inf") return -std::numeric_limits<double>::infinity();
  if (v == "NaN") return std::nan("");
  std::size_t used = 0;
  double d = std::stod(v, &used);
  if (used != v.size()) throw std::runtime_error("bad value: " + v);
  return d;
}

std::map<std::string, parsed_family> parse(const std::string& text) {
  std::map<std::string, parsed_family> out;
  std::string current;  // family of the last TYPE line
  std::istringstream in(text);
  std::string line;
  BOOST_REQUIRE(text.empty() || text.back() == '\n');
  while (std::getline(in, line)) {
    BOOST_REQUIRE_MESSAGE(!line.empty(), "empty line");
    if (line.rfind("# HELP ", 0) == 0) {
      auto rest = line.substr(7);
      auto sp = rest.find(' ');
      auto name = rest.substr(0, sp);
      BOOST_REQUIRE(is_name(name, true));
      BOOST_REQUIRE_MESSAGE(out[name].help.empty(), "second HELP for " << name);
      out[name].help = sp == std::string::npos ? "" : rest.substr(sp + 1);
      continue;
    }
    if (line.rfind("# TYPE ", 0) == 0) {
      std::istringstream t(line.substr(7));
      std::string name, type;
      t >> name >> type;
      BOOST_REQUIRE(is_name(name, true));
      BOOST_REQUIRE(type == "counter" || type == "gauge" || type == "histogram");
      BOOST_REQUIRE_MESSAGE(out[name].type.empty(), "second TYPE for " << name);
      BOOST_REQUIRE_MESSAGE(out[name].samples.empty(), "TYPE after samples for " << name);
      out[name].type = type;
      current = name;
      continue;
    }
    BOOST_REQUIRE_MESSAGE(line[0] != '#', "unknown comment: " << line);
    sample s;
    std::size_t i = 0;
    while (i < line.size() && line[i] != '{' && line[i] != ' ') ++i;
    s.name = line.substr(0, i);
    BOOST_REQUIRE(is_name(s.name, true));
    if (i < line.size() && line[i] == '{') {
      ++i;
      while (line.at(i) != '}') {
        auto eq = line.find('=', i);
        auto lname = line.substr(i, eq - i);
        BOOST_REQUIRE_MESSAGE(is_name(lname, false), "label name " << lname);
        i = eq + 1;
        BOOST_REQUIRE(line.at(i) == '"');
        ++i;
        std::string v;
        for (;;) {
          char c = line.at(i++);
          if (c == '"') break;
          if (c == '\\') {
            char e = line.at(i++);
            BOOST_REQUIRE(e == '\\' || e == '"' || e == 'n');
            v += e == 'n' ? '\n' : e;
          } else {
            v += c;
          }
        }
        BOOST_REQUIRE_MESSAGE(!s.labels.count(lname), "duplicate label " << lname);
        s.labels[lname] = v;
        if (line.at(i) == ',') ++i;
      }
      ++i;
    }
    BOOST_REQUIRE(line.at(i) == ' ');
    s.value = parse_value(line.substr(i + 1));
    // The sample belongs to the family of the last TYPE line.
    std::string base = s.name;
    const auto& fam = out[current];
    if (fam.type == "histogram") {
      for (const char* suffix : {"_bucket", "_sum", "_count"}) {
        std::string suf = suffix;
        if (base.size() > suf.size() && base.compare(base.size() - suf.size(), suf.size(), suf) == 0) {
          base = base.substr(0, base.size() - suf.size());
          break;
        }
      }
    }
    BOOST_REQUIRE_MESSAGE(base == current, "sample " << s.name << " outside its family " << current);
    out[current].samples.push_back(s);
  }
  return out;
}

// Histogram invariants per series: ascending le, cumulative counts,
// +Inf bucket == _count.
void check_histogram(const parsed_family& f) {
  std::map<std::map<std::string, std::string>, std::vector<std::pair<double, double>>> buckets;
  std::map<std::map<std::string, std::string>, double> counts;
  for (const auto& s : f.samples) {
    auto labels = s.labels;
    if (s.name.size() > 7 && s.name.substr(s.name.size() - 7) == "_bucket") {
      auto le = parse_value(labels.at("le"));
      labels.erase("le");
      buckets[labels].push_back({le, s.value});
    } else if (s.name.size() > 6 && s.name.substr(s.name.size() - 6) == "_count") {
      counts[labels] = s.value;
    }
  }
  BOOST_REQUIRE(!buckets.empty());
  for (const auto& [labels, bs] : buckets) {
    for (std::size_t i = 1; i < bs.size(); ++i) {
      BOOST_TEST(bs[i - 1].first < bs[i].first);
      BOOST_TEST(bs[i - 1].second <= bs[i].second);
    }
    BOOST_TEST(std::isinf(bs.back().first));
    BOOST_TEST(bs.back().second == counts.at(labels));
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(metrics_text_format)

// Go's strconv.FormatFloat(v, 'g', -1, 64), which client_golang writes.
BOOST_AUTO_TEST_CASE(values_are_written_as_go_does) {
  struct row {
    double v;
    const char* text;
  };
  const row rows[] = {
      {0, "0"},         {1, "1"},           {-1, "-1"},         {2.5, "2.5"},
      {0.005, "0.005"}, {0.0001, "0.0001"}, {0.00001, "1e-05"}, {10e-9, "1e-08"},
      {1000, "1000"},   {123456, "123456"}, {1e6, "1e+06"},     {1234567, "1.234567e+06"},
      {1e21, "1e+21"},  {0.1, "0.1"},       {1.25, "1.25"},     {60, "60"},
      {std::numeric_limits<double>::infinity(), "+Inf"},
      {-std::numeric_limits<double>::infinity(), "-Inf"},
      {std::nan(""), "NaN"},
  };
  for (const auto& r : rows) BOOST_TEST(format_value(r.v) == r.text);
}

BOOST_AUTO_TEST_CASE(escaping) {
  BOOST_TEST(escape_label_value("a\"b\\c\nd") == "a\\\"b\\\\c\\nd");
  BOOST_TEST(escape_help("say \"hi\"\\\n") == "say \"hi\"\\\\\\n");
}

BOOST_AUTO_TEST_CASE(names) {
  BOOST_TEST(valid_metric_name("controller_runtime_reconcile_total"));
  BOOST_TEST(valid_metric_name("a:b"));
  BOOST_TEST(!valid_metric_name("9lives"));
  BOOST_TEST(!valid_metric_name("with-dash"));
  BOOST_TEST(!valid_metric_name(""));
  BOOST_TEST(valid_label_name("controller"));
  BOOST_TEST(!valid_label_name("__reserved"));
  BOOST_TEST(!valid_label_name("a:b"));
}

BOOST_AUTO_TEST_CASE(golden_rendering) {
  registry reg;
  auto& c = reg.counter("demo_requests_total", "Requests by code.", {"code", "path"});
  c.with({"200", "/a"}).inc();
  c.with({"200", "/a"}).inc(2);
  c.with({"500", "/\"q\"\n"}).inc();
  c.with({"404", "/x"}).inc(-5);  // ignored: counters only go up
  reg.gauge("demo_up", "Up.").get().set(1);
  auto& h = reg.histogram("demo_seconds", "Latency.", {"op"}, {0.1, 1});
  h.with({"get"}).observe(0.05);
  h.with({"get"}).observe(0.1);  // le is inclusive
  h.with({"get"}).observe(3);
  reg.counter("demo_empty_total", "No series yet.", {"x"});  // labelled, nothing recorded: omitted
  const std::string expected =
      "# HELP demo_requests_total Requests by code.\n"
      "# TYPE demo_requests_total counter\n"
      "demo_requests_total{code=\"200\",path=\"/a\"} 3\n"
      "demo_requests_total{code=\"404\",path=\"/x\"} 0\n"
      "demo_requests_total{code=\"500\",path=\"/\\\"q\\\"\\n\"} 1\n"
      "# HELP demo_seconds Latency.\n"
      "# TYPE demo_seconds histogram\n"
      "demo_seconds_bucket{op=\"get\",le=\"0.1\"} 2\n"
      "demo_seconds_bucket{op=\"get\",le=\"1\"} 2\n"
      "demo_seconds_bucket{op=\"get\",le=\"+Inf\"} 3\n"
      "demo_seconds_sum{op=\"get\"} 3.15\n"
      "demo_seconds_count{op=\"get\"} 3\n"
      "# HELP demo_up Up.\n"
      "# TYPE demo_up gauge\n"
      "demo_up 1\n";
  BOOST_TEST(reg.render() == expected);
  auto fams = parse(reg.render());
  BOOST_TEST(fams.at("demo_requests_total").samples.at(2).labels.at("path") == "/\"q\"\n");
  check_histogram(fams.at("demo_seconds"));
}

BOOST_AUTO_TEST_CASE(registration_rules) {
  registry reg;
  auto& a = reg.counter("x_total", "X.", {"a"});
  auto& b = reg.counter("x_total", "X again.", {"a"});
  BOOST_TEST(&a == &b);
  BOOST_CHECK_THROW(reg.counter("x_total", "X.", {"b"}), std::invalid_argument);
  BOOST_CHECK_THROW(reg.gauge("x_total", "X.", {"a"}), std::invalid_argument);
  BOOST_CHECK_THROW(reg.gauge("bad-name", "X."), std::invalid_argument);
  BOOST_CHECK_THROW(reg.gauge("g", "X.", {"__x"}), std::invalid_argument);
  BOOST_CHECK_THROW(reg.histogram("h", "X.", {"le"}, {1}), std::invalid_argument);
  BOOST_CHECK_THROW(reg.histogram("h2", "X.", {}, {2, 1}), std::invalid_argument);
  BOOST_CHECK_THROW(a.with({"1", "2"}), std::invalid_argument);
  BOOST_CHECK_THROW(exponential_buckets(0, 10, 3), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(workqueue_buckets_are_client_go_s) {
  const auto& b = workqueue_duration_buckets();
  BOOST_REQUIRE(b.size() == 12u);
  BOOST_TEST(format_value(b.front()) == "1e-08");
  BOOST_TEST(format_value(b.back()) == "1000");
  BOOST_TEST(reconcile_time_buckets().size() == 40u);
  BOOST_TEST(reconcile_time_buckets().back() == 60.0);
}

BOOST_AUTO_TEST_CASE(concurrent_updates_are_not_lost) {
  registry reg;
  auto& c = reg.counter("hits_total", "Hits.", {"t"});
  auto& h = reg.histogram("lat_seconds", "Lat.", {}, {1}).get();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 1000; ++i) {
        c.with({std::to_string(t % 2)}).inc();
        h.observe(0.5);
      }
    });
  for (auto& t : threads) t.join();
  BOOST_TEST(c.with({"0"}).value() == 2000.0);
  BOOST_TEST(c.with({"1"}).value() == 2000.0);
  BOOST_TEST(h.snap().count == 4000u);
}

// Every controller-runtime name and label the operator promises, in a
// rendering the strict reader accepts.
BOOST_AUTO_TEST_CASE(controller_runtime_names_and_labels) {
  registry reg;
  controller_metrics m{reg, "keystoneuser"};
  m.reconcile_success.inc();
  m.reconcile_time.observe(0.2);
  m.queue_duration.observe(0.001);
  m.work_duration.observe(0.2);
  m.max_concurrent_reconciles.set(4);
  rest_client_metrics rest{reg};
  rest.request(200, "GET", "127.0.0.1:6443");
  rest.request(0, "PUT", "127.0.0.1:6443");
  auto fams = parse(reg.render());
  struct row {
    const char* name;
    const char* type;
    std::vector<std::string> labels;
  };
  const row rows[] = {
      {"controller_runtime_reconcile_total", "counter", {"controller", "result"}},
      {"controller_runtime_reconcile_errors_total", "counter", {"controller"}},
      {"controller_runtime_reconcile_time_seconds", "histogram", {"controller"}},
      {"controller_runtime_max_concurrent_reconciles", "gauge", {"controller"}},
      {"controller_runtime_active_workers", "gauge", {"controller"}},
      {"workqueue_depth", "gauge", {"controller", "name"}},
      {"workqueue_adds_total", "counter", {"controller", "name"}},
      {"workqueue_queue_duration_seconds", "histogram", {"controller", "name"}},
      {"workqueue_work_duration_seconds", "histogram", {"controller", "name"}},
      {"workqueue_retries_total", "counter", {"controller", "name"}},
      {"rest_client_requests_total", "counter", {"code", "host", "method"}},
      {"c5c3_order_actors", "gauge", {"controller"}},
      {"c5c3_orders_parked", "gauge", {"controller"}},
      {"c5c3_child_echoes_total", "counter", {"controller"}},
      {"c5c3_pass_wakes_total", "counter", {"cause", "controller"}},
      {"c5c3_mailbox_depth", "gauge", {"actor", "controller"}},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      BOOST_REQUIRE(fams.count(r.name));
      const auto& f = fams.at(r.name);
      BOOST_TEST(f.type == r.type);
      BOOST_TEST(!f.help.empty());
      BOOST_REQUIRE(!f.samples.empty());
      auto labels = f.samples.front().labels;
      labels.erase("le");
      std::vector<std::string> names;
      for (const auto& [k, v] : labels) names.push_back(k);
      BOOST_TEST(names == r.labels);
      if (f.type == std::string("histogram")) check_histogram(f);
    }
  }
  // The four results are present from the start, as controller-runtime initialises them.
  int results = 0;
  for (const auto& s : fams.at("controller_runtime_reconcile_total").samples) {
    ++results;
    BOOST_TEST(s.labels.at("controller") == "keystoneuser");
    BOOST_TEST(s.value == (s.labels.at("result") == "success" ? 1.0 : 0.0));
  }
  BOOST_TEST(results == 4);
  // Every cause of a wake-up is present from the start.
  std::set<std::string> causes;
  for (const auto& s : fams.at("c5c3_pass_wakes_total").samples) causes.insert(s.labels.at("cause"));
  BOOST_TEST(causes ==
                 (std::set<std::string>{"child", "grace", "host", "order", "requeue", "rotation", "timer"}),
             boost::test_tools::per_element());
  std::map<std::string, double> codes;
  for (const auto& s : fams.at("rest_client_requests_total").samples)
    codes[s.labels.at("code")] = s.value;
  BOOST_TEST(codes["200"] == 1.0);
  BOOST_TEST(codes["<error>"] == 1.0);
}

BOOST_AUTO_TEST_SUITE_END()
