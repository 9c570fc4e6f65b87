// The I/O of a claim or release: the order's cluster actor from the cluster
// directory, then a merge patch of the order (claim.hpp's patches carry its
// resourceVersion as precondition). `done(answer, refused)` runs in the
// actor's context: the order as written, or an empty object when the write
// failed; `refused` is empty unless it failed for another reason than a
// conflict (a 403, the cluster gone): what the operator should see.
#pragma once

#include "actors/runtime/shard/gate.hpp"

#include <caf/fwd.hpp>

#include <functional>
#include <string>

namespace c5c3::runtime::shard {

using claim_done = std::function<void(const k8s::object& written, const std::string& refused)>;

void write_claim(caf::event_based_actor* self, const shard_options& opts, const k8s::gvk& kind,
                 const protocol::order_key& key, std::string patch, claim_done done);

}  // namespace c5c3::runtime::shard
