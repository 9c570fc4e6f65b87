#include "actors/monitoring/flavour.hpp"

#include "actors/monitoring/constants.hpp"

#include <fmt/format.h>

namespace c5c3::monitoring {

namespace {

bool has(const std::vector<k8s::object>& list, std::string_view ns, std::string_view name) {
  for (const auto& o : list)
    if (o.namespace_() == ns && o.name() == name) return true;
  return false;
}

std::string_view kind_name(flavour_kind k) {
  switch (k) {
    case flavour_kind::rancher: return "rancher";
    case flavour_kind::openshift: return "openshift";
    case flavour_kind::standalone: return "standalone";
  }
  return "standalone";
}

std::string port_named(const k8s::object& svc, std::string_view name) {
  const auto* ports = svc ? svc.get({"spec", "ports"}) : nullptr;
  if (!ports || !ports->IsArray()) return {};
  for (const auto& p : ports->GetArray())
    if (k8s::get_string(p, {"name"}) == name)
      if (auto n = k8s::get_int(p, {"port"})) return std::to_string(*n);
  return {};
}

}  // namespace

bool flavour::is_default(std::string_view ns, std::string_view name) const {
  const bool prom = detector == detector_kind::prometheus;
  switch (kind) {
    case flavour_kind::rancher:
      return ns == rancher_monitoring_namespace &&
             name == (prom ? rancher_monitoring_prometheus : rancher_monitoring_alertmanager);
    case flavour_kind::openshift:
      return ns == openshift_uwm_namespace && name == (prom ? openshift_uwm_prometheus : openshift_uwm_alertmanager);
    case flavour_kind::standalone:
      return singleton;
  }
  return false;
}

detection detect(detector_kind which, const std::vector<k8s::object>& listed, bool rancher_served,
                 bool openshift_served) {
  detection d;
  d.result.detector = which;
  if (listed.empty()) return d;  // unknown
  const bool prom = which == detector_kind::prometheus;
  d.outcome = detection_outcome::ready;
  if (rancher_served) {
    if (has(listed, rancher_monitoring_namespace, prom ? rancher_monitoring_prometheus : rancher_monitoring_alertmanager)) {
      d.result.kind = flavour_kind::rancher;
      d.result.rancher = true;
      return d;
    }
    d.result.kind = flavour_kind::standalone;
    d.result.rancher = true;
    d.result.singleton = listed.size() == 1;
    return d;
  }
  if (openshift_served) {
    if (has(listed, openshift_uwm_namespace, prom ? openshift_uwm_prometheus : openshift_uwm_alertmanager)) {
      d.result.kind = flavour_kind::openshift;
      d.result.openshift = true;
      return d;
    }
    d.outcome = detection_outcome::not_ready;
    return d;
  }
  d.result.kind = flavour_kind::standalone;
  d.result.singleton = listed.size() == 1;
  return d;
}

k8s::object_key service_key(const flavour& f, std::string_view ns, std::string_view name) {
  if (f.kind == flavour_kind::openshift) return {openshift_monitoring_namespace, thanos_querier};
  return {std::string(ns), std::string(name)};
}

service_spec service_of(const flavour& f, std::string_view ns, std::string_view name, const k8s::object& svc) {
  if (f.kind == flavour_kind::openshift)
    return {"https", thanos_querier, openshift_monitoring_namespace, port_named(svc, "web"), "", ""};
  return {"http", std::string(name), std::string(ns), port_named(svc, "http-web"), "", ""};
}

const k8s::object* default_prometheus(const flavour& f, const std::vector<k8s::object>& sorted) {
  if (sorted.empty()) return nullptr;
  if (f.openshift) {
    for (const auto& p : sorted)
      if (f.is_default(p.namespace_(), p.name())) return &p;
    return nullptr;
  }
  return &sorted.front();
}

std::string encode_flavour(const flavour& f) {
  return fmt::format(R"({{"flavour":"{}","detector":"{}","rancher":{},"openshift":{},"singleton":{}}})",
                     kind_name(f.kind), f.detector == detector_kind::prometheus ? "prometheus" : "alertmanager",
                     f.rancher, f.openshift, f.singleton);
}

std::optional<flavour> decode_flavour(std::string_view body) {
  auto d = k8s::parse_json(body);
  if (!d || !d->IsObject()) return std::nullopt;
  flavour f;
  auto k = k8s::get_string(*d, {"flavour"});
  if (k == "rancher")
    f.kind = flavour_kind::rancher;
  else if (k == "openshift")
    f.kind = flavour_kind::openshift;
  else if (k == "standalone")
    f.kind = flavour_kind::standalone;
  else
    return std::nullopt;
  f.detector = k8s::get_string(*d, {"detector"}) == "alertmanager" ? detector_kind::alertmanager : detector_kind::prometheus;
  f.rancher = k8s::get_bool(*d, {"rancher"}).value_or(false);
  f.openshift = k8s::get_bool(*d, {"openshift"}).value_or(false);
  f.singleton = k8s::get_bool(*d, {"singleton"}).value_or(false);
  return f;
}

}  // namespace c5c3::monitoring
