// settle_korc: what K-ORC writes once the calls of a plan ran (its UpdateStatus
// and the finalizer's removal).
#include "sim/world/korc_step.hpp"

namespace c5c3::sim::world {
namespace {

using intent = korc_plan::intent;

// The subject with its status written from the plan's outcome.
k8s::object status_of(const korc_snapshot& s, const korc_kind_info& info, const korc_plan& plan, const korc_progress& p,
                      const k8s::object& record, const std::optional<std::string>& set_id,
                      const std::optional<std::string>& applied) {
  const auto& o = s.subject;
  auto b = o.edit();
  if (plan.clear_id) b.remove({"status", "id"});
  if (set_id && !set_id->empty()) b.set_string({"status", "id"}, *set_id);
  if (record) {
    auto keep = std::string(o.get_string({"status", "resource", "appliedPasswordRef"}));
    auto status = korc_resource_status(info.kind, record, b.alloc());
    b.set({"status", "resource"}, std::move(status));
    if (info.kind == korc_kind::user && (applied || !keep.empty()))
      b.set_string({"status", "resource", "appliedPasswordRef"}, applied ? *applied : keep);
  } else if (applied) {
    b.set_string({"status", "resource", "appliedPasswordRef"}, *applied);
  }
  const bool has_id = !plan.clear_id && (set_id || !o.get_string({"status", "id"}).empty());
  std::string_view available = record ? "True" : (info.has_id && has_id ? "Unknown" : "False");
  korc_write_conditions(b, o, available, p, s.now);
  return std::move(b).freeze();
}

// An error of a create or an update: retryable, or terminal InvalidConfiguration.
void call_failed(korc_progress& p, const identity_error& e, std::string_view prefix) {
  if (e.retryable()) {
    p.error = e.message;
  } else {
    p.fail_terminal(korc_reason::invalid_configuration, std::string(prefix) + e.message);
  }
}

}  // namespace

korc_settled settle_korc(const korc_snapshot& s, const korc_plan& plan, const korc_outcome& outcome) {
  korc_settled out;
  auto info = korc_kind_of(s.subject.kind());
  if (plan.skip || !info) {
    out.requeue_after = plan.progress.requeue;
    return out;
  }
  const auto& o = s.subject;
  if (plan.release) {
    auto b = o.edit();
    b.remove_finalizer(korc_finalizer(info->kind));
    out.writes.push_back({write_verb::update, std::move(b).freeze()});
    return out;
  }
  korc_progress p = plan.progress;
  k8s::object record = plan.record;
  auto set_id = plan.set_id;
  auto applied = plan.applied_password;
  const identity_answer* failed = nullptr;
  for (const auto& a : outcome.answers)
    if (a.error) failed = &a;
  if (outcome.auth_error) {
    p.error = outcome.auth_error->message;
  } else if (plan.what == intent::create) {
    if (failed || outcome.answers.size() < plan.calls.size()) {
      if (failed) call_failed(p, *failed->error, korc_message::creating_prefix);
    } else {
      record = korc_created_record(o, plan.resolved, outcome.answers.back().body);
      if (info->has_id) set_id = korc_record_id(info->kind, record);
      auto password_ref = o.get_string({"spec", "resource", "passwordRef"});
      if (info->kind == korc_kind::user && !password_ref.empty()) applied = std::string(password_ref);
    }
  } else if (plan.what == intent::update) {
    // The password call, when there is one, runs first.
    if (plan.password_call && !outcome.answers.empty() && !outcome.answers.front().error) applied = plan.password_call;
    if (failed) {
      call_failed(p, *failed->error, korc_message::updating_prefix);
    } else if (outcome.answers.size() == plan.calls.size()) {
      p.wait(std::string(korc_message::needs_refresh));
    }
  } else if (plan.what == intent::remove) {
    if (failed) {
      p.error = failed->error->message;
    } else if (outcome.answers.size() == plan.calls.size()) {
      p.wait(std::string(korc_message::waiting_deleted), s.timing.delete_poll);
    }
  }
  auto updated = status_of(s, *info, plan, p, record, set_id, applied);
  if (status_differs(o, updated)) out.writes.push_back({write_verb::update_status, std::move(updated)});
  out.transient = p.error.has_value() && !p.terminal;
  out.requeue_after = p.terminal ? std::nullopt : p.requeue;
  if (!p.needs_reschedule()) {
    auto period = k8s::parse_go_duration(o.get_string({"spec", "resyncPeriod"}));
    if (period && *period > std::chrono::nanoseconds(0)) out.requeue_after = *period;
  }
  return out;
}

}  // namespace c5c3::sim::world
