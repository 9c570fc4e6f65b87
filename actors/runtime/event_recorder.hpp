// The operator's event recorder (client-go's EventBroadcaster + recorder for
// one component): plans record Events about their order
// (order_plan::events, sent by the runner once the pass settles) and this
// actor writes them through the order's cluster actor, aggregated by
// event_correlator (a repeated event patches count and lastTimestamp).
// Fire and forget, as client-go's: a failed write is logged (kind, namespace,
// name, reason, the API error) and dropped; a patch that meets NotFound
// creates the Event anew.
//
//   runner -> recorder : recorded_event   (no answer)
//   tests  -> recorder : protocol::probe_atom -> std::size_t (events remembered)
//
// Why in actors/runtime: every kind's plan can record events through the
// runner, and the recorder needs only a cluster actor (protocol/cluster_io.hpp).
#pragma once

#include "actors/runtime/runner/snapshot.hpp"
#include "k8s/log.hpp"

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>
#include <caf/allowed_unsafe_message_type.hpp>

#include <chrono>
#include <string>

namespace c5c3::runtime {

struct recorded_event {
  k8s::object involved;  // the order as the pass left it
  event_record record;
  caf::actor cluster;    // where the Event is written (the order's cluster)
};

struct event_recorder_options {
  std::string component = "c5c3-operator";  // source.component, reportingComponent
  std::chrono::seconds timeout{30};
  k8s::log::logger log = k8s::log::root().named("events");
};

caf::actor spawn_event_recorder(caf::actor_system& sys, event_recorder_options opts);

}  // namespace c5c3::runtime

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::runtime::recorded_event)
