// The credential generations of an order (keystone-orders-reconcilers.txt
// "Application credential provisioning" 2-4, 7): each generation N is one
// K-ORC ApplicationCredential credential-v<N> with the Secret secret-v<N> it
// reads the credential's secret from (key value). credentialChildren,
// desiredGeneration, pruneStrayGenerations and nextRotation, pure.
#pragma once

#include "actors/c5c3/keystoneapplicationcredential/spec.hpp"
#include "actors/c5c3/scaffold/child_write.hpp"
#include "k8s/object.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace c5c3::c5c3::keystoneapplicationcredential {

// credentialChildren: the order's ApplicationCredentials and Secrets, as
// listed by its labels, keyed by generation; a labelled object outside the
// order's prefix, or without a generation, is not one.
struct credential_generations {
  std::map<std::int64_t, k8s::object> credentials;
  std::map<std::int64_t, k8s::object> secrets;
};
credential_generations credential_children(const credential_order& order, const std::vector<k8s::object>& credentials,
                                           const std::vector<k8s::object>& secrets);

// nextRotation: the earlier of lastRotation plus the interval and
// credentialExpiresAt minus the grace period; none with the schedule off or
// before the first credential.
std::optional<k8s::time_point> next_rotation(const rotation_schedule& rotation, const credential_status& status);

// The expiry of a credential-v<N>: the one K-ORC reports Keystone holds
// (status.resource.expiresAt), else the one it was created with
// (spec.resource.expiresAt); none when neither reads as RFC 3339.
std::optional<k8s::time_point> credential_expiry(const k8s::object& credential);

// desiredGeneration: the declared generation before the first credential;
// the highest one in flight (one K-ORC failed terminally only until a higher
// generation is declared); the next one (or the declared one, when higher)
// when the declared generation is above the live one, the schedule is due,
// the credential expired or its secret is lost; no rotation while
// previousCredentialDeleteAt is set. A generation in flight whose expiry has
// passed is given up: Keystone refuses an expiry in the past and K-ORC keeps
// the resource immutable, so the next generation above it (with a fresh
// expiry) is worked toward instead.
std::int64_t desired_generation(const credential_order& order, const credential_generations& children,
                                k8s::time_point now);

// pruneStrayGenerations: the deletes of every generation other than the live
// one, the superseded one during its grace period and `desired` (one already
// terminating is left alone).
std::vector<child_write> prune_stray_generations(const credential_order& order,
                                                 const credential_generations& children, std::int64_t desired);

}  // namespace c5c3::c5c3::keystoneapplicationcredential
