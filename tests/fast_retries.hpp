// The client settings of tests against the in-process emulator: retries
// after 5 ms, backing off to 50 ms, and a 10 s request timeout, so a fault a
// test injects is retried within its wait.
#pragma once

#include "k8s/client/client.hpp"

#include <chrono>

namespace c5c3::testing {

inline void fast_retries(k8s::client_config& c) {
  c.retry.initial_backoff = std::chrono::milliseconds(5);
  c.retry.max_backoff = std::chrono::milliseconds(50);
  c.request_timeout = std::chrono::seconds(10);
}

}  // namespace c5c3::testing
