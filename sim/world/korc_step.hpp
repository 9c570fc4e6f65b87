// K-ORC, simulated (apis.md 3; k-orc/openstack-resource-controller's generic
// reconciler): one pure step per object over korc_kinds.hpp.
//
//   plan = reconcile_korc(snapshot)       the finalizers to write first, who K-ORC
//                                         authenticates as, and either a read
//   (answer plan.read in snapshot.observed and step again)  or the calls
//   settled = settle_korc(snapshot, plan, outcome-of-the-calls)
//
// What it keeps from K-ORC:
//  - ShouldReconcile: an object whose Progressing is False at its generation is
//    left alone (until spec.resyncPeriod elapses); removing that condition hands
//    it back (the orders' transport-error unlatch, apis.md 3.2);
//  - its finalizer openstack.k-orc.cloud/<controller>, and the same string as a
//    deletion guard on the cloudCredentialsRef Secret and, once ready, on every
//    referenced object (korc_guard.hpp releases them);
//  - status.id (by id), import by id (missing: terminal UnrecoverableError) or
//    filter (none: "Waiting for OpenStack resource to be created externally",
//    polled; several: terminal InvalidConfiguration), adoption by name of a
//    managed object without status.id, creation, updates of the mutable
//    fields, the User's password applied when passwordRef names another Secret
//    (status.resource.appliedPasswordRef), onDelete delete or detach;
//  - the errors: authentication and reads fail transiently (list failures are
//    swallowed into an empty list, as K-ORC's clients do); a create or an update
//    that fails without an HTTP error answer, or with 409 or 501, is terminal
//    InvalidConfiguration ("invalid configuration creating resource: ..."), which
//    is how a Keystone outage latches;
//  - the conditions Available and Progressing with observedGeneration, their
//    reasons and messages (korc_status.hpp).
#pragma once

#include "sim/world/keystone_session.hpp"
#include "sim/world/korc_kinds.hpp"
#include "sim/world/korc_status.hpp"
#include "sim/world/world_object.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::sim::world {

struct korc_timing {
  std::chrono::nanoseconds external_poll = std::chrono::seconds(15);  // an import waiting for its resource
  std::chrono::nanoseconds delete_poll = std::chrono::seconds(1);     // a delete being confirmed
};

struct korc_snapshot {
  k8s::object subject;
  // What all_refs(subject) names, by "Kind/name" (Secrets as "Secret/name");
  // an empty object where it does not exist.
  std::map<std::string, k8s::object> refs;
  std::optional<identity_answer> observed;  // the answer to the plan's read
  k8s::time_point now;
  korc_timing timing;
};

// "Kind/name", the key of korc_snapshot::refs.
std::string korc_ref_key(std::string_view kind, std::string_view name);

struct korc_plan {
  enum class intent { none, create, update, remove };
  std::vector<object_write> before;   // finalizers (its own; guards on what it references)
  std::optional<cloud_config> cloud;  // K-ORC authenticates as this before the read or the calls
  std::optional<identity_call> read;  // to answer in snapshot.observed before stepping again
  std::vector<identity_call> calls;   // in order, stopping at the first error

  // For settle_korc.
  intent what = intent::none;
  korc_progress progress;                   // the outcome so far
  k8s::object record;                       // the Keystone resource as found
  korc_resolved resolved;                   // the references' ids
  std::optional<std::string> set_id;        // status.id to write
  bool clear_id = false;                    // status.id to drop (deleted externally)
  std::optional<std::string> applied_password;  // status.resource.appliedPasswordRef to write
  std::optional<std::string> password_call;     // the password Secret a call applies
  bool release = false;                     // drop the finalizer: the object is done
  bool skip = false;                        // nothing to do (up to date, or not K-ORC's)
};

struct korc_outcome {
  std::optional<identity_error> auth_error;  // authentication failed; nothing was called
  std::vector<identity_answer> answers;      // one per call run; the last may be an error
};

struct korc_settled {
  std::vector<object_write> writes;
  std::optional<std::chrono::nanoseconds> requeue_after;
  bool transient = false;  // a retryable error: come back with backoff
};

korc_plan reconcile_korc(const korc_snapshot& s);
korc_settled settle_korc(const korc_snapshot& s, const korc_plan& plan, const korc_outcome& outcome);

// K-ORC's ShouldReconcile; `remaining` gets the time to the next resync when it answers false.
bool korc_should_reconcile(const k8s::object& o, k8s::time_point now, std::optional<std::chrono::nanoseconds>* remaining);

}  // namespace c5c3::sim::world
