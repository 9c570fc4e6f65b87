// How an order kind plugs into the binary: main() creates its controller's
// metrics (with controller_runtime_max_concurrent_reconciles set), hands it
// its own limiter (--max-concurrent-reconciles tokens per cluster), and asks
// it to spawn its order host; at shutdown each host gets protocol::stop_atom
// after the limiters have drained.
#pragma once

#include "actors/runtime/controller_metrics.hpp"
#include "actors/runtime/shard/gate.hpp"
#include "config/options.hpp"
#include "k8s/log.hpp"

#include <caf/actor.hpp>
#include <caf/fwd.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace c5c3::operator_ {

struct kind_context {
  caf::actor_system& sys;
  const config::operator_options& options;
  caf::actor limiter;  // the kind's own: a token pool per cluster
  std::uint32_t max_concurrent_reconciles;
  std::shared_ptr<runtime::controller_metrics> metrics;
  k8s::log::logger log;  // named "controller", with "controller": <name>
  // The cluster directory (protocol/clusters.hpp): cluster actors by name and
  // the watches a kind registers (protocol::watch_request).
  caf::actor clusters;
  // The ControlPlane directory (actors/c5c3/controlplane): admission and
  // endpoints; register the host with (cp_host_atom, host).
  caf::actor control_planes;
  // The operator's namespace (--namespace, else the connection's).
  std::string namespace_;
  // Sharding among replicas (--shard-name): this replica's name and the
  // membership actor of the kind's controller group; me empty: one replica.
  runtime::shard::shard_options shard = {};
};

struct kind_plug {
  std::string controller;  // e.g. "rabbitmqvhost"
  // Spawns the kind's order host and registers its watches with
  // ctx.clusters and the host with ctx.control_planes. An invalid handle is
  // a start failure (logged; the operator exits 1).
  std::function<caf::actor(kind_context&)> spawn_host;
  // The controller group --controllers selects it by: "orders", "monitoring", "grafana".
  std::string group = "orders";
  // false: the plug makes its own controllers' metrics (ctx.metrics unset).
  bool metrics = true;
};

// The kinds the binary runs: rabbitmqvhost, keystoneuser, keystoneproject,
// keystoneroleassignment, keystonecatalogentry, keystoneapplicationcredential
// (actors/c5c3/<kind>/kind.hpp) in the orders group; the monitoring
// controllers (actors/monitoring/controllers.hpp).
std::vector<kind_plug> operator_kinds();

// A controller's metrics in `reg`, with max_concurrent_reconciles set to n.
std::shared_ptr<runtime::controller_metrics> make_controller_metrics(runtime::metrics::registry& reg,
                                                                     const std::string& controller, int n);

}  // namespace c5c3::operator_
