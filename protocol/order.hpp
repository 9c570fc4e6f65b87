// Conversation: order wake-ups, timers and the concurrency limit.
//
//   order host  -> order actor : order_update (the latest order object, and
//                                whether it should wake), child_update (a
//                                child's event: wakes unless it is the echo
//                                of the order's own write or changed nothing
//                                but its version), wake_atom,
//                                retire_atom
//   order actor -> order host  : (park_atom, order_key, pass number) asks to
//                                park (answered bool: go ahead); parked_order
//                                (parked, or changed its mind) follows a yes
//   anyone      -> order host  : wake_order (e.g. a ControlPlane fan-out)
//   order actor -> itself      : timer_tick (its named timers, the pass deadline among them)
//   order actor -> limiter     : acquire_atom [, std::string cluster] (answered
//                                grant_atom when a token of that cluster's pool
//                                is free), release_atom [, cluster]
//   main        -> host/limiter: stop_atom (answered ok_atom once drained)
//   tests       -> any of them : probe_atom (answered with a *_probe snapshot)
#pragma once

#include "k8s/object.hpp"
#include "protocol/wake_cause.hpp"

#include <caf/atom.hpp>
#include <caf/allowed_unsafe_message_type.hpp>
#include <caf/meta/type_name.hpp>
#include <caf/timestamp.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace c5c3::protocol {

using wake_atom = caf::atom_constant<caf::atom("wake")>;
using retire_atom = caf::atom_constant<caf::atom("retire")>;
using stop_atom = caf::atom_constant<caf::atom("stop")>;
using ok_atom = caf::atom_constant<caf::atom("ok")>;
using acquire_atom = caf::atom_constant<caf::atom("acquire")>;
using grant_atom = caf::atom_constant<caf::atom("grant")>;
using release_atom = caf::atom_constant<caf::atom("release")>;
using probe_atom = caf::atom_constant<caf::atom("probe")>;
using park_atom = caf::atom_constant<caf::atom("park")>;

// Which order: the cluster it lives on ("" is the management cluster), its
// namespace and name.
struct order_key {
  std::string cluster;
  std::string namespace_;
  std::string name;

  // "cluster/namespace/name" (the cluster part empty on the management cluster).
  std::string to_string() const { return cluster + "/" + namespace_ + "/" + name; }
  friend bool operator==(const order_key&, const order_key&) = default;
  friend auto operator<=>(const order_key&, const order_key&) = default;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, order_key& x) {
  return f(caf::meta::type_name("c5c3::protocol::order_key"), x.cluster, x.namespace_, x.name);
}

// Host -> order actor: the latest version of the order as the host saw it.
// `wake` is false for updates the predicate filters (status-only writes): the
// actor keeps the newer object for its next pass but does not start one.
struct order_update {
  k8s::object order;
  bool wake = true;
  // Why it wakes: the order's own event, or what unparked a parked order.
  wake_cause cause = wake_cause::order;
};

// Host -> order actor: an event (added or modified) of one of the order's
// children, on `cluster`. It wakes the actor unless its last pass said the
// version is the echo of the order's own write (pass_result::echo), or the
// host found nothing changed but the version (`news` false: a finalizer or a
// status field the informer drops); either way it shows the cache's version.
struct child_update {
  std::string cluster;
  k8s::object child;
  bool news = true;
};

// Anyone -> order host: wake the actor of `key` if it exists.
struct wake_order {
  order_key key;
  std::string reason;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, wake_order& x) {
  return f(caf::meta::type_name("c5c3::protocol::wake_order"), x.key, x.reason);
}

// Order actor -> itself: the tick it sent for a due time of its named timers
// (rotation, grace, requeue, the pass deadline); see named_timers.hpp.
struct timer_tick {
  std::int64_t at = 0;  // the actor clock's due time it was sent for, in ns since the clock's epoch
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, timer_tick& x) {
  return f(caf::meta::type_name("c5c3::protocol::timer_tick"), x.at);
}

// What an order's last pass left, for `c5c3-operator explain` and
// /debug/orders: plain text made of condition reasons and messages and object
// names, never a Secret's data.
struct pass_report {
  std::string stage;              // where the plan stopped: "admission", "legs", "teardown", ...
  std::string ready;              // the Ready condition: "False NotAllReady: <message>"
  std::string blocked_by;         // the first other condition not True: "VhostReady=False WaitingForVhost: <message>"
  std::string waiting_for;        // the child the order waits for: "Vhost openstack/x"
  std::string waiting_condition;  // that child's condition: "Ready=False FailedCreateOrUpdate: <message>"
  std::string result;             // "converged", "requeue after 10s", "error", ...
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, pass_report& x) {
  return f(caf::meta::type_name("c5c3::protocol::pass_report"), x.stage, x.ready, x.blocked_by, x.waiting_for,
           x.waiting_condition, x.result);
}

