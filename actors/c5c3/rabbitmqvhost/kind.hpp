// The RabbitMQVhost kind plugged into the runtime: its declaration
// (declaration.hpp) on the order runner (actors/runtime/runner), an order host
// whose actors run it, and the watches the declaration implies
// (rabbitmqvhost-reconciler.txt "Watches").
#pragma once

#include "actors/c5c3/scaffold/crypto.hpp"
#include "actors/runtime/controller_metrics.hpp"
#include "actors/runtime/order_actor.hpp"
#include "actors/runtime/order_metrics.hpp"
#include "actors/runtime/pass.hpp"
#include "actors/runtime/shard/gate.hpp"

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace c5c3::c5c3::rabbitmqvhost {

struct host_options {
  caf::actor limiter;
  std::uint32_t max_concurrent_reconciles = 1;
  std::shared_ptr<runtime::controller_metrics> metrics;
  caf::actor clusters;        // protocol/clusters.hpp directory
  caf::actor control_planes;  // ControlPlane directory
  std::string field_manager = "c5c3-operator";
  runtime::order_actor_options actor_options;
  // Where the sub-reconciler instrumenter registers (null: the default
  // registry) and the password randomness (empty: OpenSSL's).
  runtime::metrics::registry* registry = nullptr;
  random_source random;
  runtime::shard::shard_options shard;  // sharded among replicas (me set)
};

// Spawns the RabbitMQVhost order host, registers its watches with `clusters` (the order kind on
// every cluster, the children on the management cluster, optional topology/ESO kinds) and the host
// with `control_planes`.
caf::actor spawn_host(caf::actor_system& sys, host_options opts);

// One order's pass without a host (tests drive an order actor with it).
struct pass_deps {
  caf::actor clusters;
  caf::actor control_planes;
  std::string field_manager = "c5c3-operator";
  random_source random;  // empty: system_random()
  std::shared_ptr<runtime::order_metrics> orders;  // null: none
};
runtime::pass_fn make_order_pass(pass_deps deps);

}  // namespace c5c3::c5c3::rabbitmqvhost
