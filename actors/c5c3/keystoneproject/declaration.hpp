// The KeystoneProject kind as the order runner runs it: its reads (the K-ORC
// Projects listed by the order's labels in the ControlPlane's namespace; for
// a deleting order the KeystoneRoleAssignments and
// KeystoneApplicationCredentials of its namespace on its cluster, whose
// events wake the project they name), the adapter to plan_pass, and its
// constants. Pure: no actor, no request.
#pragma once

#include "actors/c5c3/keystoneproject/pass.hpp"
#include "actors/runtime/runner/declaration.hpp"

#include <memory>

namespace c5c3::c5c3::keystoneproject {

k8s::gvk order_gvk();
std::vector<runtime::read_slot> reads();
pass_snapshot snapshot_of(const runtime::sense_snapshot& s);
std::shared_ptr<const runtime::kind_declaration> declaration();

}  // namespace c5c3::c5c3::keystoneproject
