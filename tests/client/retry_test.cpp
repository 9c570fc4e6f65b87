#include "k8s/client/retry.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::k8s;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(client_retry)

BOOST_AUTO_TEST_CASE(backoff_grows_is_capped_and_jittered) {
  retry_policy p;
  p.initial_backoff = 100ms;
  p.max_backoff = 1000ms;
  p.factor = 2;
  p.jitter = 0.5;
  BOOST_TEST(backoff_delay(p, 1, 0.0).count() == 100);
  BOOST_TEST(backoff_delay(p, 2, 0.0).count() == 200);
  BOOST_TEST(backoff_delay(p, 3, 0.0).count() == 400);
  BOOST_TEST(backoff_delay(p, 5, 0.0).count() == 1000);   // capped
  BOOST_TEST(backoff_delay(p, 50, 0.0).count() == 1000);  // no overflow
  BOOST_TEST(backoff_delay(p, 1, 0.999).count() == 149);  // + up to 50%
  BOOST_TEST(backoff_delay(p, 1, 0.5).count() == 125);
}

struct retry_case {
  const char* method;
  int code;
  bool retry_after;
  bool nothing_sent;
  bool expect;
};

BOOST_AUTO_TEST_CASE(which_failures_are_retried) {
  const retry_case cases[] = {
      {"GET", 0, false, false, true},      // connection reset on a read
      {"POST", 0, false, false, false},    // a create may have happened
      {"POST", 0, false, true, true},      // never reached the server
      {"PUT", 0, false, true, true},
      {"GET", 500, false, false, true},
      {"GET", 503, false, false, true},
      {"POST", 500, false, false, false},
      {"POST", 503, true, false, true},    // the server says: not done, come back
      {"DELETE", 500, true, false, true},
      {"PATCH", 429, true, false, true},
      {"POST", 429, false, false, true},
      {"GET", 404, false, false, false},
      {"GET", 409, false, false, false},
      {"PUT", 409, false, false, false},
      {"GET", 410, false, false, false},
      {"GET", 401, false, false, false},
  };
  for (const auto& c : cases) {
    BOOST_TEST_CONTEXT(c.method << " " << c.code << " retry-after " << c.retry_after) {
      api_error e;
      e.code = c.code;
      if (c.retry_after) e.retry_after_seconds = 1;
      BOOST_TEST(should_retry(c.method, e, c.nothing_sent) == c.expect);
    }
  }
}

BOOST_AUTO_TEST_CASE(retry_after_wins_over_backoff_and_is_clamped) {
  retry_policy p;
  p.initial_backoff = 10ms;
  p.max_retry_after = 5000ms;
  api_error e;
  e.code = 429;
  e.retry_after_seconds = 2;
  BOOST_TEST(retry_delay(p, e, 1, 0.0).count() == 2000);
  e.retry_after_seconds = 600;
  BOOST_TEST(retry_delay(p, e, 1, 0.0).count() == 5000);
  e.retry_after_seconds.reset();
  BOOST_TEST(retry_delay(p, e, 1, 0.0).count() == 10);
  BOOST_TEST(parse_retry_after("3").value() == 3);
  BOOST_TEST(parse_retry_after(" 12 ").value() == 12);
  BOOST_TEST(!parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"));
  BOOST_TEST(!parse_retry_after(""));
  BOOST_TEST(!parse_retry_after("-1"));
}

BOOST_AUTO_TEST_CASE(token_bucket_limits_rate_after_burst) {
  using clock = token_bucket::clock;
  auto t0 = clock::time_point{} + 1h;
  token_bucket off(0, 0, t0);
  for (int i = 0; i < 100; ++i) BOOST_TEST(off.reserve(t0).count() == 0);

  token_bucket b(10, 3, t0);  // 10/s, burst 3
  BOOST_TEST(b.reserve(t0).count() == 0);
  BOOST_TEST(b.reserve(t0).count() == 0);
  BOOST_TEST(b.reserve(t0).count() == 0);
  auto d4 = b.reserve(t0);
  auto d5 = b.reserve(t0);
  BOOST_TEST(std::chrono::duration_cast<std::chrono::milliseconds>(d4).count() == 100);
  BOOST_TEST(std::chrono::duration_cast<std::chrono::milliseconds>(d5).count() == 200);
  // One second later the debt is paid and tokens refill up to the burst only.
  auto t1 = t0 + 1s;
  BOOST_TEST(b.reserve(t1).count() == 0);
  auto t2 = t1 + 10s;
  BOOST_TEST(b.reserve(t2).count() == 0);
  BOOST_TEST(b.reserve(t2).count() == 0);
  BOOST_TEST(b.reserve(t2).count() == 0);
  BOOST_TEST(b.reserve(t2).count() > 0);
}

// The error a request gets at its caller's deadline: a Timeout without an
// HTTP answer, naming the request and the object, and what the last attempt met.
BOOST_AUTO_TEST_CASE(the_deadline_error_names_the_request_the_object_and_the_last_answer) {
  api_error last;
  last.code = 503;
  last.reason = "ServiceUnavailable";
  last.message = "the server is busy";
  last.request = "POST /api/v1/namespaces/default/configmaps";
  auto e = deadline_exceeded("POST /api/v1/namespaces/default/configmaps", "ConfigMap default/cm1",
                             "before attempt 3 (its wait of 1000 ms outlives it)", &last);
  BOOST_TEST(is_deadline_exceeded(e));
  BOOST_TEST(e.transport());  // no answer the caller may rely on
  BOOST_TEST(!should_retry("POST", e, false));
  BOOST_TEST(e.describe() ==
             "POST /api/v1/namespaces/default/configmaps: Timeout: the caller's deadline passed before attempt 3 (its "
             "wait of 1000 ms outlives it) (ConfigMap default/cm1); the last attempt met: 503 ServiceUnavailable: "
             "the server is busy");
  auto first = deadline_exceeded("PATCH /apis/x/v1/ws/w", "", "before the first attempt", nullptr);
  BOOST_TEST(first.describe() == "PATCH /apis/x/v1/ws/w: Timeout: the caller's deadline passed before the first attempt");
  api_error transport;
  transport.request = "GET /api";
  transport.message = "connection refused";
  BOOST_TEST(!is_deadline_exceeded(transport));
  BOOST_TEST(transport.describe() == "GET /api: transport error: connection refused");
}

BOOST_AUTO_TEST_SUITE_END()
