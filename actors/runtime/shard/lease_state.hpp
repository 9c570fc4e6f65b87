// The ring's members from its Leases (pure). Every replica holds a
// coordination.k8s.io/v1 Lease of its own, named after it and labelled with
// the ring's name; a member is ready while its holder is set and
// renewTime + leaseDurationSeconds lies ahead of "now", expired after that,
// released when the holder is empty (a replica stopping cleanly). Only ready
// members are on the ring; an order claimed by a member that is not ready
// (expired, released, or with no Lease at all) may be taken over.
#pragma once

#include "k8s/object.hpp"
#include "k8s/time.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::runtime::shard {

// The label on every Lease of a ring, whose value is the ring's name.
inline constexpr const char* ring_label = "c5c3.io/shard-ring";
// The label on an order naming the replica that holds it.
inline constexpr const char* claim_label = "c5c3.io/shard";
// The annotation on an order counting the claims ever written for it (each
// claim patch writes the count before it plus one; a release keeps it): "1"
// with the claim label naming a replica says no other replica ever held the
// order, so nothing of it carries another holder's stamp (claim.hpp).
inline constexpr const char* claims_annotation = "c5c3.io/shard-claims";
// The annotation on an order naming the holder a claim took it over from (a
// claim of an unclaimed order removes it): with a claims count of 2, only that
// holder and the claimant ever stamped its children (claim.hpp).
inline constexpr const char* previous_annotation = "c5c3.io/shard-previous";

enum class member_state { ready, expired, released };
const char* to_string(member_state s);

struct lease_info {
  std::string name;    // metadata.name
  std::string holder;  // spec.holderIdentity
  std::optional<k8s::time_point> renew_time;  // spec.renewTime (else acquireTime)
  std::chrono::seconds duration{0};           // spec.leaseDurationSeconds
};

lease_info lease_of(const k8s::object& lease);
member_state state_of(const lease_info& l, k8s::time_point now);
// When a ready member's Lease runs out (nullopt when it is not ready).
std::optional<k8s::time_point> expiry_of(const lease_info& l);
// When it fades: two thirds of the duration after its renewal, the moment its
// holder stops counting it held itself (membership.hpp).
std::optional<k8s::time_point> fading_at(const lease_info& l);

struct member_view {
  std::vector<std::string> ready;  // holders of ready Leases, sorted
  // Of them, those not renewed for two thirds of the duration (fading_at),
  // sorted: a replica stops writing by then if it could not renew.
  std::vector<std::string> fading;
  // The earliest moment a ready Lease would fade or expire unless renewed:
  // when to look again.
  std::optional<k8s::time_point> next_expiry;
};
member_view members_of(const std::vector<lease_info>& leases, k8s::time_point now);

// The Lease `name` a replica writes: held by `holder` ("" releases it),
// renewed `now` (MicroTime), labelled with the ring.
k8s::object make_lease(const std::string& namespace_, const std::string& name, const std::string& holder,
                       const std::string& ring, std::chrono::seconds duration, k8s::time_point now);
// "2026-12-01T19:00:00.123456Z", metav1.MicroTime.
std::string format_micro_time(k8s::time_point t);

}  // namespace c5c3::runtime::shard
