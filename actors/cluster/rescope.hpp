// Scoped subscriptions (protocol::rescope_request), the pure part: the
// selector a scoped informer watches, and what a subscriber is told when its
// subscription moves from one scope's informer to another's: exactly the
// difference between what it has seen and what the new informer holds.
#pragma once

#include "actors/cluster/informer_cache.hpp"
#include "protocol/subscription.hpp"

#include <map>
#include <string>
#include <vector>

namespace c5c3::cluster {

// `base` narrowed by `scope` (either may be ""): "app=x,c5c3.io/shard notin (b)".
std::string scoped_selector(const std::string& base, const std::string& scope);

struct scope_change {
  protocol::event_type type = protocol::event_type::added;
  k8s::object obj;  // deleted: the last state the subscriber saw
  k8s::object old;  // modified: the version the subscriber saw
};

// From `seen` (what the subscriber holds: the old informer's cache) to `now`
// (the new informer's): added for what entered, modified for what changed
// (another resourceVersion), deleted for what left; in key order.
std::vector<scope_change> scope_difference(const informer_cache& seen, const informer_cache& now);

}  // namespace c5c3::cluster
