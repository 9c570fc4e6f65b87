// What a host keeps of a parked order: the probe its actor left, compacted
// (pure; order_host_park.cpp keeps one per parked order).
//
// A parked order's probe is what explain shows and what its next actor goes
// on from. Kept whole it was the largest part of a parked order (0.76 KiB of
// 1.44: the 450-byte struct and its strings; bench/README.md, "P2: parking the
// kinds with admission"). Most of it is the same across a host's converged
// orders (the last pass's report, the names of the armed timers), so that
// part is shared (parked_shapes); what is the order's own (its counters, its
// wall times as seconds) stays in the record. expand() gives the probe back
// exactly; a probe compact() could not give back exactly (a time string that
// is not its own canonical RFC 3339 form, a parked probe with something in
// flight) is kept whole.
#pragma once

#include "protocol/order.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace c5c3::runtime {

// The part of a parked order's probe that orders share.
struct parked_shape {
  std::uint8_t phase = 0;
  std::uint32_t failures = 0;
  std::vector<std::string> armed_timers;
  std::vector<std::string> due_names;  // the timers of timers_due, in order
  std::string last_error;
  protocol::pass_report report;
};

// One shared copy of each shape in use.
class parked_shapes {
 public:
  std::shared_ptr<const parked_shape> intern(parked_shape s);
  // Shapes held (some may be unused until the next prune).
  std::size_t size() const { return shapes_.size(); }

 private:
  struct less {
    bool operator()(const std::shared_ptr<const parked_shape>& a, const std::shared_ptr<const parked_shape>& b) const;
  };
  std::set<std::shared_ptr<const parked_shape>, less> shapes_;
  std::size_t kept_after_prune_ = 0;
};

struct parked_record {
  std::uint64_t passes_started = 0;
  std::uint64_t passes_finished = 0;
  std::uint64_t idle_ticks = 0;
  // Seconds since the epoch of last_pass_at and last_error_at (none: "").
  std::optional<std::int64_t> last_pass_at;
  std::optional<std::int64_t> last_error_at;
  std::vector<std::int64_t> due_at;  // seconds, one per shape->due_names
  std::shared_ptr<const parked_shape> shape;
  std::unique_ptr<const protocol::order_probe> whole;  // what could not be compacted
};

parked_record compact(protocol::order_probe p, parked_shapes& shapes);
// The probe as the actor left it, for `key`.
protocol::order_probe expand(const parked_record& r, const protocol::order_key& key);

}  // namespace c5c3::runtime
