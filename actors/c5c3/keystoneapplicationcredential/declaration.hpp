// The KeystoneApplicationCredential kind as the order runner runs it
// (actors/runtime/runner): what its pass senses (keystone-orders-reconcilers.txt
// "Watches"), the adapter from the runner's snapshot to plan_pass, and its
// constants. Pure: no actor, no request.
//
// Reads, all from the informer caches: for a live order the KeystoneUser and
// KeystoneProject it names and the KeystoneRoleAssignments of its namespace
// (on its cluster), the user's password Secret of its status.passwordGeneration
// (the KeystoneUser's Secret informer), and the CA bundle Secret an External
// ControlPlane names (not labelled: from the API server); past admission (or
// for a deleting order) the children in the ControlPlane's namespace listed
// by the order's labels (K-ORC ApplicationCredentials, Secrets, PushSecrets)
// and the delivered Secret beside the order (read live before a write to it).
//
// Watches beside those the reads imply (`references`): a KeystoneUser or
// KeystoneProject wakes every credential order naming it, on a spec change, a
// deletion, a change of Ready or UserReady/ProjectReady, or a move of the
// user's status.passwordGeneration; a KeystoneRoleAssignment wakes every
// credential order of its user and project, on a spec change, a deletion or
// a change of status.roleID.
#pragma once

#include "actors/c5c3/keystoneapplicationcredential/pass.hpp"
#include "actors/runtime/runner/declaration.hpp"

#include <memory>

namespace c5c3::c5c3::keystoneapplicationcredential {

k8s::gvk order_gvk();

std::vector<runtime::read_slot> reads();
std::vector<runtime::reference_field> references();
pass_snapshot snapshot_of(const runtime::sense_snapshot& s, const random_source& random);
// plan_pass's plan as the runner's, with the child an unconverged order waits
// for (explain).
runtime::order_plan order_plan_of(const korc::order_pass_plan& p, const pass_snapshot& s);

// The whole declaration (`random`: the credential secrets' randomness; empty:
// OpenSSL's).
std::shared_ptr<const runtime::kind_declaration> declaration(random_source random);

}  // namespace c5c3::c5c3::keystoneapplicationcredential
