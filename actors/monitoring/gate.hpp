// The detector readiness gate every monitoring plan starts with
// (monitoring-controllers.txt "Common Reconcile Patterns": d.Ready() before
// doing work). The detector is a service of the runner (detector_actor.hpp):
// the first round of a pass asks it, the next plans on its answer:
//   200  ready: the flavour (latched for the life of the process);
//   204  not ready, no error (OpenShift without the user-workload object):
//        the pass ends converged, no requeue;
//   else not ready with an error ("unknown" when nothing is listed, or the
//        list's error): the pass fails and backs off.
#pragma once

#include "actors/monitoring/flavour.hpp"
#include "actors/runtime/runner/snapshot.hpp"

#include <optional>
#include <string>

namespace c5c3::monitoring {

// The flavour when the detector is ready; otherwise nullopt, and `p` holds
// what the plan returns now (the call, the error, or nothing).
std::optional<flavour> detector_gate(const runtime::sense_snapshot& s, const std::string& service,
                                     runtime::order_plan& p);

// The detector's answers (detector_actor.hpp answers them, tests build them).
runtime::service_answer ready_answer(const flavour& f);
runtime::service_answer unknown_answer(std::string error = "unknown");
runtime::service_answer not_ready_answer();

}  // namespace c5c3::monitoring
