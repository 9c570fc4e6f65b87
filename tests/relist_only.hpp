// Changes a watch never tells: the open watches of `resource` hold every
// event back while `changes` runs, then end with 410 Expired, so what
// changed reaches the client only through the relist that follows. The hold
// stays on (the new watch's events wait too) until the test clears it.
#pragma once

#include "sim/apiserver/apiserver.hpp"

#include <functional>
#include <string>

namespace c5c3::testing {

inline void relist_only(sim::apiserver& server, const std::string& resource, const std::function<void()>& changes) {
  sim::fault_rule hold;
  hold.verb = "watch";
  hold.resource = resource;
  hold.hold_watch_events = 1000;
  server.add_fault(hold);
  changes();
  sim::fault_rule expire = hold;
  expire.id.clear();
  expire.hold_watch_events = -1;
  expire.expire_watches = true;
  expire.times = 1;
  server.add_fault(expire);
}

}  // namespace c5c3::testing
