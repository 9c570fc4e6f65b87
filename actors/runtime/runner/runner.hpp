// The order runner: one place that runs every kind's pass (design.md "An
// order actor's pass: sense, plan, act"; runner/README.md).
//
// Sense: the order (through the actor's read-your-writes memo), its cluster
// actor and the management one (the cluster directory), admission through
// the ControlPlane directory (which registers the order for the fan-out),
// then, past admission or for a deleting order, every read slot from the
// informer caches in dependency order, so a converged order makes no API
// request. Plan: the kind's pure function. Act: the writes in order
// (AlreadyExists is read by name and planned again, NotFound on a delete is
// success, Conflict is a requeue), a named object read live before it is
// written, the answers folded in and the plan made again until it asks for
// nothing (bounded: a plan that does not settle fails naming the object and
// the field); then the finalizer (a JSON patch that tests the
// resourceVersion) and the status (a PUT of /status, only when the plan
// changed it). Result: the plan's requeue and its named timers. A pass past
// its deadline writes nothing and answers arriving after it are ignored.
// Every write carries a deadline (write_deadline below, capped by the ring's
// write fence when sharded) shorter than its request timeout, and is counted
// by the order actor until it answers (pass_context::write_sent): a retired
// actor does not quit while a write of its order may still be sent.
#pragma once

#include "actors/runtime/order_metrics.hpp"
#include "actors/runtime/pass.hpp"
#include "actors/runtime/runner/declaration.hpp"
#include "actors/runtime/runner/instrumenter.hpp"
#include "actors/runtime/shard/lease_fence.hpp"
#include "k8s/log.hpp"

#include <caf/actor.hpp>

#include <chrono>
#include <map>
#include <optional>
#include <memory>
#include <string>

namespace c5c3::runtime {

namespace shard {
class scope_cover;
}

struct runner_deps {
  caf::actor clusters;        // protocol/clusters.hpp directory
  caf::actor control_planes;  // the ControlPlane directory (kinds with admission)
  std::string field_manager = "c5c3-operator";
  caf::timespan timeout = std::chrono::seconds(30);  // per request
  // Sharded: the ring's write fence (shard/lease_fence.hpp); every write's
  // deadline is capped by it (null: not sharded).
  std::shared_ptr<const shard::lease_fence> fence{};
  // Sharded: this replica's name. Every create, apply or update of one of an
  // order's children (the object carries the order's name label) is stamped
  // `c5c3.io/shard: <name>`, and each order actor's first pass reads its
  // children from the API server and restamps those another holder stamped
  // (the replicas' children watches are scoped by it), unless this replica
  // is the only holder the order ever had (shard::only_holder); a create
  // refused as AlreadyExists makes the next pass read and restamp so.
  // "" : not sharded.
  std::string shard_name;
  // Sharded with scoped watches: whose stamps the host's caches show
  // (shard/scope_cover.hpp). The second holder of an order, which took it
  // over from a holder whose stamps they show (shard::taken_over_from),
  // restamps from the cache on its first pass (null: from the API server).
  std::shared_ptr<const shard::scope_cover> cover{};
  std::shared_ptr<sub_reconciler_metrics> instrumenter;  // null: none
  // Orders by Ready reason and rotation lag (order_metrics.hpp), fed as
  // passes settle and actors go away (null: none).
  std::shared_ptr<order_metrics> orders;
  // How long the memo may stand in for a lagging cache (write_memo).
  std::chrono::nanoseconds memo_horizon = std::chrono::seconds(30);
  k8s::log::logger log = k8s::log::root().named("runner");
  // The service actors plans may call (runtime/http_service.hpp), by name.
  std::map<std::string, caf::actor> services;
  // The event recorder (runtime/event_recorder.hpp) the plans' events go to
  // (invalid: they are dropped).
  caf::actor events;
};

// The deadline of a write sent at `now` (the steady clock) with the request
// timeout `timeout`: the timeout less a margin (a fifth of it, at most 5 s), so
// no attempt of the write starts after the runner stopped waiting for it, and
// one in flight is cut before then. `fence_left`, when sharded: how long the
// replica's Lease is still certainly held (<= 0: no write may start).
std::chrono::steady_clock::time_point write_deadline(std::chrono::steady_clock::time_point now, caf::timespan timeout,
                                                     std::optional<std::chrono::nanoseconds> fence_left);

// The pass of one order of `kind` (the host's pass_factory calls it once per
// order actor; the actor's memo lives in the closure).
pass_fn make_runner_pass(std::shared_ptr<const kind_declaration> kind, runner_deps deps);
// The same with deps every order of the host shares (one copy, not one per order).
pass_fn make_runner_pass(std::shared_ptr<const kind_declaration> kind, std::shared_ptr<const runner_deps> deps);

}  // namespace c5c3::runtime
