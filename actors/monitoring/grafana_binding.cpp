#include "actors/monitoring/grafana_binding.hpp"

#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/create_or_patch.hpp"
#include "k8s/base64.hpp"

namespace c5c3::monitoring {

std::optional<runtime::child_write> grafana_appbinding_write(const grafana_binding& gb, const grafana_response& g,
                                                             const k8s::object* live) {
  return create_or_patch(live, new_object(appbinding_gvk, gb.namespace_, gb.name), [&](k8s::object_builder& b) {
    if (gb.owner) {
      set_owner_references(b, {controller_ref(*gb.owner, prometheus_gvk)});
      b.set_annotation(is_default_grafana_key, "true");
    }
    b.set_string({"spec", "type"}, "Grafana");
    b.remove({"spec", "appRef"});
    b.remove({"spec", "clientConfig"});
    b.set_string({"spec", "clientConfig", "url"}, g.url);
    if (!gb.ca_pem.empty()) b.set_string({"spec", "clientConfig", "caBundle"}, k8s::base64_encode(gb.ca_pem));
    b.remove({"spec", "secret"});
    b.set_string({"spec", "secret", "apiGroup"}, "");
    b.set_string({"spec", "secret", "kind"}, "Secret");
    b.set_string({"spec", "secret", "name"}, gb.secret_name);
    b.remove({"spec", "parameters"});
    b.set_string({"spec", "parameters", "apiVersion"}, "openviz.dev/v1alpha1");
    b.set_string({"spec", "parameters", "kind"}, "GrafanaConfiguration");
    b.set_string({"spec", "parameters", "datasource"}, g.datasource);
    if (g.folder_id) b.set_int({"spec", "parameters", "folderID"}, *g.folder_id);
  });
}

std::optional<runtime::child_write> grafana_auth_write(const grafana_binding& gb, const grafana_response& g,
                                                       const k8s::object& ab, const k8s::object* live) {
  auto w = create_or_patch(live, new_object(secret_gvk, gb.namespace_, gb.secret_name), [&](k8s::object_builder& b) {
    set_owner_references(b, {controller_ref(ab, appbinding_gvk)});
    b.set_string({"data", "token"}, k8s::base64_encode(g.bearer_token));
  });
  if (w) w->report_failure = true;
  return w;
}

}  // namespace c5c3::monitoring
