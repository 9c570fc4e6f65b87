// Per-order error backoff, as controller-runtime's default workqueue rate
// limiter does per item (ItemExponentialFailureRateLimiter(5ms, 1000s)): the
// n-th consecutive failure waits base * 2^(n-1), capped at max; a success
// (Forget) resets it.
#pragma once

#include <caf/timespan.hpp>

#include <chrono>
#include <cstdint>

namespace c5c3::runtime {

class backoff {
 public:
  static constexpr caf::timespan default_base = std::chrono::milliseconds(5);
  static constexpr caf::timespan default_max = std::chrono::seconds(1000);

  explicit backoff(caf::timespan base = default_base, caf::timespan max = default_max)
      : base_(base), max_(max) {}

  // Records one more failure and returns how long to wait before retrying.
  caf::timespan next();
  // A success: the next failure waits `base` again.
  void reset() { failures_ = 0; }
  // Consecutive failures so far (client-go's NumRequeues).
  std::uint32_t failures() const { return failures_; }

 private:
  caf::timespan base_;
  caf::timespan max_;
  std::uint32_t failures_ = 0;
};

}  // namespace c5c3::runtime
