// c5c3-operator: see actors/operator/run.hpp.
#include "actors/operator/run.hpp"

#ifdef C5C3_JEMALLOC
// jemalloc's options, read at its start: a background thread gives pages
// freed for a second back to the system (its decay), as the heap trim does
// for glibc's malloc (actors/operator/memory_trim.hpp).
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:1000";
}
#endif

int main(int argc, char** argv) {
  // Before any thread exists, so every thread inherits the mask and the
  // signals are only ever taken by sigwait in main's thread.
  c5c3::operator_::block_stop_signals();
  std::vector<std::string> args(argv + 1, argv + argc);
  return c5c3::operator_::run_operator(argc > 0 ? argv[0] : "c5c3-operator", args);
}
