#include "actors/runtime/runner/host.hpp"

#include "actors/runtime/order_host.hpp"
#include "actors/runtime/shard/scope_cover.hpp"
#include "protocol/clusters.hpp"
#include "protocol/control_plane.hpp"

#include <caf/event_based_actor.hpp>

namespace c5c3::runtime {
namespace {

// Registers the host's watches and its ControlPlane fan-out (spawned with
// arguments besides self: see actors/runtime/README.md).
// Sharded with scoped watches, the order kind's and the children's watches
// start with this replica's own orders only (shard/scope.hpp); the host
// rescopes them at each view.
void registrar(caf::event_based_actor* self, caf::actor host, std::shared_ptr<const kind_declaration> kind,
               runner_deps deps, shard::shard_options sh) {
  const bool scoping = sh.enabled() && sh.scope_watches;
  for (const auto& w : watches_of(*kind)) {
    protocol::watch_request req{{w.gvk, w.namespace_, w.selector, host, w.optional, w.field_selector, false, {}, w.drop},
                                w.every_cluster ? protocol::watch_scope::every_cluster
                                                : protocol::watch_scope::management};
    if (scoping && w.shard_scoped) {
      req.subscription.scoped = true;
      req.subscription.scope = shard::watch_scope(sh.me, nullptr);
    }
    self->request(deps.clusters, caf::infinite, std::move(req)).then([](protocol::ok_atom) {});
  }
  if (kind->admission && deps.control_planes)
    self->request(deps.control_planes, caf::infinite, protocol::cp_host_atom::value, host)
        .then([](protocol::ok_atom) {});
}

}  // namespace

caf::actor spawn_kind_host(caf::actor_system& sys, std::shared_ptr<const kind_declaration> kind,
                           kind_host_options opts) {
  if (!opts.deps.instrumenter && !kind->instrumenter.empty())
    opts.deps.instrumenter = std::make_shared<sub_reconciler_metrics>(
        opts.registry ? *opts.registry : metrics::default_registry(), kind->controller, kind->instrumenter);
  if (!opts.deps.orders)
    opts.deps.orders =
        order_metrics::make(opts.registry ? *opts.registry : metrics::default_registry(), kind->controller);
  if (!opts.deps.fence) opts.deps.fence = opts.shard.fence;
  if (opts.shard.enabled() && opts.shard.scope_watches && !opts.shard.cover)
    opts.shard.cover = std::make_shared<shard::scope_cover>(shard::scope_of(opts.shard.me, nullptr));
  if (!opts.deps.cover) opts.deps.cover = opts.shard.cover;
  if (opts.deps.shard_name.empty()) opts.deps.shard_name = opts.shard.me;
  order_host_config hc;
  hc.controller = kind->controller;
  hc.order_kind = kind->gvk;
  hc.keys = kind->keys;
  hc.order_selector = kind->order_selector;
  hc.wakes = wake_rules_of(*kind);
  hc.referenced_by = kind->referenced_by;
  hc.references = kind->references;
  hc.make_pass = [kind, deps = std::make_shared<const runner_deps>(opts.deps)](const protocol::order_key&) {
    return make_runner_pass(kind, deps);
  };
  hc.limiter = opts.limiter;
  hc.max_concurrent_reconciles = opts.max_concurrent_reconciles;
  hc.metrics = opts.metrics;
  hc.actor_options = opts.actor_options;
  hc.shard = opts.shard;
  if (kind->admission) hc.control_planes = opts.deps.control_planes;
  if (!hc.shard.clusters) hc.shard.clusters = opts.deps.clusters;
  if (hc.shard.enabled()) hc.shard.field_manager = opts.deps.field_manager;
  auto sh = hc.shard;
  auto host = spawn_order_host(sys, std::move(hc));
  sys.spawn(registrar, host, kind, opts.deps, std::move(sh));
  return host;
}

}  // namespace c5c3::runtime
