// The order metrics' pure parts (actors/runtime/order_metrics.hpp): the Ready
// state and rotation times read from an order, the lag of the rotation a pass
// made, the most overdue due time, and the tracker's series as passes settle
// and orders go away (a private registry, a fixed clock).
#include "actors/runtime/order_metrics.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace c5c3;
using namespace c5c3::runtime;

namespace {

k8s::time_point at(const char* t) { return *k8s::parse_rfc3339(t); }

// A RabbitMQVhost-like order with the given status fields ("" leaves one out).
k8s::object order(const std::string& ready, const std::string& reason, const std::string& last,
                  const std::string& next) {
  std::string status = R"({"conditions":[)";
  if (!ready.empty())
    status += R"({"type":"Ready","status":")" + ready + R"(","reason":")" + reason +
              R"(","message":"m","lastTransitionTime":"2026-12-01T00:00:00Z"})";
  status += "]";
  if (!last.empty()) status += R"(,"lastRotation":")" + last + "\"";
  if (!next.empty()) status += R"(,"nextRotation":")" + next + "\"";
  status += "}";
  return *k8s::object::parse(R"({"apiVersion":"c5c3.io/v1alpha1","kind":"RabbitMQVhost","metadata":{"name":"o",)"
                             R"("namespace":"tenant-a"},"status":)" +
                             status + "}");
}

double value(const metrics::registry& reg, const std::string& series) {
  auto text = reg.render();
  auto pos = text.find("\n" + series + " ");
  if (pos == std::string::npos) return -1;
  return std::stod(text.substr(pos + series.size() + 2));
}

bool has(const metrics::registry& reg, const std::string& name) {
  return reg.render().find("\n" + name) != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(order_metrics_logic)

BOOST_AUTO_TEST_CASE(ready_state_and_due_time_come_from_the_status) {
  auto o = order("False", "NotAllReady", "2026-12-01T00:00:00Z", "2026-12-31T00:00:00Z");
  BOOST_TEST_REQUIRE(ready_of(o).has_value());
  BOOST_TEST(ready_of(o)->status == "False");
  BOOST_TEST(ready_of(o)->reason == "NotAllReady");
  BOOST_TEST((rotation_due(o) == at("2026-12-31T00:00:00Z")));
  auto bare = order("", "", "", "");
  BOOST_TEST(!ready_of(bare).has_value());
  BOOST_TEST(!rotation_due(bare).has_value());
  BOOST_TEST(!ready_of(k8s::object{}).has_value());
}

BOOST_AUTO_TEST_CASE(rotation_lag_table) {
  struct row {
    const char* what;
    const char* last_before;
    const char* due_before;
    const char* last_after;
    double want;  // < 0: none
  };
  const row rows[] = {
      {"ran 90 s after it was due", "2026-12-01T00:00:00Z", "2026-12-01T01:00:00Z", "2026-12-01T01:01:30Z", 90},
      {"ran right when due", "2026-12-01T00:00:00Z", "2026-12-01T01:00:00Z", "2026-12-01T01:00:00Z", 0},
      {"no rotation this pass", "2026-12-01T00:00:00Z", "2026-12-01T01:00:00Z", "2026-12-01T00:00:00Z", -1},
      {"ran before its time (declared)", "2026-12-01T00:00:00Z", "2026-12-01T01:00:00Z", "2026-12-01T00:30:00Z", -1},
      {"first provisioning: nothing was due", "", "", "2026-12-01T00:00:00Z", -1},
      {"schedule off: no due time", "2026-12-01T00:00:00Z", "", "2026-12-01T02:00:00Z", -1},
      {"due without an earlier rotation", "", "2026-12-01T01:00:00Z", "2026-12-01T01:00:05Z", 5},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      auto lag = rotation_lag(order("True", "AllReady", r.last_before, r.due_before),
                              order("True", "AllReady", r.last_after, ""));
      if (r.want < 0) {
        BOOST_TEST(!lag.has_value());
      } else {
        BOOST_TEST_REQUIRE(lag.has_value());
        BOOST_TEST(*lag == r.want);
      }
    }
  }
  BOOST_TEST(!rotation_lag(k8s::object{}, order("True", "AllReady", "2026-12-01T00:00:00Z", "")).has_value());
}

BOOST_AUTO_TEST_CASE(most_overdue_is_the_earliest_past_due_time) {
  auto now = at("2026-12-01T01:00:00Z");
  BOOST_TEST(!most_overdue({}, now).has_value());
  BOOST_TEST(*most_overdue({at("2026-12-01T02:00:00Z")}, now) == 0);
  BOOST_TEST(*most_overdue({at("2026-12-01T02:00:00Z"), at("2026-12-01T00:59:00Z"), at("2026-12-01T00:30:00Z")},
                           now) == 1800);
}

