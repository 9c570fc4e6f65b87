#include "sim/apiserver/held_object_writes.hpp"

#include "k8s/json.hpp"

#include <map>
#include <string>

namespace c5c3::sim {

namespace {

constexpr std::string_view claim_label = "c5c3.io/shard";

std::map<std::string, std::string> labels_but_claim(const k8s::object& o) {
  auto l = o.labels();
  l.erase(std::string(claim_label));
  return l;
}

bool same_status(const k8s::object& a, const k8s::object& b) {
  const auto* x = k8s::find(a.json(), {"status"});
  const auto* y = k8s::find(b.json(), {"status"});
  if (!x || !y) return !x && !y;
  return k8s::json_equal(*x, *y);
}

// What the order's own controller writes on the main resource changed.
bool owned_fields_changed(const stored_write& w) {
  return labels_but_claim(w.before) != labels_but_claim(w.after) ||
         w.before.finalizers() != w.after.finalizers() ||
         (!w.status_subresource && !same_status(w.before, w.after));
}

}  // namespace

bool is_monitoring_order(const k8s::object& o) {
  auto g = o.gvk();
  if (g.group == "monitoring.coreos.com") {
    if (g.kind == "Prometheus" || g.kind == "Alertmanager") return true;
    if (g.kind != "ServiceMonitor") return false;
    auto p = o.label("monitoring.appscode.com/prometheus").value_or("");
    return p == "auto" || p == "federated";
  }
  if (g.group == "openviz.dev") return g.kind == "GrafanaDashboard" || g.kind == "GrafanaDatasource";
  if (g.group.empty() && g.kind == "Namespace")
    return o.label("ace.appscode.com/client-org").value_or("") == "true" &&
           o.label("ace.appscode.com/client-org-monitoring").value_or("") != "false";
  return false;
}

std::optional<double_write> held_object_double_write(std::string_view replica, const stored_write& w) {
  if (!w.before || !w.after) return std::nullopt;  // a create
  if (w.verb != "update" && w.verb != "patch" && w.verb != "apply") return std::nullopt;
  if (!w.subresource.empty() && w.subresource != "status") return std::nullopt;
  if (!is_monitoring_order(w.before)) return std::nullopt;
  auto holder = std::string(w.before.label(claim_label).value_or(""));
  if (holder == replica) return std::nullopt;
  if (w.subresource.empty()) {
    if (!owned_fields_changed(w)) return std::nullopt;  // a claim, a release, the spec or annotations alone
  }
  double_write dw;
  dw.replica = std::string(replica);
  dw.holder = holder;
  dw.verb = std::string(w.verb);
  dw.resource = w.subresource.empty() ? std::string(w.plural) : std::string(w.plural) + "/" + std::string(w.subresource);
  dw.namespace_ = std::string(w.before.namespace_());
  dw.name = std::string(w.before.name());
  auto g = w.before.gvk();
  dw.order = std::string(w.plural) + (g.group.empty() ? "" : "." + g.group) + " " +
             (dw.namespace_.empty() ? dw.name : dw.namespace_ + "/" + dw.name);
  return dw;
}

}  // namespace c5c3::sim
