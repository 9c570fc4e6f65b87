// A pass's result as a value (ctrl.Result): when to come back, if at all, and
// the requeue intervals the orders share (apis.md 1.1, requeue_intervals.go).
#pragma once

#include "k8s/time.hpp"

#include <chrono>
#include <optional>
#include <string_view>

namespace c5c3::c5c3 {

using std::chrono_literals::operator""s;
using std::chrono_literals::operator""min;
using std::chrono_literals::operator""h;

using duration = std::chrono::nanoseconds;

// nullopt: no requeue of its own (ctrl.Result{}); a value: RequeueAfter.
using requeue = std::optional<duration>;

// namespaceAssignmentRequeueAfter: a frozen order re-reads every minute.
inline constexpr duration namespace_assignment_requeue_after = std::chrono::minutes(1);
// keystoneUserRefreshAfter, the documents' orderRefreshAfter.
inline constexpr duration order_refresh_after = std::chrono::minutes(10);
// orderReferenceHoldRequeueAfter.
inline constexpr duration order_reference_hold_requeue_after = std::chrono::minutes(1);
// korcRequeueAfter: the waits of the gates and the patient teardown.
inline constexpr duration korc_requeue_after = std::chrono::seconds(10);

// A wait for one of the order's own children, listed by its ownership labels:
// no timed requeue of its own. Every event of such a child wakes the order (the
// runner's children informers), so the scaffold's refresh is only the
// backstop. The reference polls these waits every korcRequeueAfter because its
// client caches no topology kind; a poll here would find what the event
// already brought, and on a sharded replica, where wake-ups do not coalesce
// behind a long queue, those polls were most of the passes (issue 17).
inline constexpr requeue on_child_event = std::nullopt;

// orderPassResult: a requeue a step asked for stands; a converged order on the
// management cluster waits for an event; every other order comes back after
// order_refresh_after.
requeue order_pass_result(std::string_view cluster, bool converged, requeue asked);

// ShortestRequeue: the earliest of the requeues that ask for one.
requeue shortest_requeue(requeue a, requeue b);

// The requeue that comes back at `at`: none without a time; `overdue` when the
// time has passed (the step that acts on it has run, and its own waits apply).
requeue requeue_at(std::optional<k8s::time_point> at, k8s::time_point now,
                   duration overdue = korc_requeue_after);

}  // namespace c5c3::c5c3
