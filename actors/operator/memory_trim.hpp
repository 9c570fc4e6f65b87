// Gives the heap's free memory back to the system. glibc's malloc keeps what
// the program frees for its next allocations, so after a burst (the
// convergence of thousands of orders, whose actors, write answers and memos
// go once they park; a relist) the operator's RSS stays at its peak while its
// live heap is a fraction of it. Every `period` a small actor reads the
// heap's free bytes (mallinfo2) and, when they are worth it (should_trim),
// asks malloc_trim(0) to return the free pages of every arena: what a
// long-running operator holds is then what it uses, as Go's scavenger does
// for a controller-runtime one. Counted in c5c3_memory_trims_total and
// c5c3_memory_trimmed_bytes_total (the RSS it gave back). A release build
// links jemalloc (actors/operator/CMakeLists.txt), whose background thread
// does this itself: glibc's arenas then stay small and the trim idle; it
// serves builds without jemalloc.
#pragma once

#include "actors/runtime/metrics.hpp"

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>

#include <chrono>
#include <cstddef>

namespace c5c3::operator_ {

// Whether a heap with `free_bytes` free of `arena_bytes` in its arenas is
// worth trimming: at least 8 MiB free, and at least a quarter of the arenas.
bool should_trim(std::size_t free_bytes, std::size_t arena_bytes);

// The heap's free and arena bytes now (0, 0 where glibc's mallinfo2 is
// missing).
struct heap_figures {
  std::size_t free_bytes = 0;
  std::size_t arena_bytes = 0;
};
heap_figures heap_now();

// malloc_trim(0); the RSS it gave back, in bytes (0 when it gave none).
std::size_t trim_heap();

struct memory_trim_options {
  std::chrono::nanoseconds period = std::chrono::seconds(30);  // 0: never
  runtime::metrics::registry* registry = nullptr;              // null: no metrics
};

// Null actor when opts.period is 0.
caf::actor spawn_memory_trim(caf::actor_system& sys, memory_trim_options opts);

}  // namespace c5c3::operator_
