// Conversation: the cluster directory, one per operator process. It knows the
// management cluster actor and every engaged target cluster actor, and keeps
// each kind's watches subscribed on the clusters they cover as targets come
// and go.
//
//   anyone   -> directory : (lookup_cluster_atom, std::string cluster) -> caf::actor
//                           the cluster actor ("" = management); an
//                           api_errc::not_found error while it is not engaged
//   kind     -> directory : watch_request -> ok_atom
//                           subscribes `subscription.subscriber` now, and on
//                           every later engagement for every_cluster watches;
//                           the subscriber also hears cluster_disengaged
//   registry -> directory : cluster_engaged / cluster_disengaged
//   main     -> directory : synced_atom -> bool  (every subscription it made
//                           is answered and has delivered its initial list on
//                           every engaged cluster: /readyz). A cluster actor
//                           answers synced_atom too: false before its first
//                           subscription and while a kind's lookup is retried.
#pragma once

#include "protocol/subscription.hpp"

#include <caf/atom.hpp>
#include <caf/meta/type_name.hpp>

#include <cstdint>
#include <string>

namespace c5c3::protocol {

using lookup_cluster_atom = caf::atom_constant<caf::atom("lookup_cl")>;
using synced_atom = caf::atom_constant<caf::atom("synced")>;

enum class watch_scope : std::uint8_t {
  management,     // the management cluster only
  every_cluster,  // the management cluster and every engaged target cluster
};
std::string to_string(watch_scope x);

struct watch_request {
  subscribe_request subscription;
  watch_scope scope = watch_scope::management;
};
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, watch_request& x) {
  return f(caf::meta::type_name("c5c3::protocol::watch_request"), x.subscription, x.scope);
}

}  // namespace c5c3::protocol
