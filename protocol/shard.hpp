// Conversation: the ring's membership (actors/runtime/shard/membership.hpp).
//
//   order host -> membership : (shard_subscribe_atom, host) -> ok_atom; the host
//                              then hears every shard_view, the current one first
//   membership -> listeners  : shard_view (the ready members, on every change;
//                              `self_ready` false while this replica's own Lease
//                              is not known to be held: it must run nothing;
//                              `fading`, the members that have stopped renewing)
//   main       -> membership : stop_atom -> ok_atom (the Lease released: deleted)
//   tests      -> membership : probe_atom -> shard_view (the current view)
#pragma once

#include <caf/atom.hpp>
#include <caf/meta/type_name.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace c5c3::protocol {

using shard_subscribe_atom = caf::atom_constant<caf::atom("shard_sub")>;

struct shard_view {
  std::vector<std::string> members;  // sorted: the ready Leases' holders
  bool self_ready = false;
  std::uint64_t generation = 0;  // bumped on every change of members
  // Ready members other than this replica whose Lease has not been renewed
  // for two thirds of its duration: each has stopped writing by its own
  // rule (membership.hpp) and leaves the ring when its Lease runs out,
  // unless it renews first. Still on the ring; a replica's scoped watches
  // show their stamps already (shard/scope.hpp), so that a takeover finds
  // their orders cached rather than listed at the moment they move.
  std::vector<std::string> fading;  // sorted
  friend bool operator==(const shard_view&, const shard_view&) = default;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, shard_view& x) {
  return f(caf::meta::type_name("c5c3::protocol::shard_view"), x.members, x.self_ready, x.generation,
           x.fading);
}

}  // namespace c5c3::protocol
