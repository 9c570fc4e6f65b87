// A sharded order host's metrics (issue 17), per controller:
//   c5c3_shard_orders_owned{controller}        gauge: orders whose actor runs here
//   c5c3_shard_claims_total{controller}        claims written (an order taken: unclaimed or a dead member's)
//   c5c3_shard_releases_total{controller}      releases written (after the actor stopped)
//   c5c3_shard_drains_total{controller}        actors stopped because the order moved (or the Lease lapsed)
//   c5c3_shard_handoff_seconds{controller}     from the ring change to the first pass of an order it moved here
#pragma once

#include "actors/runtime/metrics.hpp"

#include <string>

namespace c5c3::runtime::shard {

struct shard_metrics {
  shard_metrics(metrics::registry& reg, const std::string& controller);
  metrics::gauge& owned;
  metrics::counter& claims;
  metrics::counter& releases;
  metrics::counter& drains;
  metrics::histogram& handoff;
};

}  // namespace c5c3::runtime::shard
