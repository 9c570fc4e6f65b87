// A kind on the order runner, plugged in: its order host (one order actor per
// order, each running make_runner_pass), the watches its declaration implies
// registered with the cluster directory, and the host registered with the
// ControlPlane directory for the fan-out (kinds with admission).
#pragma once

#include "actors/runtime/controller_metrics.hpp"
#include "actors/runtime/order_actor.hpp"
#include "actors/runtime/runner/runner.hpp"
#include "actors/runtime/shard/gate.hpp"

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>

#include <cstdint>
#include <memory>

namespace c5c3::runtime {

struct kind_host_options {
  caf::actor limiter;  // invalid: no limit
  std::uint32_t max_concurrent_reconciles = 1;
  std::shared_ptr<controller_metrics> metrics;  // null: none
  order_actor_options actor_options;
  // Where the instrumenter registers (null: the default registry).
  metrics::registry* registry = nullptr;
  runner_deps deps;  // clusters, control_planes, field manager, ...
  shard::shard_options shard;  // sharded among replicas (me set); clusters defaults to deps.clusters
};

// Spawns the host of `kind` and registers its watches and fan-out.
caf::actor spawn_kind_host(caf::actor_system& sys, std::shared_ptr<const kind_declaration> kind,
                           kind_host_options opts);

}  // namespace c5c3::runtime
