#include "actors/operator/run.hpp"

#include <pthread.h>
#include <signal.h>

namespace c5c3::operator_ {

namespace {
sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}
}  // namespace

void block_stop_signals() {
  sigset_t set = stop_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

int wait_for_stop_signal() {
  sigset_t set = stop_signals();
  int sig = 0;
  while (sigwait(&set, &sig) != 0) {
  }
  return sig;
}

}  // namespace c5c3::operator_
