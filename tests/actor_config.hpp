// The actor system configuration of tests that run actors on CAF's normal
// scheduler: the protocol's message types registered once per process.
#pragma once

#include "protocol/registry.hpp"

#include <caf/actor_system_config.hpp>

namespace c5c3::testing {

inline caf::actor_system_config& make_config() {
  static caf::actor_system_config cfg = [] {
    caf::actor_system_config c;
    protocol::register_types(c);
    return c;
  }();
  return cfg;
}

}  // namespace c5c3::testing