// Where an order actor is in its cycle.
// parked: a converged order whose actor is gone until an event or its next
// timer (the host answers its probe from what the actor left).
enum class order_phase : std::uint8_t { idle, waiting_for_token, running, stopping, parked };

// probe_atom answers: a snapshot for tests and debugging.
struct order_probe {
  order_key key;
  std::uint8_t phase = 0;  // order_phase
  bool wake_pending = false;
  std::uint64_t passes_started = 0;
  std::uint64_t passes_finished = 0;
  std::uint64_t idle_ticks = 0;      // timer ticks that found nothing due
  std::uint32_t ticks_in_flight = 0;  // timer ticks sent and not yet arrived
  std::uint32_t failures = 0;      // consecutive errors (the backoff exponent)
  std::vector<std::string> armed_timers;
  std::string last_error;  // of the last pass that failed
  // For explain: the last pass's report and when it ended, when the last
  // error happened, and when each armed timer fires ("rotation
  // 2026-12-01T10:00:00Z"), all RFC 3339 wall-clock times.
  pass_report report;
  std::string last_pass_at;
  std::string last_error_at;
  std::vector<std::string> timers_due;
  // Writes sent and not answered yet (the write fence: a stopping actor
  // waits for them before it quits).
  std::uint32_t writes_in_flight = 0;
  // Child events that woke no pass: the echoes of the order's own writes.
  std::uint64_t echoes = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, order_probe& x) {
  return f(caf::meta::type_name("c5c3::protocol::order_probe"), x.key, x.phase, x.wake_pending,
           x.passes_started, x.passes_finished, x.idle_ticks, x.ticks_in_flight, x.failures, x.armed_timers,
           x.last_error, x.report, x.last_pass_at, x.last_error_at, x.timers_due, x.writes_in_flight, x.echoes);
}

struct limiter_probe {
  std::uint32_t max = 0;      // tokens per cluster pool
  std::uint32_t in_use = 0;
  std::uint32_t waiting = 0;
  std::uint32_t peak = 0;  // the highest in_use any one pool ever reached
  bool stopping = false;
  std::uint32_t pools = 0;  // clusters with a token held or a waiter
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, limiter_probe& x) {
  return f(caf::meta::type_name("c5c3::protocol::limiter_probe"), x.max, x.in_use, x.waiting,
           x.peak, x.stopping, x.pools);
}

struct host_probe {
  std::vector<order_key> live;      // orders the host runs (an actor, or parked)
  std::vector<order_key> retiring;  // actors finishing their last pass
  std::uint64_t spawned = 0;        // actors spawned for a new order or after a death (not unparks)
  std::uint64_t retired = 0;
  std::uint64_t filtered = 0;  // order updates the predicate did not pass
  std::uint64_t unrouted = 0;  // child events that mapped to no known order
  // Child modifications that changed nothing but the version (no pass woken).
  std::uint64_t unchanged_children = 0;
  // Wake-ups sent through the index of what the orders name (a user change
  // waking the assignments that name it).
  std::uint64_t referenced_wakes = 0;
  std::uint64_t parked = 0;    // orders parked now (among live)
  std::uint64_t parks = 0;     // actors parked, ever
  std::uint64_t unparks = 0;   // actors spawned again for a parked order
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, host_probe& x) {
  return f(caf::meta::type_name("c5c3::protocol::host_probe"), x.live, x.retiring, x.spawned,
           x.retired, x.filtered, x.unrouted, x.unchanged_children, x.referenced_wakes, x.parked, x.parks,
           x.unparks);
}

// Order actor -> order host, after the host agreed to park it: `parked`
// true and the actor quits; false: it changed its mind (a pass began) and
// goes on. `probe` is what the host answers for the order while it is
// parked (and hands the next actor, so its counters go on); `next_due` the
// actor clock's time since its epoch, in nanoseconds, when its earliest
// named timer is due (0: none armed): the host wakes it then.
struct parked_order {
  order_key key;
  bool parked = false;
  order_probe probe;
  std::int64_t next_due = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, parked_order& x) {
  return f(caf::meta::type_name("c5c3::protocol::parked_order"), x.key, x.parked, x.probe, x.next_due);
}

}  // namespace c5c3::protocol

// Local only: carries a shared immutable object.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::protocol::order_update)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::protocol::child_update)
