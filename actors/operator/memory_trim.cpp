#include "actors/operator/memory_trim.hpp"

#include <caf/all.hpp>
#include <malloc.h>
#include <unistd.h>

#include <fstream>

namespace c5c3::operator_ {

namespace {

using tick_atom = caf::atom_constant<caf::atom("trim_tick")>;

constexpr std::size_t min_free_bytes = 8u << 20;

// Resident bytes of this process (/proc/self/statm's second field).
std::size_t rss_bytes() {
  std::ifstream in("/proc/self/statm");
  std::size_t size = 0, resident = 0;
  if (!(in >> size >> resident)) return 0;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

bool should_trim(std::size_t free_bytes, std::size_t arena_bytes) {
  return free_bytes >= min_free_bytes && free_bytes * 4 >= arena_bytes;
}

heap_figures heap_now() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  auto mi = mallinfo2();
  // Arenas: the main one (arena) and the mmapped heaps of the others (hblkhd).
  return {mi.fordblks, mi.arena + mi.hblkhd};
#else
  return {};
#endif
}

std::size_t trim_heap() {
  auto before = rss_bytes();
  malloc_trim(0);
  auto after = rss_bytes();
  return before > after ? before - after : 0;
}

namespace {

// A function with an argument, not a capturing lambda without one: CAF
// 0.17 spawns the latter through an empty tuple it dereferences (UBSan).
caf::behavior trimmer(caf::event_based_actor* self, memory_trim_options opts) {
  runtime::metrics::counter* trims = nullptr;
  runtime::metrics::counter* trimmed = nullptr;
  if (opts.registry) {
    trims = &opts.registry->counter("c5c3_memory_trims_total",
                                    "Times the operator gave its heap's free memory back to the system.", {})
                 .with({});
    trimmed = &opts.registry->counter("c5c3_memory_trimmed_bytes_total",
                                      "Resident bytes the operator gave back to the system by trimming its heap.", {})
                   .with({});
  }
  const caf::timespan period = std::chrono::duration_cast<caf::timespan>(opts.period);
  self->delayed_send(self, period, tick_atom::value);
  return {[=](tick_atom) {
    auto h = heap_now();
    if (should_trim(h.free_bytes, h.arena_bytes)) {
      auto gave = trim_heap();
      if (trims) trims->inc();
      if (trimmed) trimmed->inc(static_cast<double>(gave));
    }
    self->delayed_send(self, period, tick_atom::value);
  }};
}

}  // namespace

caf::actor spawn_memory_trim(caf::actor_system& sys, memory_trim_options opts) {
  if (opts.period <= std::chrono::nanoseconds(0)) return {};
  return sys.spawn(trimmer, opts);
}

}  // namespace c5c3::operator_
