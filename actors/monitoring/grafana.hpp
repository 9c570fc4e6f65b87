// The openviz reconcilers (monitoring-controllers.txt "openviz.*"; apis.md
// 5.1-5.3; the Grafana calls of apis-monitoring.md 13) as kind declarations
// on the runner: GrafanaDashboardReconciler and GrafanaDatasourceReconciler.
// Pure: the plans, the AppBinding resolution, the Grafana state hash, the
// datasource templating, the status. Failures record a Warning Event
// (order_plan::events) and mark the object Failed.
#pragma once

#include "actors/runtime/runner/declaration.hpp"
#include "k8s/json.hpp"
#include "k8s/object.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace c5c3::monitoring {

struct grafana_settings {
  // --requeue-after-duration: when a failed dashboard comes back (upstream 1m).
  std::chrono::nanoseconds requeue_after = std::chrono::minutes(1);
  std::chrono::milliseconds timeout{30'000};  // per Grafana request
};

// The AppBinding a GrafanaDashboard (or GrafanaDatasource) uses: spec.grafanaRef
// (its namespace defaulting to the object's), else the one AppBinding
// annotated monitoring.appscode.com/is-default-grafana: "true". `not_found`:
// none (a deleting dashboard counts that as done).
struct grafana_choice {
  const k8s::object* appbinding = nullptr;
  std::string error;
  bool not_found = false;
};
grafana_choice resolve_grafana(const k8s::object& obj, const std::vector<k8s::object>& appbindings);

// base64url(sha256("<AppBinding URL>,<datasource>,<folderID or 0>")), padded
// as Go's URLEncoding; "" when the AppBinding has no URL.
std::string grafana_state(const k8s::object& appbinding);

// Templatize: every panel's datasource (rows' panels too) becomes `ds`; the
// templating variables of type datasource are dropped and the others' datasource set.
k8s::json_document templatize_datasource(const k8s::json_value& model, const std::string& ds);

// The dashboard needs nothing (the predicate's "already reconciled and the
// state unchanged"): finalizer present, phase Current, observedGeneration the
// generation, the stored state the AppBinding's.
bool dashboard_current(const k8s::object& dashboard, const std::string& state);
// Which dashboards an AppBinding event wakes: those resolving to it that are
// Failed or whose stored state is not its state.
bool appbinding_wakes_dashboard(const k8s::object& appbinding, const k8s::object& dashboard);

runtime::order_plan plan_grafanadashboard(const runtime::sense_snapshot& s, const grafana_settings& g);
runtime::order_plan plan_grafanadatasource(const runtime::sense_snapshot& s, const grafana_settings& g);

std::shared_ptr<const runtime::kind_declaration> grafanadashboard_declaration(grafana_settings g = {});
std::shared_ptr<const runtime::kind_declaration> grafanadatasource_declaration(grafana_settings g = {});

// Slot ids (tests build snapshots with them).
inline const std::string appbindings_slot = "appbindings";
inline const std::string grafana_secret_slot = "grafana-secret";

}  // namespace c5c3::monitoring
