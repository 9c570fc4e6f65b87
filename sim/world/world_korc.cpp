// The world's Keystone part: the ControlPlane stand-in, K-ORC's steps over the
// identity service, and K-ORC's deletion guards.
#include "sim/world/korc_guard.hpp"
#include "sim/world/world.hpp"

#include <fmt/format.h>

#include <set>

namespace c5c3::sim::world {
namespace {

std::string fingerprint(const korc_snapshot& s) {
  std::string f(s.subject.resource_version());
  for (const auto& [k, o] : s.refs) f += fmt::format("|{}={}", k, o ? o.resource_version() : "-");
  return f;
}

bool has_korc_guard(const k8s::object& o) {
  for (const auto& f : o.finalizers())
    if (f.rfind(std::string(korc_group) + "/", 0) == 0) return true;
  return false;
}

}  // namespace

void world::control_planes(pass_result& r) {
  for (const auto& cp : api_.list(control_plane_kind())) {
    control_plane_snapshot s{cp, api_.get(secret_kind(), cp.namespace_(), admin_cloud_secret_name(cp.name())),
                             api_.get(korc_gvk(korc_kind::domain), cp.namespace_(), admin_domain_import_name(cp.name())),
                             opts_.admin, now_};
    answered latest;
    write_all(reconcile_control_plane(s).writes, r, latest);
  }
}

void world::korc(pass_result& r) {
  std::vector<k8s::object> all;
  for (const auto& info : korc_kinds())
    for (auto& o : api_.list(korc_gvk(info.kind)))
      if (o.gvk().group == korc_group) all.push_back(std::move(o));
  std::set<std::string> live;
  for (const auto& o : all) {
    live.insert(std::string(o.uid()));
    korc_object(o, r);
  }
  std::erase_if(korc_memo_, [&](const auto& e) { return !live.contains(e.first); });
  korc_guards(r, all);
}

void world::korc_object(const k8s::object& o, pass_result& r) {
  korc_snapshot s;
  s.subject = o;
  s.now = now_;
  s.timing = opts_.korc;
  auto fetch = [&](const korc_ref& ref) {
    if (ref.kind == "Secret") return api_.get(secret_kind(), o.namespace_(), ref.name);
    auto info = korc_kind_of(ref.kind);
    return info ? api_.get(korc_gvk(info->kind), o.namespace_(), ref.name) : k8s::object();
  };
  for (const auto& ref : all_refs(o)) s.refs[korc_ref_key(ref.kind, ref.name)] = fetch(ref);

  const auto inputs = fingerprint(s);
  auto& memo = korc_memo_[std::string(o.uid())];
  if (memo.inputs == inputs) {
    if (!memo.due) return;  // waits for a change
    if (now_ < *memo.due) return come_back(r, *memo.due - now_);
  }

  answered latest;
  // The objects the last writes answered, in the snapshot (the step's next look).
  auto refresh = [&] {
    for (const auto& [id, obj] : latest) {
      if (!obj) continue;
      if (obj.kind() == o.kind() && obj.name() == o.name() && obj.api_version() == o.api_version()) s.subject = obj;
      auto key = korc_ref_key(obj.kind(), obj.name());
      if (auto it = s.refs.find(key); it != s.refs.end()) it->second = obj;
    }
  };
  auto plan = reconcile_korc(s);
  if (!write_all(plan.before, r, latest)) return;
  refresh();
  korc_outcome outcome;
  const bool talks = plan.read || !plan.calls.empty();
  if (talks && plan.cloud) outcome.auth_error = sessions_->authenticate(*plan.cloud);
  if (!outcome.auth_error && plan.read && plan.cloud) {
    ++r.identity_calls;
    s.observed = sessions_->run(*plan.cloud, *plan.read);
    plan = reconcile_korc(s);
    if (!write_all(plan.before, r, latest)) return;
    refresh();
  }
  if (!outcome.auth_error && plan.cloud) {
    for (const auto& call : plan.calls) {
      ++r.identity_calls;
      outcome.answers.push_back(sessions_->run(*plan.cloud, call));
      if (outcome.answers.back().error) {
        opts_.log(fmt::format("{} {}/{}: {} {}: {}", o.kind(), o.namespace_(), o.name(), call.method, call.path,
                              outcome.answers.back().error->message));
        break;
      }
    }
  }
  auto settled = settle_korc(s, plan, outcome);
  if (!write_all(settled.writes, r, latest)) return;
  memo.inputs = inputs;
  memo.due.reset();
  if (settled.transient) {
    ++memo.failures;
    auto backoff = std::min(std::chrono::seconds(1LL << std::min(memo.failures - 1, 16)), opts_.korc_max_backoff);
    memo.due = now_ + backoff;
  } else {
    memo.failures = 0;
    if (settled.requeue_after) memo.due = now_ + std::chrono::duration_cast<k8s::clock::duration>(*settled.requeue_after);
  }
  if (memo.due) come_back(r, *memo.due - now_);
}

void world::korc_guards(pass_result& r, const std::vector<k8s::object>& all) {
  auto release = [&](const k8s::object& o) {
    if (!o.terminating() || !has_korc_guard(o)) return;
    if (auto w = release_guards(o, all)) {
      answered latest;
      write_all({*w}, r, latest);
    }
  };
  for (const auto& o : all) release(o);
  for (const auto& secret : api_.list(secret_kind())) release(secret);
}

}  // namespace c5c3::sim::world
