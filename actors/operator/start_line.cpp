#include "actors/operator/start_line.hpp"

namespace c5c3::operator_ {

std::string controller_groups(const config::operator_options& o) {
  std::string out;
  for (const char* g : {"orders", "monitoring", "grafana"})
    if (o.runs(g)) out += (out.empty() ? "" : ",") + std::string(g);
  return out;
}

k8s::log::fields start_fields(const config::operator_options& o, const config::connection& c) {
  return {
      {"kubeconfig", o.kubeconfig},
      {"context", o.context},
      {"namespace", o.namespace_.empty() ? c.namespace_ : o.namespace_},
      {"server", c.client.server},
      {"source", c.source},
      {"metricsBindAddress", o.metrics_bind_address.text},
      {"healthProbeBindAddress", o.health_probe_bind_address.text},
      {"maxConcurrentReconciles", o.max_concurrent_reconciles},
      {"v", o.verbosity},
      {"logLevel", config::to_string(o.level)},
      {"controllers", controller_groups(o)},
  };
}

k8s::log::level log_level_of(const config::operator_options& o) {
  switch (o.level) {
    case config::log_level::debug: return k8s::log::level::debug;
    case config::log_level::info: return k8s::log::level::info;
    case config::log_level::warn: return k8s::log::level::warn;
    case config::log_level::error: return k8s::log::level::error;
  }
  return k8s::log::level::info;
}

}  // namespace c5c3::operator_
