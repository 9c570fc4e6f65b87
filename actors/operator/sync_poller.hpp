// /readyz without blocking the HTTP thread: a small actor asks the cluster
// directory (protocol::synced_atom) every `period` and caches the answer in
// an atomic the readiness predicate reads. A failed or late answer counts as
// not synced.
#pragma once

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>

#include <atomic>
#include <chrono>
#include <memory>

namespace c5c3::operator_ {

caf::actor spawn_sync_poller(caf::actor_system& sys, caf::actor directory, std::shared_ptr<std::atomic<bool>> synced,
                             caf::timespan period = std::chrono::milliseconds(250));

}  // namespace c5c3::operator_
