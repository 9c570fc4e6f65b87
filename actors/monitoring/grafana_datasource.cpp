// GrafanaDatasourceReconciler (monitoring-controllers.txt; apis.md 5.3): the
// finalizer, Terminating and the delete by status.grafanadatasourceId,
// Processing (conditions cleared, observedGeneration), create when status
// has no id else update, Current; on failure a Warning Event, phase Failed,
// condition Failed and the pass's error (the per-object backoff).
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/grafana.hpp"
#include "actors/monitoring/grafana_client.hpp"
#include "actors/monitoring/grafana_status.hpp"

namespace c5c3::monitoring {

namespace {

using detail::fail;
using detail::phase_write;
using detail::status_write;

std::optional<std::int64_t> remote_id(const k8s::object& d) {
  return k8s::get_int(d.json(), {"status", "grafanadatasourceId"});
}

// Reconciled: Current at this generation (upstream reconciles only when
// observedGeneration differs; here a Failed or interrupted one is retried too).
bool datasource_current(const k8s::object& d) {
  return d.get_string({"status", "phase"}) == phase_current &&
         k8s::get_int(d.json(), {"status", "observedGeneration"}).value_or(-1) == d.generation();
}

datasource_spec spec_of(const k8s::object& d) {
  datasource_spec ds;
  ds.id = remote_id(d).value_or(0);
  ds.org_id = k8s::get_int(d.json(), {"spec", "orgId"}).value_or(0);
  ds.name = std::string(d.get_string({"spec", "name"}));
  ds.type = std::string(d.get_string({"spec", "type"}));
  ds.access = std::string(d.get_string({"spec", "access"}));
  ds.url = std::string(d.get_string({"spec", "url"}));
  ds.is_default = k8s::get_bool(d.json(), {"spec", "isDefault"}).value_or(false);
  return ds;
}

// The Grafana client of the object's AppBinding (nullopt: `error`; not_found
// when the AppBinding is gone).
std::optional<grafana_target> target_of(const runtime::sense_snapshot& s, const grafana_settings& g,
                                        std::string& error, bool& not_found) {
  auto choice = resolve_grafana(s.order, s.list(appbindings_slot));
  not_found = choice.not_found;
  if (!choice.appbinding) {
    error = choice.error;
    return std::nullopt;
  }
  auto t = grafana_target_of(*choice.appbinding, s.one(grafana_secret_slot), &error);
  if (t) t->timeout = g.timeout;
  return t;
}

// A create refused for its name may have met this object's own datasource:
// a pass that created it and stopped before the status write naming its id
// (a restart). The create carried the object's uid; a datasource of that uid
// is taken (its id written, the next round updates it to the spec). False:
// someone else's datasource holds the name, the create's error stands.
bool adopt(const runtime::sense_snapshot& s, const grafana_target& t, runtime::order_plan& p) {
  const auto& d = s.order;
  if (d.uid().empty()) return false;
  const auto* a = s.answer("lookup");
  if (!a) {
    p.calls.push_back(grafana_call("lookup", get_datasource_by_uid_request(t, d.uid())));
    return true;
  }
  auto found = parse_grafana(*a, "get datasource");
  if (!found.ok || !found.id || found.uid != d.uid()) return false;
  auto w = status_write(d, [&](k8s::object_builder& b) { b.set_int({"status", "grafanadatasourceId"}, *found.id); });
  if (!w) return false;
  p.writes.push_back(std::move(*w));
  return true;
}

void teardown(const runtime::sense_snapshot& s, const grafana_settings& g, runtime::order_plan& p) {
  const auto& d = s.order;
  p.stage = "teardown";
  if (auto w = phase_write(d, phase_terminating, detail::deleting_reason)) {
    p.writes.push_back(std::move(*w));
    return;
  }
  auto id = remote_id(d);
  std::string error;
  bool not_found = false;
  auto t = id ? target_of(s, g, error, not_found) : std::nullopt;
  if (!id || not_found) {  // nothing remote, or no Grafana to reach any more
    p.finalizer = runtime::finalizer_op::release;
    return;
  }
  if (t) {
    const auto* a = s.answer("delete");
    if (!a) {
      p.calls.push_back(grafana_call("delete", delete_datasource_request(*t, *id)));
      return;
    }
    auto r = parse_grafana(*a, "delete datasource");
    if (r.ok || r.status == 404) {  // 404: deleted by a pass that stopped before the release (a restart)
      p.finalizer = runtime::finalizer_op::release;
      return;
    }
    error = "failed to delete GrafanaDatasource, reason: " + r.error;
  }
  p.events.push_back(detail::warning(d, error));
  p.error = error;
}

}  // namespace

runtime::order_plan plan_grafanadatasource(const runtime::sense_snapshot& s, const grafana_settings& g) {
  runtime::order_plan p;
  const auto& d = s.order;
  if (d.terminating()) {
    if (d.has_finalizer(grafanadatasource_finalizer)) teardown(s, g, p);
    return p;
  }
  if (!d.has_finalizer(grafanadatasource_finalizer)) {
    p.finalizer = runtime::finalizer_op::add;
    return p;
  }
  if (datasource_current(d)) {
    p.stage = "current";
    return p;
  }
  if (d.get_string({"status", "phase"}) != phase_failed) {
    auto w = status_write(d, [&](k8s::object_builder& b) {
      b.set_string({"status", "phase"}, phase_processing);
      b.remove({"status", "conditions"});
      b.set({"status", "conditions"}, k8s::json_value(rapidjson::kArrayType));
      b.set_int({"status", "observedGeneration"}, d.generation());
    });
    if (w) {
      p.writes.push_back(std::move(*w));
      return p;
    }
  }
  p.stage = "datasource";
  const bool create = !remote_id(d).has_value();
  const std::string verb = create ? "create" : "update";
  std::string error;
  bool not_found = false;
  auto t = target_of(s, g, error, not_found);
  const auto* a = s.answer(verb);
  if (t && !a) {
    auto spec = spec_of(d);
    if (create) spec.uid = std::string(d.uid());
    p.calls.push_back(grafana_call(verb, create ? create_datasource_request(*t, spec) : update_datasource_request(*t, spec)));
    return p;
  }
  if (t) {
    auto r = parse_grafana(*a, verb + " datasource");
    if (create && r.status == 409 && adopt(s, *t, p)) return p;
    if (r.ok) {
      p.stage = "current";
      auto b = d.edit();
      b.set_string({"status", "phase"}, phase_current);
      b.set_string({"status", "reason"},
                   create ? "Successfully created Grafana Datasource" : "Successfully updated GrafanaDatasource");
      b.set_int({"status", "observedGeneration"}, d.generation());
      if (create && r.id) b.set_int({"status", "grafanadatasourceId"}, *r.id);
      auto conds = d.conditions();
      std::erase_if(conds, [](const k8s::condition& c) { return c.type == condition_failed; });
      k8s::write_conditions(b, conds);
      p.status = std::move(b).freeze();
      return p;
    }
    error = r.error;
  }
  error = "failed to " + verb + " Datasource, reason: " + error;
  fail(p, d, error, false, s.now);
  p.error = error;
  return p;
}

std::shared_ptr<const runtime::kind_declaration> grafanadatasource_declaration(grafana_settings g) {
  auto k = detail::grafana_kind(grafanadatasource_controller, grafanadatasource_gvk, grafanadatasource_finalizer,
                                [](const k8s::object& d, const k8s::object&) {
                                  return d.terminating() ? remote_id(d).has_value() : !datasource_current(d);
                                });
  k->plan = [g](const runtime::sense_snapshot& s) { return plan_grafanadatasource(s, g); };
  return k;
}

}  // namespace c5c3::monitoring