BOOST_AUTO_TEST_CASE(the_tracker_counts_orders_by_reason_and_forgets_gone_ones) {
  metrics::registry reg;
  auto now = at("2026-12-01T01:00:00Z");
  auto m = order_metrics::make(reg, "rabbitmqvhost", [&now] { return now; });
  const protocol::order_key a{"", "tenant-a", "a"}, b{"", "tenant-a", "b"};
  m->settled(a, k8s::object{}, order("False", "NotAllReady", "", ""));
  m->settled(b, k8s::object{}, order("False", "NotAllReady", "", ""));
  BOOST_TEST(value(reg, R"(c5c3_orders{controller="rabbitmqvhost",ready="False",reason="NotAllReady"})") == 2);
  BOOST_TEST_CONTEXT("no rotation series before an order has a due time") {
    BOOST_TEST(!has(reg, "c5c3_rotation_lag_seconds_count"));
    BOOST_TEST(!has(reg, "c5c3_rotation_overdue_seconds{"));
  }

  // a becomes Ready with a rotation due at 01:30.
  m->settled(a, order("False", "NotAllReady", "", ""),
             order("True", "AllReady", "2026-12-01T00:30:00Z", "2026-12-01T01:30:00Z"));
  BOOST_TEST(value(reg, R"(c5c3_orders{controller="rabbitmqvhost",ready="False",reason="NotAllReady"})") == 1);
  BOOST_TEST(value(reg, R"(c5c3_orders{controller="rabbitmqvhost",ready="True",reason="AllReady"})") == 1);
  BOOST_TEST(value(reg, R"(c5c3_rotation_overdue_seconds{controller="rabbitmqvhost"})") == 0);
  BOOST_TEST(value(reg, R"(c5c3_rotation_lag_seconds_count{controller="rabbitmqvhost"})") == 0);

  now = at("2026-12-01T01:40:00Z");
  BOOST_TEST_CONTEXT("the due time passed: overdue by 10 minutes at the scrape") {
    BOOST_TEST(value(reg, R"(c5c3_rotation_overdue_seconds{controller="rabbitmqvhost"})") == 600);
  }

  m->settled(a, order("True", "AllReady", "2026-12-01T00:30:00Z", "2026-12-01T01:30:00Z"),
             order("True", "AllReady", "2026-12-01T01:40:00Z", "2026-12-01T02:40:00Z"));
  BOOST_TEST_CONTEXT("the rotation ran 600 s late") {
    BOOST_TEST(value(reg, R"(c5c3_rotation_lag_seconds_count{controller="rabbitmqvhost"})") == 1);
    BOOST_TEST(value(reg, R"(c5c3_rotation_lag_seconds_sum{controller="rabbitmqvhost"})") == 600);
    BOOST_TEST(value(reg, R"(c5c3_rotation_lag_seconds_bucket{controller="rabbitmqvhost",le="300"})") == 0);
    BOOST_TEST(value(reg, R"(c5c3_rotation_lag_seconds_bucket{controller="rabbitmqvhost",le="600"})") == 1);
    BOOST_TEST(value(reg, R"(c5c3_rotation_overdue_seconds{controller="rabbitmqvhost"})") == 0);
  }

  m->gone(a);
  m->gone(b);
  m->gone(b);  // twice: nothing more
  BOOST_TEST(value(reg, R"(c5c3_orders{controller="rabbitmqvhost",ready="False",reason="NotAllReady"})") == 0);
  BOOST_TEST(value(reg, R"(c5c3_orders{controller="rabbitmqvhost",ready="True",reason="AllReady"})") == 0);
  BOOST_TEST_CONTEXT("no pending rotation: the overdue series goes") {
    BOOST_TEST(!has(reg, "c5c3_rotation_overdue_seconds{"));
  }
  BOOST_TEST(reg.render().find("tenant-a") == std::string::npos);  // no order name is a label
}

BOOST_AUTO_TEST_CASE(a_collector_whose_tracker_is_gone_is_dropped) {
  metrics::registry reg;
  auto m = order_metrics::make(reg, "x", [] { return at("2026-12-01T01:00:00Z"); });
  m->settled({"", "n", "o"}, k8s::object{}, order("True", "AllReady", "2026-12-01T00:00:00Z", "2026-12-01T00:59:00Z"));
  BOOST_TEST(value(reg, R"(c5c3_rotation_overdue_seconds{controller="x"})") == 60);
  m.reset();
  BOOST_TEST(!has(reg, "c5c3_rotation_overdue_seconds{"));  // its series went with it; rendering still works
}

BOOST_AUTO_TEST_SUITE_END()
