// The command-line servers' shutdown: SIGTERM and SIGINT blocked in every
// thread (call before any thread starts) and taken by sigwait in main's;
// SIGPIPE ignored (a peer that went away is an error on the socket instead).
#pragma once

#include <csignal>
#include <pthread.h>

namespace c5c3::k8s {

inline sigset_t block_termination_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
  return set;
}

// Returns the signal that arrived.
inline int wait_for_termination(const sigset_t& set) {
  int sig = 0;
  sigwait(&set, &sig);
  return sig;
}

}  // namespace c5c3::k8s
