// How many worker threads the operator's actor system runs; its policy is
// handoff_sharing.hpp's (use_handoff_sharing).
//
// CAF 0.17 starts max(4, hardware threads) work-stealing workers by default.
// Its idle workers poll their queues and sleep 50 us between polls for a
// while before they back off (work-stealing.moderate-*), and in a container
// the hardware threads are the node's, not the pod's CPU limit. The operator
// is event-driven and spends its time waiting for the API server, so that
// polling and the extra workers cost it CPU for nothing: measured on 1,000
// RabbitMQVhost orders (bench/README.md, issue 19), the operator's CPU per
// order drops from about 19 ms to 9 ms with the sharing policy (workers block
// on one queue's condition variable) and as many workers as usable cores.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace c5c3::operator_ {

// The CPUs a cgroup v2 `cpu.max` file grants ("max 100000": no limit, nullopt;
// "150000 100000": 1.5). nullopt for text it cannot read.
std::optional<double> parse_cpu_max(std::string_view text);

// The cores this process may use: its CPU affinity, capped by its cgroup's
// CPU limit rounded up; at least 1.
std::size_t usable_cores();

// The worker threads for a --worker-threads value (0: usable_cores(), at
// least 2 so that one slow handler never stalls every actor).
std::size_t worker_threads(int requested, std::size_t cores);

}  // namespace c5c3::operator_
