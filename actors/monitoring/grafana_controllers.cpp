#include "actors/monitoring/grafana_controllers.hpp"

#include "actors/monitoring/activation.hpp"
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/crd_bootstrap.hpp"
#include "actors/monitoring/grafana.hpp"
#include "actors/monitoring/grafana_client.hpp"
#include "actors/runtime/event_recorder.hpp"
#include "actors/runtime/http_service.hpp"
#include "actors/runtime/limiter.hpp"

namespace c5c3::monitoring {

caf::actor spawn_grafana(caf::actor_system& sys, controllers_options opts) {
  auto http = runtime::spawn_http_service(sys);
  runtime::event_recorder_options eo;
  eo.component = opts.field_manager;
  eo.log = opts.log.named("events");
  auto events = runtime::spawn_event_recorder(sys, std::move(eo));
  grafana_settings g;
  g.requeue_after = opts.flags.requeue_after_duration;
  g.timeout = opts.service_timeout;
  // Upstream's config.go: the group's CRDs (GrafanaDashboard, GrafanaDatasource,
  // AppBinding) created or updated and waited for until Established; the
  // bootstrap logs the outcome (a failure names the CRD; upstream exits, the
  // process here keeps serving). The activation starts each host at the
  // first sight of its CRD, so hosts follow the CRDs the bootstrap makes.
  crd_bootstrap_options bo;
  bo.clusters = opts.clusters;
  bo.field_manager = opts.field_manager;
  bo.log = opts.log.named("crd-bootstrap");
  auto bootstrap = spawn_crd_bootstrap(sys, std::move(bo));
  caf::anon_send(bootstrap, ensure_crds_atom::value);
  activation_options ao;
  ao.clusters = opts.clusters;
  ao.log = opts.log;
  ao.owned = {http, events, bootstrap};
  std::map<std::string, caf::actor> limiters;
  if (opts.limit)
    for (const auto& c : {grafanadashboard_controller, grafanadatasource_controller}) {
      limiters[c] = runtime::spawn_limiter(sys, opts.max_concurrent_reconciles);
      ao.owned.push_back(limiters[c]);
    }
  auto shared = std::make_shared<const controllers_options>(std::move(opts));
  const std::map<std::string, caf::actor> services{{grafana_service, http}};
  auto group = [&](const k8s::gvk& gvk, std::shared_ptr<const runtime::kind_declaration> kind) {
    auto limiter = limiters.count(kind->controller) ? limiters[kind->controller] : caf::actor{};
    return setup_group{gvk.group, gvk.kind, [shared, services, limiter, events, kind](caf::actor_system& s) {
                         return std::vector<std::pair<std::string, caf::actor>>{
                             spawn_controller_host(s, *shared, services, limiter, events, kind)};
                       }};
  };
  ao.groups.push_back(group(grafanadashboard_gvk, grafanadashboard_declaration(g)));
  ao.groups.push_back(group(grafanadatasource_gvk, grafanadatasource_declaration(g)));
  return spawn_activation(sys, std::move(ao));
}

}  // namespace c5c3::monitoring
