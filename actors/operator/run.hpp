// The operator's main, testable: parse the options, start the actor system,
// the limiter, the kinds' order hosts and the metrics and probe servers, wait
// for SIGTERM or SIGINT, then drain (no new passes, passes in flight finish,
// bounded by drain_budget) and return the exit code:
//   0  help printed, or a clean stop
//   1  the API server connection cannot be configured, a server cannot bind
//   2  bad flags or values (the message names the flag), --embedded (not yet)
#pragma once

#include "config/connection.hpp"

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace c5c3::operator_ {

// Total time the stop may take before the process exits anyway (under the
// 30 s a kubelet grants by default).
inline constexpr std::chrono::seconds drain_budget{25};

// Blocks SIGTERM and SIGINT in the calling thread (and the threads it starts
// afterwards); call first thing in main().
void block_stop_signals();
// Waits for SIGTERM or SIGINT (blocked beforehand); returns its number.
int wait_for_stop_signal();

struct run_hooks {
  // Waits until the operator should stop; returns the signal's number (default: wait_for_stop_signal).
  std::function<int()> wait_for_stop;
};

int run_operator(const std::string& program, const std::vector<std::string>& args,
                 const config::env_lookup& env = config::process_env(), run_hooks hooks = {});

}  // namespace c5c3::operator_
