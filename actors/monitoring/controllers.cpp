#include "actors/monitoring/controllers.hpp"

#include "actors/monitoring/activation.hpp"
#include "actors/monitoring/alertmanager.hpp"
#include "actors/monitoring/clientorg.hpp"
#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/detector_actor.hpp"
#include "actors/monitoring/prometheus.hpp"
#include "actors/monitoring/servicemonitor.hpp"
#include "actors/monitoring/token_refresher.hpp"
#include "actors/runtime/controller_metrics.hpp"
#include "actors/runtime/http_service.hpp"
#include "actors/runtime/limiter.hpp"
#include "actors/runtime/runner/host.hpp"

#include <fstream>
#include <sstream>

namespace c5c3::monitoring {

namespace {

struct shared {
  controllers_options opts;
  std::map<std::string, caf::actor> services;
  std::map<std::string, caf::actor> limiters;  // by controller (empty: no limit)
};

std::pair<std::string, caf::actor> host_of(caf::actor_system& sys, const shared& sh,
                                           std::shared_ptr<const runtime::kind_declaration> kind) {
  auto it = sh.limiters.find(kind->controller);
  return spawn_controller_host(sys, sh.opts, sh.services, it == sh.limiters.end() ? caf::actor{} : it->second, {},
                               std::move(kind));
}

}  // namespace

std::pair<std::string, caf::actor> spawn_controller_host(caf::actor_system& sys, const controllers_options& opts,
                                                         const std::map<std::string, caf::actor>& services,
                                                         caf::actor limiter, caf::actor events,
                                                         std::shared_ptr<const runtime::kind_declaration> kind) {
  auto name = kind->controller;
  runtime::kind_host_options ho;
  ho.limiter = std::move(limiter);
  ho.max_concurrent_reconciles = opts.max_concurrent_reconciles;
  auto& reg = opts.registry ? *opts.registry : runtime::metrics::default_registry();
  ho.metrics = std::make_shared<runtime::controller_metrics>(reg, kind->controller);
  ho.metrics->max_concurrent_reconciles.set(opts.max_concurrent_reconciles);
  ho.registry = &reg;
  ho.actor_options = opts.actor_options;
  ho.deps.clusters = opts.clusters;
  ho.deps.field_manager = opts.field_manager;
  ho.deps.services = services;
  ho.deps.events = std::move(events);
  ho.deps.log = opts.log.named(kind->controller);
  ho.shard = opts.shard;
  return {name, runtime::spawn_kind_host(sys, std::move(kind), std::move(ho))};
}

caf::actor spawn_monitoring(caf::actor_system& sys, controllers_options opts, std::string& error) {
  std::string ca;
  if (!opts.flags.platform_ca_file.empty()) {
    std::ifstream in(opts.flags.platform_ca_file);
    if (!in) {
      error = "flag --platform-ca-file: cannot read " + opts.flags.platform_ca_file;
      return {};
    }
    std::ostringstream text;
    text << in.rdbuf();
    ca = text.str();
  }
  auto sh = std::make_shared<shared>();
  sh->opts = std::move(opts);
  auto http = runtime::spawn_http_service(sys);
  sh->services = {
      {prometheus_detector_service, spawn_detector(sys, {detector_kind::prometheus, sh->opts.clusters})},
      {alertmanager_detector_service, spawn_detector(sys, {detector_kind::alertmanager, sh->opts.clusters})},
      {backend_service, http},
      {rancher_service, http},
  };
  prometheus_settings ps;
  ps.backend = make_backend(sh->opts.flags.base_url, sh->opts.flags.token, ca);
  ps.backend.timeout = sh->opts.service_timeout;
  ps.hub_uid = sh->opts.flags.hub_uid;
  ps.rancher_auth_secret = sh->opts.flags.rancher_auth_secret;
  ps.pod_namespace = sh->opts.pod_namespace;
  ps.cluster_name = sh->opts.flags.cluster_name;

  activation_options ao;
  ao.clusters = sh->opts.clusters;
  ao.log = sh->opts.log;
  ao.owned = {sh->services[prometheus_detector_service], sh->services[alertmanager_detector_service], http};
  if (sh->opts.limit)
    for (const auto& c : {prometheus_controller, namespace_controller, alertmanager_controller, auto_controller,
                           federation_controller}) {
      sh->limiters[c] = runtime::spawn_limiter(sys, sh->opts.max_concurrent_reconciles);
      ao.owned.push_back(sh->limiters[c]);
    }
  using hosts = std::vector<std::pair<std::string, caf::actor>>;
  // The TokenRefresher: only with a Rancher auth Secret, behind no CRD.
  if (!sh->opts.flags.rancher_auth_secret.empty()) {
    token_refresher_settings tr{ps.rancher_auth_secret, ps.pod_namespace, ps.cluster_name, sh->opts.service_timeout};
    ao.at_start = [sh, tr](caf::actor_system& s) { return hosts{host_of(s, *sh, token_refresher_declaration(tr))}; };
  }
  ao.groups.push_back({prometheus_gvk.group, prometheus_gvk.kind, [sh, ps](caf::actor_system& s) {
                         return hosts{host_of(s, *sh, client_org_declaration(ps)),
                                      host_of(s, *sh, prometheus_declaration(ps))};
                       }});
  ao.groups.push_back({alertmanager_gvk.group, alertmanager_gvk.kind,
                       [sh](caf::actor_system& s) { return hosts{host_of(s, *sh, alertmanager_declaration())}; }});
  ao.groups.push_back({servicemonitor_gvk.group, servicemonitor_gvk.kind, [sh](caf::actor_system& s) {
                         return hosts{host_of(s, *sh, auto_declaration()), host_of(s, *sh, federation_declaration())};
                       }});
  return spawn_activation(sys, std::move(ao));
}

}  // namespace c5c3::monitoring
