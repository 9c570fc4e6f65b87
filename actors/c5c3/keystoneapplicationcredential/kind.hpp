// The KeystoneApplicationCredential kind plugged into the runtime: its
// declaration (declaration.hpp) on the order runner, an order host whose
// actors run it, and the watches the declaration implies
// (keystone-orders-reconcilers.txt "Watches").
#pragma once

#include "actors/c5c3/scaffold/crypto.hpp"
#include "actors/runtime/runner/host.hpp"

namespace c5c3::c5c3::keystoneapplicationcredential {

// `random`: the credential secrets' randomness (empty: OpenSSL's).
caf::actor spawn_host(caf::actor_system& sys, runtime::kind_host_options opts, random_source random = {});

// One order's pass without a host (tests drive an order actor with it).
runtime::pass_fn make_order_pass(runtime::runner_deps deps, random_source random = {});

}  // namespace c5c3::c5c3::keystoneapplicationcredential
