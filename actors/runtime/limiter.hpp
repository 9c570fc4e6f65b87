// The concurrency limiter of one kind (--max-concurrent-reconciles, as
// controller-runtime's MaxConcurrentReconciles: one limiter per controller)
// with a token pool per cluster: a pass waiting on one slow or unreachable
// cluster holds a token of that cluster's pool only, so orders on the other
// clusters keep running.
//
// An order actor asks acquire_atom and gets grant_atom when a token of its
// cluster's pool is free (waiters of a pool are served first come, first
// served); it sends release_atom when its pass ends. The pool:
//   (acquire_atom, std::string cluster)  names it ("" = management);
//   (acquire_atom)                       the limiter asks the sender once for
//                                        its protocol::order_probe (probe_atom)
//                                        and uses its order key's cluster; a
//                                        sender that does not answer within
//                                        probe_timeout counts against "".
// A holder or waiter that dies gives its tokens back (the limiter monitors
// them). (release_atom, cluster) gives back a token of that pool.
//
// stop_atom: no more grants (waiters get an api_errc::shutting_down error),
// answered ok_atom once every token of every pool is back; then it quits.
// probe_atom answers a protocol::limiter_probe over all pools (in_use and
// waiting summed, peak the highest in_use any one pool reached);
// (probe_atom, cluster) the same for one pool.
#pragma once

#include "actors/runtime/controller_metrics.hpp"

#include <caf/actor.hpp>
#include <caf/fwd.hpp>
#include <caf/timespan.hpp>

#include <chrono>
#include <cstdint>
#include <memory>

namespace c5c3::runtime {

struct limiter_options {
  std::uint32_t max = 2;  // tokens per cluster; below 1 counts as 1
  caf::timespan probe_timeout = std::chrono::seconds(5);
};

caf::actor spawn_limiter(caf::actor_system& sys, limiter_options opts);
// The same with `max` tokens per cluster. The max_concurrent_reconciles
// gauge of each controller is the host's to set.
caf::actor spawn_limiter(caf::actor_system& sys, std::uint32_t max);

}  // namespace c5c3::runtime
