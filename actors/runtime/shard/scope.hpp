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
//   ... and c fading             | c5c3.io/shard notin (b)        (c stopped renewing: its orders are
//                                |                                 cached before its Lease runs out,
//                                |                                 so a takeover lists nothing then)
//
// Children carry `c5c3.io/shard: <holder>` (stamped by the runner on every
// write of a child, restamped by a new holder's first pass), so the same scope
// narrows their watches, and says whose stamps a replica's caches show
// (scope::shows; scope_cover.hpp).
#pragma once

#include "protocol/shard.hpp"

#include <string>
#include <vector>

namespace c5c3::runtime::shard {

struct scope {
  enum class form { own, all, all_but };
  form shape = form::own;
  std::string me;
  std::vector<std::string> others;  // all_but: the ready others, sorted

  // The label selector ("" for all).
  std::string selector() const;
  // Whether an object stamped by `holder` ("": not stamped) is in it.
  bool shows(const std::string& holder) const;
  friend bool operator==(const scope&, const scope&) = default;
};

// The scope of `me` under `view` (nullptr: before the first view).
scope scope_of(const std::string& me, const protocol::shard_view* view);

// Its selector: scope_of(me, view).selector().
std::string watch_scope(const std::string& me, const protocol::shard_view* view);

}  // namespace c5c3::runtime::shard
