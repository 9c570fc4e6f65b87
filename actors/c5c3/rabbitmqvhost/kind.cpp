#include "actors/c5c3/rabbitmqvhost/kind.hpp"

#include "actors/c5c3/rabbitmqvhost/declaration.hpp"
#include "actors/runtime/runner/host.hpp"

namespace c5c3::c5c3::rabbitmqvhost {

caf::actor spawn_host(caf::actor_system& sys, host_options opts) {
  runtime::kind_host_options ho;
  ho.limiter = opts.limiter;
  ho.max_concurrent_reconciles = opts.max_concurrent_reconciles;
  ho.metrics = opts.metrics;
  ho.actor_options = opts.actor_options;
  ho.registry = opts.registry;
  ho.deps.clusters = opts.clusters;
  ho.deps.control_planes = opts.control_planes;
  ho.deps.field_manager = opts.field_manager;
  ho.shard = opts.shard;
  return runtime::spawn_kind_host(sys, declaration(opts.random), std::move(ho));
}

runtime::pass_fn make_order_pass(pass_deps deps) {
  runtime::runner_deps rd;
  rd.clusters = deps.clusters;
  rd.control_planes = deps.control_planes;
  rd.field_manager = deps.field_manager;
  rd.orders = deps.orders;
  return runtime::make_runner_pass(declaration(deps.random), std::move(rd));
}

}  // namespace c5c3::c5c3::rabbitmqvhost
