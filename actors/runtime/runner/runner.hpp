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
#pragma once

#include "actors/runtime/order_metrics.hpp"
#include "actors/runtime/pass.hpp"
#include "actors/runtime/runner/declaration.hpp"
#include "actors/runtime/runner/instrumenter.hpp"
#include "k8s/log.hpp"

#include <caf/actor.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <string>

namespace c5c3::runtime {

struct runner_deps {
  caf::actor clusters;        // protocol/clusters.hpp directory
  caf::actor control_planes;  // the ControlPlane directory (kinds with admission)
  std::string field_manager = "c5c3-operator";
  caf::timespan timeout = std::chrono::seconds(30);  // per request
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

// The pass of one order of `kind` (the host's pass_factory calls it once per
// order actor; the actor's memo lives in the closure).
pass_fn make_runner_pass(std::shared_ptr<const kind_declaration> kind, runner_deps deps);

}  // namespace c5c3::runtime
