#include "actors/runtime/backoff.hpp"

namespace c5c3::runtime {

caf::timespan backoff::next() {
  auto exp = failures_;
  ++failures_;
  // Doubling past the cap (or past 2^62 ns) saturates at max, as client-go's
  // float arithmetic does.
  auto delay = base_;
  for (std::uint32_t i = 0; i < exp; ++i) {
    if (delay >= max_ / 2) return max_;
    delay *= 2;
  }
  return delay > max_ ? max_ : delay;
}

}  // namespace c5c3::runtime
