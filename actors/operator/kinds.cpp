#include "actors/operator/kinds.hpp"

#include "actors/c5c3/keystoneapplicationcredential/kind.hpp"
#include "actors/c5c3/keystonecatalogentry/kind.hpp"
#include "actors/c5c3/keystoneproject/kind.hpp"
#include "actors/c5c3/keystoneroleassignment/kind.hpp"
#include "actors/c5c3/keystoneuser/kind.hpp"
#include "actors/c5c3/rabbitmqvhost/kind.hpp"
#include "actors/monitoring/controllers.hpp"
#include "actors/monitoring/grafana_controllers.hpp"

namespace c5c3::operator_ {

namespace {

// The runner's host options of a kind.
runtime::kind_host_options host_options(const kind_context& ctx) {
  runtime::kind_host_options o;
  o.limiter = ctx.limiter;
  o.max_concurrent_reconciles = ctx.max_concurrent_reconciles;
  o.metrics = ctx.metrics;
  o.deps.clusters = ctx.clusters;
  o.deps.control_planes = ctx.control_planes;
  o.shard = ctx.shard;
  o.actor_options.park_after = ctx.options.park_idle_after;
  return o;
}

// The monitoring and grafana groups' options.
::c5c3::monitoring::controllers_options monitoring_options(const kind_context& ctx) {
  ::c5c3::monitoring::controllers_options o;
  o.flags = ctx.options.monitoring;
  o.pod_namespace = ctx.namespace_;
  o.clusters = ctx.clusters;
  o.limit = static_cast<bool>(ctx.limiter);  // one limiter per controller
  o.max_concurrent_reconciles = ctx.max_concurrent_reconciles;
  o.log = ctx.log;
  o.shard = ctx.shard;
  o.actor_options.park_after = ctx.options.park_idle_after;
  return o;
}

}  // namespace

std::vector<kind_plug> operator_kinds() {
  std::vector<kind_plug> kinds;
  kinds.push_back({"rabbitmqvhost", [](kind_context& ctx) {
                     ::c5c3::c5c3::rabbitmqvhost::host_options o;
                     o.limiter = ctx.limiter;
                     o.max_concurrent_reconciles = ctx.max_concurrent_reconciles;
                     o.metrics = ctx.metrics;
                     o.clusters = ctx.clusters;
                     o.control_planes = ctx.control_planes;
                     o.shard = ctx.shard;
                     o.actor_options.park_after = ctx.options.park_idle_after;
                     return ::c5c3::c5c3::rabbitmqvhost::spawn_host(ctx.sys, std::move(o));
                   }});
  kinds.push_back({"keystoneuser", [](kind_context& ctx) {
                     return ::c5c3::c5c3::keystoneuser::spawn_host(ctx.sys, host_options(ctx));
                   }});
  kinds.push_back({"keystoneproject", [](kind_context& ctx) {
                     return ::c5c3::c5c3::keystoneproject::spawn_host(ctx.sys, host_options(ctx));
                   }});
  kinds.push_back({"keystoneroleassignment", [](kind_context& ctx) {
                     return ::c5c3::c5c3::keystoneroleassignment::spawn_host(ctx.sys, host_options(ctx));
                   }});
  kinds.push_back({"keystonecatalogentry", [](kind_context& ctx) {
                     return ::c5c3::c5c3::keystonecatalogentry::spawn_host(ctx.sys, host_options(ctx));
                   }});
  kinds.push_back({"keystoneapplicationcredential", [](kind_context& ctx) {
                     return ::c5c3::c5c3::keystoneapplicationcredential::spawn_host(ctx.sys, host_options(ctx));
                   }});
  kind_plug monitoring{"monitoring", [](kind_context& ctx) {
                         std::string error;
                         auto a = ::c5c3::monitoring::spawn_monitoring(ctx.sys, monitoring_options(ctx), error);
                         if (!a) ctx.log.error("unable to start the monitoring controllers", error);
                         return a;
                       },
                       "monitoring", false};
  kinds.push_back(std::move(monitoring));
  kind_plug grafana{"grafana",
                    [](kind_context& ctx) { return ::c5c3::monitoring::spawn_grafana(ctx.sys, monitoring_options(ctx)); },
                    "grafana", false};
  kinds.push_back(std::move(grafana));
  return kinds;
}

std::shared_ptr<runtime::controller_metrics> make_controller_metrics(runtime::metrics::registry& reg,
                                                                     const std::string& controller, int n) {
  auto m = std::make_shared<runtime::controller_metrics>(reg, controller);
  m->max_concurrent_reconciles.set(n);
  return m;
}

}  // namespace c5c3::operator_
