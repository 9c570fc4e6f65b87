#include "actors/runtime/backoff.hpp"
#include "actors/runtime/pass.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::runtime;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(backoff_policy)

// controller-runtime's ItemExponentialFailureRateLimiter(5ms, 1000s).
BOOST_AUTO_TEST_CASE(doubles_from_5ms_and_caps_at_1000s) {
  backoff b;
  struct row {
    int failure;
    caf::timespan expected;
  };
  const row rows[] = {
      {1, 5ms},     {2, 10ms},    {3, 20ms},    {4, 40ms},     {5, 80ms},
      {6, 160ms},   {7, 320ms},   {8, 640ms},   {9, 1280ms},   {10, 2560ms},
      {11, 5120ms}, {12, 10240ms}, {13, 20480ms}, {14, 40960ms}, {15, 81920ms},
      {16, 163840ms}, {17, 327680ms}, {18, 655360ms}, {19, 1000s}, {20, 1000s},
  };
  for (const auto& r : rows) {
    auto d = b.next();
    BOOST_TEST_CONTEXT("failure " << r.failure) {
      BOOST_TEST(d.count() == r.expected.count());
      BOOST_TEST(b.failures() == static_cast<std::uint32_t>(r.failure));
    }
  }
  // Far past the cap it stays there (no overflow).
  for (int i = 0; i < 200; ++i) b.next();
  BOOST_TEST(b.next().count() == caf::timespan{1000s}.count());
}

BOOST_AUTO_TEST_CASE(reset_starts_over) {
  backoff b;
  b.next();
  b.next();
  b.next();
  b.reset();
  BOOST_TEST(b.failures() == 0u);
  BOOST_TEST(b.next().count() == caf::timespan{5ms}.count());
}

BOOST_AUTO_TEST_CASE(custom_base_and_cap) {
  backoff b{1s, 3s};
  BOOST_TEST(b.next().count() == caf::timespan{1s}.count());
  BOOST_TEST(b.next().count() == caf::timespan{2s}.count());
  BOOST_TEST(b.next().count() == caf::timespan{3s}.count());
  BOOST_TEST(b.next().count() == caf::timespan{3s}.count());
}

BOOST_AUTO_TEST_CASE(pass_result_constructors) {
  BOOST_TEST((pass_result::converged().outcome == pass_outcome::converged));
  auto r = pass_result::requeue_after(30s);
  BOOST_TEST((r.outcome == pass_outcome::requeue_after));
  BOOST_TEST(r.after.count() == caf::timespan{30s}.count());
  // RequeueAfter 0 is plain success in controller-runtime.
  BOOST_TEST((pass_result::requeue_after(0s).outcome == pass_outcome::converged));
  BOOST_TEST((pass_result::requeue_after(-1s).outcome == pass_outcome::converged));
  BOOST_TEST((pass_result::requeue().outcome == pass_outcome::requeue));
  auto f = pass_result::failed("boom");
  BOOST_TEST((f.outcome == pass_outcome::error));
  BOOST_TEST(f.error == "boom");
  auto t = pass_result::converged().arm("rotation", 1h).arm("grace", 2h);
  BOOST_TEST(t.timers.size() == 2u);
  BOOST_TEST(t.timers.at("grace").count() == caf::timespan{2h}.count());
  BOOST_TEST(std::string(to_string(pass_outcome::requeue_after)) == "requeue_after");
}

BOOST_AUTO_TEST_SUITE_END()
