// What a kind's plan sees and what it returns (the order runner's two
// values). The snapshot is what the pass sensed: the order (as the runner's
// own writes left it), its cluster, the ControlPlane actor's admission answer
// and the ControlPlane, and one result per read slot. The plan is a pure
// function of it; it returns every write it needs at once, the finalizer
// change, the order with its new status, when to come back and the named
// timers. The runner folds the writes' answers into the snapshot and plans
// again until a plan asks for no write.
#pragma once

#include "actors/runtime/runner/write.hpp"
#include "k8s/object.hpp"
#include "protocol/api_error.hpp"
#include "protocol/control_plane.hpp"
#include "protocol/order.hpp"
#include "protocol/service.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::runtime {

struct slot_result {
  std::vector<k8s::object> items;  // named: none or one
  bool served = true;              // false: the kind is not served (an optional slot)
  bool read = false;               // false: skipped this pass (its locate found nothing to read)
  bool live = false;               // read from the API server this pass
  std::string namespace_;          // where it was read
  std::string name;                // named: the name it looked for
  std::string fields;              // listed: the field selector it narrowed by (locator::fields)
};

// A write marked report_failure that failed this pass: what it was and what
// the API server (or the transport) answered. Never carries a body.
struct write_failure {
  write_cluster cluster = write_cluster::management;
  std::string kind;
  std::string namespace_;
  std::string name;
  std::string subresource;
  std::optional<protocol::api_errc> code;  // nullopt: not an API error
  std::string message;                     // protocol::describe of the error
};

// A request to a service outside Kubernetes a plan asks for (Grafana, the
// monitoring backend): its answer lands in sense_snapshot::answers[id].
struct service_call {
  std::string id;
  std::string service;  // a name in runner_deps::services
  protocol::service_request request;
};

// An Event a plan records about its order (client-go's EventRecorder.Event):
// the runner hands it to runner_deps::events (runtime/event_recorder.hpp),
// which writes or aggregates it. Never a credential in reason or message.
struct event_record {
  std::string type = "Warning";  // Normal or Warning
  std::string reason;
  std::string message;
  friend bool operator==(const event_record&, const event_record&) = default;
};

struct service_answer {
  int status = 0;
  std::string body;
  std::string error;  // a transport failure (no HTTP answer); never a credential
  bool answered() const { return error.empty(); }
};

struct sense_snapshot {
  k8s::object order;
  protocol::order_key key;  // the cluster the order lives on ("" management), its namespace and name
  // The ControlPlane actor's answer (kinds with admission), and the
  // ControlPlane it holds or the cache does (empty: absent).
  protocol::admission_answer admission;
  k8s::object control_plane;
  // Whether the reads ran: admitted, or a deleting order (the freeze: a
  // refused order reads nothing in the ControlPlane's namespace).
  bool sensed = false;
  std::string home_namespace;
  std::map<std::string, slot_result, std::less<>> slots;
  // Objects a create met as AlreadyExists, read by name from the API server.
  std::vector<k8s::object> read_by_name;
  // Writes marked report_failure that failed this pass, in order.
  std::vector<write_failure> write_failures;
  // The answers to this pass's service calls, by call id.
  std::map<std::string, service_answer, std::less<>> answers;
  std::chrono::system_clock::time_point now;

  bool admitted() const { return admission.verdict == protocol::admission_verdict::admitted; }
  const slot_result* slot(std::string_view id) const;
  // The slot's items (empty when absent or not read).
  const std::vector<k8s::object>& list(std::string_view id) const;
  // A named slot's object (null: none).
  const k8s::object* one(std::string_view id) const;
  // Whether the slot's kind is served (true for a slot never read).
  bool served(std::string_view id) const;
  // The failure of a write to the object `w` names (same cluster, kind,
  // namespace, name and subresource), or null.
  const write_failure* failure_of(const child_write& w) const;
  const k8s::object* control_plane_or_null() const { return control_plane ? &control_plane : nullptr; }
  const service_answer* answer(std::string_view id) const {
    auto it = answers.find(id);
    return it == answers.end() ? nullptr : &it->second;
  }
};

enum class finalizer_op : std::uint8_t { none, add, release };

struct order_plan {
  std::vector<child_write> writes;  // in order
  // After the writes, in order: requests to services outside Kubernetes;
  // their answers land in the snapshot and the plan runs again (a plan asks
  // only for calls it has no answer to yet).
  std::vector<service_call> calls;
  // After the writes: plan again (false: the pass settles; a teardown's
  // deletes take effect through the controllers, the next pass counts them).
  bool replan_after_writes = true;
  // Failed writes are logged and passed over, and the finalizer is released
  // anyway (the teardown with the ControlPlane gone).
  bool fail_open = false;
  // Once no write is left: add the kind's finalizer (then plan again) or
  // release it (the pass ends).
  finalizer_op finalizer = finalizer_op::none;
  // The order with the status to write (PUT of /status); nullopt: unchanged.
  std::optional<k8s::object> status;
  // When to come back (nullopt: on an event).
  std::optional<std::chrono::nanoseconds> requeue;
  // Named timers at wall-clock times, derived from the status the pass
  // leaves (rotation, grace, ...): re-armed every pass, so a restarted actor
  // re-arms them from status alone.
  std::map<std::string, std::chrono::system_clock::time_point> timers;
  // The conditions the instrumenter records for this pass (empty: none).
  std::vector<k8s::condition> instrument;
  // Events about the order, recorded once the pass settles (the last plan's).
  std::vector<event_record> events;
  // Non-empty: the pass fails with this (after the writes, the finalizer and
  // the status), naming the order, and comes back after the per-order
  // backoff (controller-runtime's returned error). Never a credential.
  std::string error;
  // Where the pass stopped (for logs and explain): "admission", "legs", "teardown", ...
  std::string stage;
  // The child the order waits for (explain shows it and its own condition):
  // a slot, and the name of its object (empty: the slot's first).
  std::string waiting_slot;
  std::string waiting_name;
};

}  // namespace c5c3::runtime
