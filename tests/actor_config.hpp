// The actor system configuration of tests that run actors on a real
// scheduler: the protocol's message types registered once per process, and
// the operator's scheduling policy (actors/operator/handoff_sharing.hpp), as
// in the operator. CAF's default work stealing polls its idle workers with
// 50 us sleeps: a tenth of an integration test's CPU under ASan went to that
// (perf, target_rbac_rules_test, 2026-12-07). Four workers, as CAF's default
// gave these tests on 2 cores.
#pragma once

#include "actors/operator/handoff_sharing.hpp"
#include "protocol/registry.hpp"

#include <caf/actor_system_config.hpp>

namespace c5c3::testing {

inline caf::actor_system_config& make_config() {
  static caf::actor_system_config cfg = [] {
    caf::actor_system_config c;
    protocol::register_types(c);
    operator_::use_handoff_sharing(c, 4);
    return c;
  }();
  return cfg;
}

}  // namespace c5c3::testing
