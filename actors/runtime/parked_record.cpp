#include "actors/runtime/parked_record.hpp"

#include "k8s/time.hpp"

#include <chrono>
#include <optional>
#include <string_view>
#include <tuple>

namespace c5c3::runtime {

namespace {

auto tied(const protocol::pass_report& r) {
  return std::tie(r.stage, r.ready, r.blocked_by, r.waiting_for, r.waiting_condition, r.result);
}

auto tied(const parked_shape& s) {
  return std::tuple_cat(std::tie(s.phase, s.failures, s.armed_timers, s.due_names, s.last_error), tied(s.report));
}

// Seconds since the epoch of an RFC 3339 time that is its own canonical form
// (what format_rfc3339 writes), else nothing.
std::optional<std::int64_t> seconds_of(std::string_view s) {
  auto t = k8s::parse_rfc3339(s);
  if (!t || k8s::format_rfc3339(*t) != s) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::seconds>(t->time_since_epoch()).count();
}

std::string format_seconds(std::int64_t s) { return k8s::format_rfc3339(k8s::time_point{std::chrono::seconds{s}}); }

// An optional wall time ("": none); false when it is not canonical.
bool take_time(const std::string& s, std::optional<std::int64_t>& at) {
  if (s.empty()) return true;
  at = seconds_of(s);
  return at.has_value();
}

}  // namespace

bool parked_shapes::less::operator()(const std::shared_ptr<const parked_shape>& a,
                                     const std::shared_ptr<const parked_shape>& b) const {
  return tied(*a) < tied(*b);
}

std::shared_ptr<const parked_shape> parked_shapes::intern(parked_shape s) {
  auto fresh = std::make_shared<const parked_shape>(std::move(s));
  if (auto i = shapes_.find(fresh); i != shapes_.end()) return *i;
  // Shapes no record holds any more go once the set has doubled since the last prune.
  if (shapes_.size() >= 2 * kept_after_prune_ + 16) {
    std::erase_if(shapes_, [](const auto& p) { return p.use_count() == 1; });
    kept_after_prune_ = shapes_.size();
  }
  shapes_.insert(fresh);
  return fresh;
}

parked_record compact(protocol::order_probe p, parked_shapes& shapes) {
  parked_record r;
  r.passes_started = p.passes_started;
  r.passes_finished = p.passes_finished;
  r.idle_ticks = p.idle_ticks;
  parked_shape s;
  bool exact = !p.wake_pending && p.ticks_in_flight == 0 && p.writes_in_flight == 0 &&
               take_time(p.last_pass_at, r.last_pass_at) && take_time(p.last_error_at, r.last_error_at);
  for (std::size_t i = 0; exact && i < p.timers_due.size(); ++i) {
    const auto& due = p.timers_due[i];  // "<name> <time>"
    auto space = due.rfind(' ');
    auto at = space == std::string::npos ? std::nullopt : seconds_of(std::string_view(due).substr(space + 1));
    exact = at.has_value();
    if (!exact) break;
    s.due_names.push_back(due.substr(0, space));
    r.due_at.push_back(*at);
  }
  if (!exact) {
    parked_record whole;
    whole.whole = std::make_unique<const protocol::order_probe>(std::move(p));
    return whole;
  }
  s.phase = p.phase;
  s.failures = p.failures;
  s.armed_timers = std::move(p.armed_timers);
  s.last_error = std::move(p.last_error);
  s.report = std::move(p.report);
  r.shape = shapes.intern(std::move(s));
  return r;
}

protocol::order_probe expand(const parked_record& r, const protocol::order_key& key) {
  if (r.whole) {
    auto p = *r.whole;
    p.key = key;
    return p;
  }
  protocol::order_probe p;
  p.key = key;
  p.passes_started = r.passes_started;
  p.passes_finished = r.passes_finished;
  p.idle_ticks = r.idle_ticks;
  if (r.last_pass_at) p.last_pass_at = format_seconds(*r.last_pass_at);
  if (r.last_error_at) p.last_error_at = format_seconds(*r.last_error_at);
  if (const auto& s = r.shape) {
    p.phase = s->phase;
    p.failures = s->failures;
    p.armed_timers = s->armed_timers;
    p.last_error = s->last_error;
    p.report = s->report;
    for (std::size_t i = 0; i < s->due_names.size() && i < r.due_at.size(); ++i)
      p.timers_due.push_back(s->due_names[i] + " " + format_seconds(r.due_at[i]));
  }
  return p;
}

}  // namespace c5c3::runtime
