// The I/O of a claim or release: the order's cluster actor from the cluster
// directory, then a merge patch of the order (claim.hpp's patches carry its
// resourceVersion as precondition). `done(answer)` runs in the actor's
// context: the order as written, or an empty object when the write failed.
#pragma once

#include "actors/runtime/shard/gate.hpp"

#include <caf/fwd.hpp>

#include <functional>
#include <string>

namespace c5c3::runtime::shard {

void write_claim(caf::event_based_actor* self, const shard_options& opts, const k8s::gvk& kind,
                 const protocol::order_key& key, std::string patch, std::function<void(const k8s::object&)> done);

}  // namespace c5c3::runtime::shard
