// The KeystoneUser kind as the order runner runs it (actors/runtime/runner):
// what its pass senses (apis.md 1.4b "Watches"), the adapter from the
// runner's snapshot to plan_pass, and its constants. Pure: no actor, no
// request.
//
// Reads, all from the informer caches: past admission (or for a deleting
// order) the children in the ControlPlane's namespace listed by the order's
// labels (K-ORC Users: the managed one and the probe; Secrets; PushSecrets),
// the delivered Secret beside the order on its cluster (read live before a
// write to it: a foreign Secret is refused), the ControlPlane's secret store,
// and for a deleting order the KeystoneRoleAssignments and
// KeystoneApplicationCredentials of its namespace on its cluster (the holds;
// their events wake the user they name).
#pragma once

#include "actors/c5c3/keystoneuser/pass.hpp"
#include "actors/runtime/runner/declaration.hpp"

#include <memory>

namespace c5c3::c5c3::keystoneuser {

k8s::gvk order_gvk();

std::vector<runtime::read_slot> reads();
pass_snapshot snapshot_of(const runtime::sense_snapshot& s, const random_source& random);

// The whole declaration (`random`: the passwords' randomness; empty: OpenSSL's).
std::shared_ptr<const runtime::kind_declaration> declaration(random_source random);

}  // namespace c5c3::c5c3::keystoneuser
