// What a replica does about one order (pure): the claim/handoff decision.
//
// Inputs: my name, the ready members (their ring), the order's claim label
// value ("" unclaimed) and whether my actor for the order is running.
//
//   ring owner | claim            | my actor | decision
//   me         | me               | any      | keep       (run the order)
//   me         | ""               | none     | claim      (write the label, resourceVersion as precondition)
//   me         | a member !ready  | none     | claim      (take over a dead member's order)
//   me         | a ready member   | none     | ignore     (wait: its holder drains and releases first)
//   other      | me               | running  | drain      (stop my actor: pass in flight done, timers gone)
//   other      | me               | none     | release    (remove the label, resourceVersion as precondition)
//   other      | not me           | none     | ignore
//   any        | not me           | running  | drain      (someone else holds it: never write for it)
//   (empty ring: ignore, or drain my actor)
//
// The API server's optimistic concurrency decides between two replicas that
// claim the same order at once (their views of the ring differ for a moment):
// one write wins, the other sees a claim by a ready member and waits.
#pragma once

#include "actors/runtime/shard/ring.hpp"
#include "k8s/object.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace c5c3::runtime::shard {

enum class decision { keep, claim, drain, release, ignore };
const char* to_string(decision d);

struct claim_input {
  const std::string& me;
  const ring& members;              // the ring of ready members
  const std::string& key;           // order_ring_key of the order
  const std::string& claim;         // the order's claim label value
  bool actor_running = false;
};

decision decide(const claim_input& in);

// The merge patches of a claim and a release: the label, with the order's
// resourceVersion as the precondition. A claim also writes the claims count
// (lease_state.hpp's claims_annotation) `claims`, claims_after(order), and the
// holder it takes the order over from, `previous` (previous_annotation; ""
// removes it: the order was unclaimed); a release leaves both.
std::string claim_patch(const std::string& me, const std::string& resource_version, int claims,
                        const std::string& previous = {});
std::string release_patch(const std::string& resource_version);

// The claims count a claim of `order` writes: the recorded count plus one (0
// recorded when there is none; an unreadable count, or none on an order a
// replica holds, is taken as 1, so the claim never looks like the first).
int claims_after(const k8s::object& order);

// Whether `me` is the only replica that ever held `order`: it holds it (the
// claim label) and one claim was ever written. Then every child stamped for
// the order is stamped by `me`, and a new actor of it needs no restamp
// (runner/restamp.cpp): its first pass reads the cache like every other.
bool only_holder(const k8s::object& order, const std::string& me);

// The holder `me` took `order` over from when `me` is its second holder ever
// (claims count 2, the claim label `me`, the previous holder recorded), else
// "". Then every child of the order is stamped by that holder or by `me`: a
// new actor of it restamps from the cache when the caches show that holder's
// stamps (scope_cover.hpp), with no read of the API server.
std::string taken_over_from(const k8s::object& order, const std::string& me);

// How long after the n-th failed claim or release in a row (n >= 1) the order
// is decided again: 250 ms, doubling, at most 30 s (a refusal that lasts, a
// 403, costs one request per order every 30 s, not four a second).
std::chrono::milliseconds claim_retry_delay(int failures);

}  // namespace c5c3::runtime::shard
