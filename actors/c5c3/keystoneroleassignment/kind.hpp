// The KeystoneRoleAssignment kind plugged into the runtime: its declaration
// on the order runner, an order host whose actors run it, and the watches the
// declaration implies.
#pragma once

#include "actors/runtime/runner/host.hpp"

namespace c5c3::c5c3::keystoneroleassignment {

caf::actor spawn_host(caf::actor_system& sys, runtime::kind_host_options opts);

// One order's pass without a host (tests drive an order actor with it).
runtime::pass_fn make_order_pass(runtime::runner_deps deps);

}  // namespace c5c3::c5c3::keystoneroleassignment
