// A replica's share of the watches (pure): the label selector narrowing its
// scoped watches of orders and their children (protocol::rescope_request),
// so that each replica caches about 1/N of the objects.
//
//   view                         | scope
//   none yet                     | c5c3.io/shard in (me)          (only its own)
//   me alone among the ready     | ""                             (everything)
//   me and ready others b, c     | c5c3.io/shard notin (b,c)      (unclaimed, its own, and those of
//                                |                                 members that are not ready: what
//                                |                                 the claim table may act on)
//
// Children carry `c5c3.io/shard: <holder>` (stamped by the runner on every
// write of a child, restamped by a new holder's first pass), so the same scope
// narrows their watches.
#pragma once

#include "protocol/shard.hpp"

#include <string>

namespace c5c3::runtime::shard {

// The scope of `me` under `view` (nullptr: before the first view).
std::string watch_scope(const std::string& me, const protocol::shard_view* view);

}  // namespace c5c3::runtime::shard
