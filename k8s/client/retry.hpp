// Resilience policy, pure: which failures are retried, how long to wait
// (exponential backoff with jitter, Retry-After), and the optional client-side
// QPS/burst limiter (a token bucket; off by default, as controller-runtime).
#pragma once

#include "k8s/status.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace c5c3::k8s {

struct retry_policy {
  int max_retries = 5;  // attempts after the first; 0 disables retries
  std::chrono::milliseconds initial_backoff{100};
  std::chrono::milliseconds max_backoff{10'000};
  double factor = 2.0;
  double jitter = 0.2;  // the delay is stretched by up to this fraction
  // Longest Retry-After honoured; a larger one is clamped to it.
  std::chrono::milliseconds max_retry_after{60'000};
};

// The backoff before retry number `attempt` (1-based): initial * factor^(attempt-1),
// capped at max_backoff, then stretched by jitter * `random01` (a value in [0,1)).
std::chrono::milliseconds backoff_delay(const retry_policy& p, int attempt, double random01);

// Whether a failed request may be sent again. Reads (GET) are retried on any
// transport error and on 5xx. Any verb is retried on 429, on a 5xx that carries
// Retry-After (the server says it did not act, as client-go's IsRetryAfter),
// and when the connection could not be established (nothing was sent).
bool should_retry(std::string_view method, const api_error& e, bool nothing_sent);

// How long to wait before the retry: Retry-After when the server gave one
// (clamped), else the backoff.
std::chrono::milliseconds retry_delay(const retry_policy& p, const api_error& e, int attempt,
                                      double random01);

// The caller's deadline (a request's `rest_request::deadline`): no attempt of a
// request starts once it has passed, whether the attempt is the first, comes
// after the limiter's wait, or after a backoff or a Retry-After; an attempt
// in flight is cut at it. The error the caller then gets: code 0 (no answer
// the caller may rely on), reason Timeout, naming the request and the object
// ("ConfigMap default/cm1") and what the last attempt met, if any.
// `why` says where the deadline stopped it ("before attempt 3: Retry-After
// 1s outlives it").
api_error deadline_exceeded(std::string request, std::string_view object, std::string_view why,
                            const api_error* last);
// Whether `e` is such an error (the request was given up at its deadline).
bool is_deadline_exceeded(const api_error& e);

// Parses a Retry-After header holding delay-seconds ("3"); HTTP dates are not
// used by the API server and give nullopt.
std::optional<int> parse_retry_after(std::string_view header);

// Token bucket: `qps` tokens per second, at most `burst` stored. qps <= 0
// means unlimited (reserve always answers zero).
class token_bucket {
 public:
  using clock = std::chrono::steady_clock;
  token_bucket(double qps, int burst, clock::time_point now = clock::now());
  // Takes a token, possibly in the future: the wait before the request may go.
  std::chrono::nanoseconds reserve(clock::time_point now);
  bool unlimited() const { return qps_ <= 0; }

 private:
  double qps_;
  double burst_;
  double tokens_;
  clock::time_point last_;
};

}  // namespace c5c3::k8s
