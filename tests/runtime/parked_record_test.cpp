// The compact record a host keeps of a parked order (parked_record.hpp):
// expand(compact(p)) gives p back exactly, whatever p is; converged orders
// with the same report share one shape.
#include "actors/runtime/parked_record.hpp"

#include <boost/test/unit_test.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

using namespace c5c3;
using namespace c5c3::runtime;

namespace {

// Every field of a probe, to compare two of them.
std::string fields(const protocol::order_probe& p) {
  const auto& r = p.report;
  return fmt::format("{}/{}/{} phase={} wake={} passes={}/{} idle={} ticks={} failures={} armed=[{}] error={} "
                     "report=[{}|{}|{}|{}|{}|{}] at={} error_at={} due=[{}] writes={}",
                     p.key.cluster, p.key.namespace_, p.key.name, p.phase, p.wake_pending, p.passes_started,
                     p.passes_finished, p.idle_ticks, p.ticks_in_flight, p.failures, fmt::join(p.armed_timers, ","),
                     p.last_error, r.stage, r.ready, r.blocked_by, r.waiting_for, r.waiting_condition, r.result,
                     p.last_pass_at, p.last_error_at, fmt::join(p.timers_due, ","), p.writes_in_flight);
}

protocol::order_probe converged(const std::string& name, std::uint64_t passes, const std::string& at) {
  protocol::order_probe p;
  p.key = {"", "tenant-a", name};
  p.phase = static_cast<std::uint8_t>(protocol::order_phase::parked);
  p.passes_started = passes;
  p.passes_finished = passes;
  p.idle_ticks = 1;
  p.armed_timers = {"rotation"};
  p.timers_due = {"rotation " + at};
  p.report = {"legs", "True Ready: all conditions are true", "", "", "", "converged"};
  p.last_pass_at = at;
  return p;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(parked_record_compaction)

BOOST_AUTO_TEST_CASE(expand_gives_back_the_probe_the_actor_left) {
  struct row {
    const char* what;
    protocol::order_probe probe;
    bool whole;  // kept as it came
  };
  auto failed = converged("f", 7, "2026-12-06T05:00:00Z");
  failed.failures = 3;
  failed.last_error = "RabbitMQ unreachable";
  failed.last_error_at = "2026-12-06T04:59:00Z";
  auto no_timers = converged("n", 2, "2026-12-06T05:00:00Z");
  no_timers.armed_timers.clear();
  no_timers.timers_due.clear();
  auto never_ran = protocol::order_probe{};
  never_ran.key = {"target-1", "tenant-b", "fresh"};
  auto fractional = converged("x", 1, "2026-12-06T05:00:00.5Z");  // parses, but is not written back alike
  auto offset = converged("o", 1, "2026-12-06T05:00:00Z");
  offset.timers_due = {"rotation 2026-12-06T07:00:00+02:00"};
  auto in_flight = converged("w", 1, "2026-12-06T05:00:00Z");
  in_flight.writes_in_flight = 1;
  auto spaced = converged("s", 1, "2026-12-06T05:00:00Z");
  spaced.armed_timers = {"grace period"};
  spaced.timers_due = {"grace period 2026-12-06T06:00:00Z"};
  const row rows[] = {
      {"converged, a timer armed", converged("a", 4, "2026-12-06T05:00:00Z"), false},
      {"after failures", failed, false},
      {"no timers", no_timers, false},
      {"never ran (no times)", never_ran, false},
      {"a timer name with a space", spaced, false},
      {"a fractional time", fractional, true},
      {"a time with an offset", offset, true},
      {"a write in flight", in_flight, true},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      parked_shapes shapes;
      auto rec = compact(r.probe, shapes);
      BOOST_TEST(static_cast<bool>(rec.whole) == r.whole);
      BOOST_TEST(fields(expand(rec, r.probe.key)) == fields(r.probe));
    }
  }
}

BOOST_AUTO_TEST_CASE(orders_with_the_same_report_share_one_shape) {
  parked_shapes shapes;
  auto a = compact(converged("a", 4, "2026-12-06T05:00:00Z"), shapes);
  auto b = compact(converged("b", 9, "2026-12-06T05:01:40Z"), shapes);
  BOOST_TEST(a.shape == b.shape);  // one copy
  BOOST_TEST(shapes.size() == 1u);
  auto other = converged("c", 1, "2026-12-06T05:00:00Z");
  other.report.result = "requeue after 10s";
  auto c = compact(other, shapes);
  BOOST_TEST(c.shape != a.shape);
  BOOST_TEST(shapes.size() == 2u);
  // Each keeps its own counters and times.
  BOOST_TEST(expand(b, {"", "tenant-a", "b"}).passes_started == 9u);
  BOOST_TEST(expand(b, {"", "tenant-a", "b"}).timers_due.front() == "rotation 2026-12-06T05:01:40Z");
}

BOOST_AUTO_TEST_CASE(shapes_no_record_holds_go_as_the_set_grows) {
  parked_shapes shapes;
  std::vector<parked_record> kept;
  for (int i = 0; i < 100; ++i) {
    auto p = converged("o" + std::to_string(i), 1, "2026-12-06T05:00:00Z");
    p.report.ready = "False NotReady: " + std::to_string(i);  // every order its own
    auto rec = compact(p, shapes);
    if (i % 10 == 0) kept.push_back(std::move(rec));  // the others unpark at once
  }
  BOOST_TEST(shapes.size() < 50u);  // pruned, not 100
  for (const auto& rec : kept)  // the held ones are still there, intact
    BOOST_TEST(expand(rec, {}).report.ready.rfind("False NotReady: ", 0) == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
