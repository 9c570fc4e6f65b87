// GrafanaDashboardReconciler (monitoring-controllers.txt; apis.md 5.2): the
// finalizer, Terminating and the delete by UID (404 and a missing AppBinding
// are done), Processing, the AppBinding and its state hash, the id/uid
// injection and the datasource templating, the upsert, GetCurrentOrg, the
// status; on failure a Warning Event, phase Failed and a requeue after
// --requeue-after-duration.
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/grafana.hpp"
#include "actors/monitoring/grafana_client.hpp"
#include "actors/monitoring/grafana_status.hpp"

namespace c5c3::monitoring {

namespace {

using detail::fail;
using detail::phase_write;

using detail::deleting_reason;
const std::string created_reason = "Dashboard is successfully created";

// The model to send: spec.model, with status.dashboard's id and uid when the
// state is the same Grafana's, templatized on request. nullopt: `error`.
std::optional<k8s::json_document> model_of(const k8s::object& d, const k8s::object& ab, const std::string& state,
                                           std::string& error) {
  const auto* spec_model = d.get({"spec", "model"});
  auto model = spec_model && spec_model->IsObject() ? k8s::copy_document(*spec_model) : *k8s::parse_json("{}");
  if (const auto* st = d.get({"status", "dashboard"}); st && st->IsObject()) {
    auto stored = d.get_string({"status", "dashboard", "state"});
    if (stored.empty() || stored == state) {
      auto& a = model.GetAllocator();
      if (auto id = k8s::get_int(*st, {"id"})) k8s::set_member(model, "id", k8s::json_value(*id), a);
      if (auto uid = k8s::get_string(*st, {"uid"}); !uid.empty())
        k8s::set_member(model, "uid", k8s::make_string(uid, a), a);
    }
  }
  if (k8s::get_bool(d.json(), {"spec", "templatize", "datasource"}).value_or(false)) {
    auto cfg = grafana_config_of(ab);
    if (!cfg.has_parameters || cfg.datasource.empty()) {
      error = "failed to templatize dashboard, reason: datasource parameter is not provided in app binding " +
              ab.key().to_string();
      return std::nullopt;
    }
    model = templatize_datasource(model, cfg.datasource);
  }
  return model;
}

k8s::object current_status(const k8s::object& d, const grafana_result& set, const grafana_result& org,
                           const std::string& state, k8s::time_point now) {
  auto b = d.edit();
  b.remove({"status", "dashboard"});
  if (set.id) b.set_int({"status", "dashboard", "id"}, *set.id);
  if (!set.uid.empty()) b.set_string({"status", "dashboard", "uid"}, set.uid);
  if (!set.slug.empty()) b.set_string({"status", "dashboard", "slug"}, set.slug);
  if (!set.url.empty()) b.set_string({"status", "dashboard", "url"}, set.url);
  if (org.org_id) b.set_int({"status", "dashboard", "orgID"}, *org.org_id);
  if (set.version) b.set_int({"status", "dashboard", "version"}, *set.version);
  b.set_string({"status", "dashboard", "state"}, state);
  b.set_string({"status", "phase"}, phase_current);
  b.set_string({"status", "reason"}, created_reason);
  b.set_int({"status", "observedGeneration"}, d.generation());
  auto conds = d.conditions();
  std::erase_if(conds, [](const k8s::condition& c) { return c.type == condition_failed; });
  k8s::set_condition(conds, {condition_ready, "True", created_reason, created_reason, {}, 0}, now);
  k8s::write_conditions(b, conds);
  return std::move(b).freeze();
}

void teardown(const runtime::sense_snapshot& s, const grafana_settings& g, runtime::order_plan& p) {
  const auto& d = s.order;
  p.stage = "teardown";
  if (auto w = phase_write(d, phase_terminating, deleting_reason)) {
    p.writes.push_back(std::move(*w));
    return;
  }
  auto uid = std::string(d.get_string({"status", "dashboard", "uid"}));
  auto choice = resolve_grafana(d, s.list(appbindings_slot));
  if (uid.empty() || choice.not_found) {
    p.finalizer = runtime::finalizer_op::release;
    return;
  }
  std::string error = choice.error;
  std::optional<grafana_target> t;
  if (error.empty()) t = grafana_target_of(*choice.appbinding, s.one(grafana_secret_slot), &error);
  if (!t) {
    p.error = error;
    p.events.push_back(detail::warning(d, error));
    return;
  }
  t->timeout = g.timeout;
  const auto* a = s.answer("delete");
  if (!a) {
    p.calls.push_back(grafana_call("delete", delete_dashboard_request(*t, uid)));
    return;
  }
  auto r = parse_grafana(*a, "delete dashboard");
  if (r.ok || r.status == 404) {
    p.finalizer = runtime::finalizer_op::release;
    return;
  }
  p.events.push_back(detail::warning(d, r.error));
  p.error = r.error;
}

}  // namespace

runtime::order_plan plan_grafanadashboard(const runtime::sense_snapshot& s, const grafana_settings& g) {
  runtime::order_plan p;
  const auto& d = s.order;
  if (d.terminating()) {
    if (d.has_finalizer(grafanadashboard_finalizer)) teardown(s, g, p);
    return p;
  }
  if (!d.has_finalizer(grafanadashboard_finalizer)) {
    p.finalizer = runtime::finalizer_op::add;
    return p;
  }
  auto choice = resolve_grafana(d, s.list(appbindings_slot));
  auto on_failure = [&](const std::string& error, bool observe) {
    p.stage = "failed";
    fail(p, d, error, observe, s.now);
    p.requeue = g.requeue_after;
  };
  if (choice.appbinding && dashboard_current(d, grafana_state(*choice.appbinding))) {
    p.stage = "current";
    return p;
  }
  const auto phase = d.get_string({"status", "phase"});
  if (phase != phase_processing && phase != phase_failed) {
    if (auto w = phase_write(d, phase_processing, std::string(d.get_string({"status", "reason"})))) {
      p.writes.push_back(std::move(*w));
      return p;
    }
  }
  p.stage = "dashboard";
  if (!choice.appbinding) {
    on_failure(choice.error, false);
    return p;
  }
  const auto& ab = *choice.appbinding;
  std::string error;
  auto t = grafana_target_of(ab, s.one(grafana_secret_slot), &error);
  if (!t) {
    on_failure(error, false);
    return p;
  }
  t->timeout = g.timeout;
  const auto state = grafana_state(ab);
  const auto* set = s.answer("set");
  if (!set) {
    auto model = model_of(d, ab, state, error);
    if (!model) {
      on_failure(error, false);
      return p;
    }
    p.calls.push_back(
        grafana_call("set", set_dashboard_request(*t, *model, grafana_config_of(ab).folder_id, true)));
    return p;
  }
  auto sr = parse_grafana(*set, "set dashboard");
  if (!sr.ok) {
    on_failure(sr.error, sr.status == 400);
    return p;
  }
  const auto* org = s.answer("org");
  if (!org) {
    p.calls.push_back(grafana_call("org", current_org_request(*t)));
    return p;
  }
  auto orr = parse_current_org(*org);
  if (!orr.ok) {
    on_failure(orr.error, false);
    return p;
  }
  p.stage = "current";
  auto st = current_status(d, sr, orr, state, s.now);
  if (!k8s::json_equal(st.json(), d.json())) p.status = std::move(st);
  return p;
}

std::shared_ptr<const runtime::kind_declaration> grafanadashboard_declaration(grafana_settings g) {
  auto k = detail::grafana_kind(grafanadashboard_controller, grafanadashboard_gvk, grafanadashboard_finalizer,
                                [](const k8s::object& d, const k8s::object& ab) {
                                  return d.terminating() ? !d.get_string({"status", "dashboard", "uid"}).empty()
                                                         : !dashboard_current(d, grafana_state(ab));
                                });
  runtime::watch_decl abw;
  abw.gvk = appbinding_gvk;
  abw.wakes = [](const k8s::object& ab, const k8s::object& d) { return appbinding_wakes_dashboard(ab, d); };
  k->watches.push_back(std::move(abw));
  k->plan = [g](const runtime::sense_snapshot& s) { return plan_grafanadashboard(s, g); };
  return k;
}

}  // namespace c5c3::monitoring
