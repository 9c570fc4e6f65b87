// The backend registration of SetupClusterForPrometheus (apis-monitoring.md
// 4.2 steps 6-7, section 11): the marker logic on the RoleBinding, the
// register call, for the default Prometheus the AppBindings default-prometheus
// and default-grafana and the Secret default-grafana-auth, the markers last.
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/create_or_patch.hpp"
#include "actors/monitoring/grafana_binding.hpp"
#include "actors/monitoring/prometheus_steps.hpp"
#include "k8s/base64.hpp"

#include <charconv>

namespace c5c3::monitoring::prom {

namespace {

const k8s::object* rolebinding(const view& v, const k8s::object& svc) {
  return v.s.one(svc.namespace_() == v.ns ? rolebinding_slot : rolebinding_openshift_slot);
}

// The PrometheusConfig the backend gets (nullopt: `error` says why).
std::optional<prometheus_config> config_of(const view& v, const k8s::object& svc, const access& a, std::string& error) {
  prometheus_config c;
  c.service = service_of(v.f, v.ns, v.name, svc);
  c.bearer_token = a.rancher ? a.rancher->token : a.sa_token;
  c.ca = a.ca;
  if (v.f.openshift) {
    auto url = openshift_route_url(svc, v.s.one(ingress_slot), error);
    if (!url) return std::nullopt;
    c.url = *url;
    c.service = {};
    c.ca.clear();
    c.insecure_skip_tls_verify = false;
  }
  return c;
}

std::optional<int> port_number(const std::string& s) {
  int n = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (s.empty() || ec != std::errc{} || p != s.data() + s.size() || n < 0 || n > 65535) return std::nullopt;
  return n;
}

// CreatePrometheusAppBinding; false with `error` when it cannot be made.
bool prometheus_appbinding(const view& v, const service_spec& spec, runtime::order_plan& p) {
  auto port = port_number(spec.port);
  if (!port) {
    p.error = "invalid service port: \"" + spec.port + "\"";
    return false;
  }
  std::string ca;
  if (v.f.openshift) {
    const auto* cm = v.s.one(service_ca_slot);
    if (!cm || !cm->get({"data", "service-ca.crt"})) {
      p.error = "configmaps \"" + openshift_service_ca + "\" not found";
      return false;
    }
    ca = std::string(cm->get_string({"data", "service-ca.crt"}));
  }
  auto w = create_or_patch(v.s, v.s.one(ab_prometheus_slot), new_object(appbinding_gvk, v.ns, appbinding_prometheus),
                           [&](k8s::object_builder& b) {
                             set_owner_references(b, {controller_ref(v.prom(), prometheus_gvk)});
                             b.set_annotation(is_default_prometheus_key, "true");
                             b.set_string({"spec", "type"}, "Prometheus");
                             b.remove({"spec", "appRef"});
                             b.set_string({"spec", "appRef", "apiGroup"}, prometheus_gvk.group);
                             b.set_string({"spec", "appRef", "kind"}, "Prometheus");
                             b.set_string({"spec", "appRef", "namespace"}, v.ns);
                             b.set_string({"spec", "appRef", "name"}, v.name);
                             b.remove({"spec", "clientConfig"});
                             b.set_string({"spec", "clientConfig", "service", "scheme"}, spec.scheme);
                             if (!spec.namespace_.empty())
                               b.set_string({"spec", "clientConfig", "service", "namespace"}, spec.namespace_);
                             b.set_string({"spec", "clientConfig", "service", "name"}, spec.name);
                             b.set_int({"spec", "clientConfig", "service", "port"}, *port);
                             if (!spec.path.empty()) b.set_string({"spec", "clientConfig", "service", "path"}, spec.path);
                             if (!spec.query.empty())
                               b.set_string({"spec", "clientConfig", "service", "query"}, spec.query);
                             if (v.f.openshift) {
                               b.set_string({"spec", "clientConfig", "caBundle"}, k8s::base64_encode(ca));
                               b.set_string({"spec", "clientConfig", "serverName"}, spec.name + "." + spec.namespace_ + ".svc");
                             }
                           });
  if (w) p.writes.push_back(std::move(*w));
  return true;
}

// CreateGrafanaAppBinding: default-grafana and default-grafana-auth, owned
// by the Prometheus (grafana_binding.hpp).
grafana_binding default_grafana(const view& v) {
  return {v.ns, appbinding_grafana, grafana_auth_secret, v.cfg.backend.ca_pem, &v.prom()};
}

void grafana_appbinding(const view& v, const grafana_response& g, runtime::order_plan& p) {
  if (auto w = grafana_appbinding_write(default_grafana(v), g, v.s.one(ab_grafana_slot))) p.writes.push_back(std::move(*w));
}

// The Secret (its errors are ignored upstream: the write reports its failure
// and the plan goes on). True when it was written now.
bool grafana_auth(const view& v, const grafana_response& g, runtime::order_plan& p) {
  const auto* ab = v.s.one(ab_grafana_slot);
  if (!ab) return false;
  auto w = grafana_auth_write(default_grafana(v), g, *ab, v.s.one(grafana_auth_slot));
  if (!w || v.s.failure_of(*w)) return false;
  p.writes.push_back(std::move(*w));
  return true;
}

}  // namespace

std::optional<std::string> openshift_route_url(const k8s::object& svc, const k8s::object* ingress, std::string& error) {
  auto domain = ingress ? std::string(ingress->get_string({"status", "domain"})) : std::string();
  if (domain.empty()) {
    error = ingress ? "failed to detect the OpenShift apps domain: ingresscontroller " + openshift_ingress_namespace +
                          "/default has no status.domain"
                    : "ingresscontrollers.operator.openshift.io \"default\" not found";
    return std::nullopt;
  }
  return "https://" + std::string(svc.name()) + "-" + std::string(svc.namespace_()) + "." + domain;
}

void register_with_backend(const view& v, const k8s::object& svc, const access& a, const std::string& state,
                           runtime::order_plan& p) {
  p.stage = "register";
  const auto* rb = rolebinding(v, svc);
  if (!rb) return;
  const auto registered = std::string(rb->annotation(registered_key).value_or(""));
  auto stamp = patch_only(*rb, [&](k8s::object_builder& b) {
    b.set_annotation(registered_key, state);
    if (a.rancher)
      b.set_annotation(token_id_key, a.rancher->token_id);
    else
      b.remove_annotation(token_id_key);
  });
  if (registered == "true") {  // a legacy deployment: stamp, do not register
    if (stamp) p.writes.push_back(std::move(*stamp));
    return;
  }
  const bool changed = registered != state ||
                       (a.rancher && rb->annotation(token_id_key).value_or("") != a.rancher->token_id);
  if (!v.cfg.backend.enabled() || !changed) return;
  std::string project_id;
  if (!v.is_default) {
    const auto* ks = v.s.one(kube_system_slot);
    auto ps = namespace_for_project_settings(v.prom(), ks ? *ks : k8s::object{});
    if (!ps.error.empty()) {
      p.error = ps.error;
      return;
    }
    project_id = ps.project_id;
  }
  const auto* answer = v.s.answer("register");
  if (!answer) {
    std::string error;
    auto cfg = config_of(v, svc, a, error);
    if (!cfg) {
      p.error = error;
      return;
    }
    prometheus_context c;
    c.hub_uid = v.cfg.hub_uid;
    c.cluster_uid = std::string(v.s.one(kube_system_slot) ? v.s.one(kube_system_slot)->uid() : "");
    c.project_id = project_id;
    c.is_default = v.is_default;
    p.calls.push_back(backend_call("register", register_request(v.cfg.backend, c, *cfg)));
    return;
  }
  if (auto e = backend_error(*answer, "register")) {
    p.error = *e;
    return;
  }
  std::string why;
  auto g = parse_register_answer(answer->body, &why);
  if (!g) {
    p.error = "backend register: " + why;
    return;
  }
  if (v.is_default) {
    if (!prometheus_appbinding(v, service_of(v.f, v.ns, v.name, svc), p)) return;
    grafana_appbinding(v, *g, p);
    if (!p.writes.empty()) return;
    if (grafana_auth(v, *g, p)) return;
  }
  if (stamp) p.writes.push_back(std::move(*stamp));
}

}  // namespace c5c3::monitoring::prom
