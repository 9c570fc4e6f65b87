#include "sim/world/korc_status.hpp"

#include <fmt/format.h>

namespace c5c3::sim::world {
namespace {

std::string joined(const std::vector<std::string>& msgs) {
  std::string out;
  for (const auto& m : msgs) {
    if (!out.empty()) out += "\n";
    out += m;
  }
  return out;
}

// The new condition, keeping the old lastTransitionTime when nothing but it would change.
k8s::condition with_time(const k8s::object& current, k8s::condition c, k8s::time_point now) {
  c.last_transition_time = k8s::format_rfc3339(now);
  if (auto old = current.find_condition(c.type)) {
    if (old->status == c.status && old->reason == c.reason && old->message == c.message &&
        old->observed_generation == c.observed_generation && !old->last_transition_time.empty())
      c.last_transition_time = old->last_transition_time;
  }
  return c;
}

}  // namespace

std::string korc_waiting_on(std::string_view kind, std::string_view name, std::string_view outcome) {
  return fmt::format("Waiting for {}/{} to be {}", kind, name, outcome);
}

std::string korc_waiting_on_finalizer(std::string_view finalizer) {
  return fmt::format("Waiting for finalizer {} to be removed", finalizer);
}

void korc_progress::wait(std::string message, std::optional<std::chrono::nanoseconds> after) {
  messages.push_back(std::move(message));
  if (after && (!requeue || *after < *requeue)) requeue = after;
}

void korc_progress::fail_terminal(std::string_view reason, std::string message) {
  terminal = std::pair{std::string(reason), std::move(message)};
}

void korc_write_conditions(k8s::object_builder& b, const k8s::object& current, std::string_view available,
                           const korc_progress& p, k8s::time_point now) {
  const auto gen = current.generation();
  k8s::condition progressing{"Progressing", "", "", "", "", gen};
  if (!p.needs_reschedule()) {
    progressing.status = "False";
    progressing.reason = korc_reason::success;
    progressing.message = korc_message::up_to_date;
  } else if (p.terminal) {
    progressing.status = "False";
    progressing.reason = p.terminal->first;
    progressing.message = p.terminal->second;
  } else if (p.error) {
    progressing.status = "True";
    progressing.reason = korc_reason::transient_error;
    progressing.message = *p.error;
  } else {
    progressing.status = "True";
    progressing.reason = korc_reason::progressing;
    progressing.message = joined(p.messages);
  }
  k8s::condition avail{"Available", std::string(available), "", "", "", gen};
  if (avail.status != "True" && p.terminal) avail.status = "False";
  if (avail.status == "True") {
    avail.reason = korc_reason::success;
    avail.message = korc_message::available;
  } else {
    avail.reason = progressing.reason;
    avail.message = progressing.message;
  }
  std::vector<k8s::condition> conds{with_time(current, avail, now), with_time(current, progressing, now)};
  // Keep conditions of other types (K-ORC writes only these two).
  for (const auto& c : current.conditions())
    if (c.type != "Available" && c.type != "Progressing") conds.push_back(c);
  k8s::write_conditions(b, conds);
  if (!p.needs_reschedule()) b.set_string({"status", "lastSyncTime"}, k8s::format_rfc3339(now));
}

bool korc_available(const k8s::object& o) {
  auto c = o.find_condition("Available");
  return c && c->is_true();
}

std::optional<std::pair<std::string, std::string>> korc_terminal_error(const k8s::object& o) {
  auto c = o.find_condition("Progressing");
  if (!c || c->status != "False" || c->observed_generation != o.generation()) return std::nullopt;
  if (c->reason != korc_reason::invalid_configuration && c->reason != korc_reason::unrecoverable_error) return std::nullopt;
  return std::pair{c->reason, c->message};
}

bool korc_waiting_external(const k8s::object& o) {
  auto c = o.find_condition("Available");
  return c && c->status == "False" && c->message.find(korc_message::waiting_external) != std::string::npos;
}

}  // namespace c5c3::sim::world
