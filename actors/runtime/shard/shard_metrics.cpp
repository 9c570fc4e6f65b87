#include "actors/runtime/shard/shard_metrics.hpp"

namespace c5c3::runtime::shard {

shard_metrics::shard_metrics(metrics::registry& reg, const std::string& c)
    : owned(reg.gauge("c5c3_shard_orders_owned", "Orders whose actor runs on this replica", {"controller"})
                .with({c})),
      claims(reg.counter("c5c3_shard_claims_total", "Orders this replica claimed", {"controller"}).with({c})),
      releases(reg.counter("c5c3_shard_releases_total", "Orders this replica released to another replica",
                           {"controller"})
                   .with({c})),
      drains(reg.counter("c5c3_shard_drains_total", "Order actors stopped because their order moved",
                         {"controller"})
                 .with({c})),
      handoff(reg.histogram("c5c3_shard_handoff_seconds",
                            "Time from a change of the ring's members to the first pass of an order it moved here",
                            {"controller"}, metrics::exponential_buckets(0.05, 2, 12))
                  .with({c})) {}

}  // namespace c5c3::runtime::shard
