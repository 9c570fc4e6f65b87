// What the two openviz reconcilers share: the AppBinding resolution
// (dashboard_helpers.go GetGrafana), the Grafana state hash, the
// already-reconciled test, the AppBinding watch's relation.
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/grafana.hpp"
#include "actors/monitoring/grafana_client.hpp"
#include "actors/monitoring/grafana_status.hpp"
#include "k8s/base64.hpp"
#include "k8s/patch.hpp"

#include <openssl/sha.h>

namespace c5c3::monitoring {

namespace {

bool is_default(const k8s::object& ab) { return ab.annotation(is_default_grafana_key).value_or("") == "true"; }

std::string ref_namespace(const k8s::object& obj) {
  auto ns = obj.get_string({"spec", "grafanaRef", "namespace"});
  return std::string(ns.empty() ? obj.namespace_() : ns);
}

std::string base64_url_padded(std::string_view raw) {
  auto s = k8s::base64_raw_url_encode(raw);
  while (s.size() % 4) s += '=';
  return s;
}

}  // namespace

grafana_choice resolve_grafana(const k8s::object& obj, const std::vector<k8s::object>& appbindings) {
  grafana_choice c;
  if (const auto* ref = obj.get({"spec", "grafanaRef"}); ref && ref->IsObject()) {
    auto ns = ref_namespace(obj);
    auto name = obj.get_string({"spec", "grafanaRef", "name"});
    for (const auto& ab : appbindings)
      if (ab.namespace_() == ns && ab.name() == name) {
        c.appbinding = &ab;
        return c;
      }
    c.not_found = true;
    c.error = "appbindings.appcatalog.appscode.com \"" + std::string(name) + "\" not found";
    return c;
  }
  std::vector<const k8s::object*> defaults;
  for (const auto& ab : appbindings)
    if (is_default(ab)) defaults.push_back(&ab);
  if (defaults.empty()) {
    c.not_found = true;
    c.error = "no default Grafana appbinding found.";
  } else if (defaults.size() > 1) {
    std::string names;
    for (const auto* ab : defaults) names += (names.empty() ? "" : ", ") + ab->key().to_string();
    c.error = "multiple Grafana appbindings " + names + " are marked default";
  } else {
    c.appbinding = defaults.front();
  }
  return c;
}

std::string grafana_state(const k8s::object& ab) {
  auto url = appbinding_url(ab);
  if (!url) return {};
  auto cfg = grafana_config_of(ab);
  auto text = *url + "," + cfg.datasource + "," + std::to_string(cfg.folder_id);
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), md);
  return base64_url_padded(std::string_view(reinterpret_cast<const char*>(md), sizeof md));
}

bool dashboard_current(const k8s::object& d, const std::string& state) {
  if (d.terminating() || !d.has_finalizer(grafanadashboard_finalizer)) return false;
  if (d.get_string({"status", "phase"}) != phase_current) return false;
  if (k8s::get_int(d.json(), {"status", "observedGeneration"}).value_or(-1) != d.generation()) return false;
  return d.get_string({"status", "dashboard", "state"}) == state;
}

bool appbinding_wakes_dashboard(const k8s::object& ab, const k8s::object& d) {
  const auto* ref = d.get({"spec", "grafanaRef"});
  if (ref && ref->IsObject()) {
    if (ref_namespace(d) != ab.namespace_() || d.get_string({"spec", "grafanaRef", "name"}) != ab.name()) return false;
  } else if (!is_default(ab)) {
    return false;
  }
  if (d.get_string({"status", "phase"}) == phase_failed) return true;
  return d.get_string({"status", "dashboard", "state"}) != grafana_state(ab);
}

namespace detail {

std::shared_ptr<runtime::kind_declaration> grafana_kind(
    std::string controller, k8s::gvk gvk, std::string finalizer,
    std::function<bool(const k8s::object&, const k8s::object&)> calls) {
  auto k = std::make_shared<runtime::kind_declaration>();
  k->controller = std::move(controller);
  k->gvk = std::move(gvk);
  k->finalizer = std::move(finalizer);
  k->admission = false;
  auto& out = k->reads;
  out.push_back(runtime::listed(appbindings_slot, appbinding_gvk, "", runtime::namespace_role::all, true));
  auto secret = runtime::named(
      grafana_secret_slot, secret_gvk,
      [calls](const runtime::sense_snapshot& s) -> std::optional<runtime::locator> {
        auto choice = resolve_grafana(s.order, s.list(appbindings_slot));
        if (!choice.appbinding || grafana_secret_name(*choice.appbinding).empty()) return std::nullopt;
        if (!calls(s.order, *choice.appbinding)) return std::nullopt;
        return runtime::locator{std::string(choice.appbinding->namespace_()), grafana_secret_name(*choice.appbinding)};
      },
      "", false);
  secret.after = {appbindings_slot};
  secret.uncached = true;
  out.push_back(std::move(secret));
  return k;
}

runtime::event_record warning(const k8s::object& order, const std::string& error) {
  return {"Warning", error,
          "Failed to complete operation for " + std::string(order.kind()) + ": \"" + std::string(order.name()) +
              "\", Reason: \"" + error + "\""};
}

std::optional<runtime::child_write> status_write(const k8s::object& order,
                                                 const std::function<void(k8s::object_builder&)>& mutate) {
  auto b = order.edit();
  mutate(b);
  auto patch = k8s::create_merge_patch(order.json(), std::move(b).freeze().json());
  if (!patch.IsObject() || patch.MemberCount() == 0) return std::nullopt;
  k8s::object_builder pb(std::move(patch));
  pb.set_api_version_kind(order.api_version(), order.kind());
  pb.set_name(order.name());
  pb.set_namespace(order.namespace_());
  auto w = runtime::make_merge_patch(std::move(pb).freeze());
  w.subresource = "status";
  return w;
}

std::optional<runtime::child_write> phase_write(const k8s::object& order, const std::string& phase,
                                                const std::string& reason) {
  return status_write(order, [&](k8s::object_builder& b) {
    b.set_string({"status", "phase"}, phase);
    b.set_string({"status", "reason"}, reason);
  });
}

k8s::object failed_status(const k8s::object& order, const std::string& error, bool observe,
                          k8s::time_point now) {
  auto b = order.edit();
  b.set_string({"status", "phase"}, phase_failed);
  b.set_string({"status", "reason"}, error);
  if (observe) b.set_int({"status", "observedGeneration"}, order.generation());
  k8s::set_condition(b, {condition_failed, "True", error, error, {}, 0}, now);
  k8s::set_condition(b, {condition_ready, "False", phase_failed, error, {}, 0}, now);
  return std::move(b).freeze();
}

void fail(runtime::order_plan& p, const k8s::object& order, const std::string& error, bool observe,
          k8s::time_point now) {
  p.events.push_back(warning(order, error));
  auto st = failed_status(order, error, observe, now);
  if (!k8s::json_equal(st.json(), order.json())) p.status = std::move(st);
}

}  // namespace detail

}  // namespace c5c3::monitoring
