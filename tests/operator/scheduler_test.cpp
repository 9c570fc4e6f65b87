// The operator's scheduler settings (actors/operator/scheduler.hpp): the
// cgroup CPU limit read from cpu.max and the worker count chosen from it.
#include "actors/operator/scheduler.hpp"

#include <boost/test/unit_test.hpp>

#include <optional>
#include <string>

using namespace c5c3::operator_;

BOOST_AUTO_TEST_SUITE(operator_scheduler)

BOOST_AUTO_TEST_CASE(cpu_max_as_cgroup_v2_writes_it) {
  struct row {
    const char* text;
    std::optional<double> cpus;
  };
  const row rows[] = {
      {"max 100000\n", std::nullopt},  // no limit
      {"150000 100000\n", 1.5},
      {"200000 100000", 2.0},
      {"50000 100000\n", 0.5},
      {"", std::nullopt},
      {"garbage", std::nullopt},
      {"0 100000", std::nullopt},
      {"100000 0", std::nullopt},
      {"12x 100000", std::nullopt},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT("cpu.max \"" << r.text << "\"") {
      auto got = parse_cpu_max(r.text);
      BOOST_TEST(got.has_value() == r.cpus.has_value());
      if (got && r.cpus) BOOST_TEST(*got == *r.cpus);
    }
  }
}

BOOST_AUTO_TEST_CASE(worker_count_from_the_flag_or_the_cores) {
  BOOST_TEST(worker_threads(0, 1) == 2u);  // never fewer than 2
  BOOST_TEST(worker_threads(0, 2) == 2u);
  BOOST_TEST(worker_threads(0, 16) == 16u);
  BOOST_TEST(worker_threads(1, 16) == 1u);  // the flag wins
  BOOST_TEST(worker_threads(6, 2) == 6u);
  BOOST_TEST(usable_cores() >= 1u);
}

BOOST_AUTO_TEST_SUITE_END()
