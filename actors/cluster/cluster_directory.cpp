#include "actors/cluster/cluster_directory.hpp"

#include "protocol/api_error.hpp"
#include "protocol/clusters.hpp"
#include "protocol/order.hpp"

#include <caf/all.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace c5c3::cluster {

namespace {

struct directory_state {
  caf::actor management;
  std::map<std::string, caf::actor> targets;  // engaged target clusters by name
  std::vector<protocol::watch_request> watches;
  std::size_t subscribing = 0;  // subscribe requests not answered yet
  static inline const char* name = "c5c3.cluster_directory";
};

using self_ptr = caf::stateful_actor<directory_state>*;

void subscribe_on(self_ptr self, const caf::actor& cluster, const protocol::subscribe_request& r) {
  // The subscription lives as long as the cluster actor. A refusal (a
  // required kind not served) leaves the subscriber running; synced_atom
  // answers false while any subscribe request is unanswered.
  ++self->state.subscribing;
  self->request(cluster, caf::infinite, r)
      .then([self](const protocol::subscription_id&) { --self->state.subscribing; },
            [self](const caf::error&) { --self->state.subscribing; });
}

caf::behavior directory_actor(self_ptr self, caf::actor management) {
  self->state.management = std::move(management);
  self->set_down_handler([self](const caf::down_msg& dm) {
    for (auto it = self->state.targets.begin(); it != self->state.targets.end(); ++it) {
      if (it->second.address() == dm.source) {
        auto name = it->first;
        self->state.targets.erase(it);
        for (const auto& w : self->state.watches)
          if (w.scope == protocol::watch_scope::every_cluster)
            self->send(w.subscription.subscriber, protocol::cluster_disengaged{name});
        return;
      }
    }
  });
  return {
      [=](protocol::lookup_cluster_atom, const std::string& cluster) -> caf::result<caf::actor> {
        if (cluster.empty()) return self->state.management;
        auto it = self->state.targets.find(cluster);
        if (it == self->state.targets.end())
          return protocol::make_error(protocol::api_errc::not_found,
                                      "target cluster \"" + cluster + "\" is not engaged");
        return it->second;
      },
      [=](protocol::watch_request& w) {
        auto& st = self->state;
        subscribe_on(self, st.management, w.subscription);
        if (w.scope == protocol::watch_scope::every_cluster)
          for (const auto& [name, handle] : st.targets) subscribe_on(self, handle, w.subscription);
        st.watches.push_back(std::move(w));
        return protocol::ok_atom::value;
      },
      [=](protocol::cluster_engaged& e) {
        auto& st = self->state;
        if (auto it = st.targets.find(e.cluster); it != st.targets.end()) {
          if (it->second == e.handle) return;
          self->demonitor(it->second);
        }
        st.targets[e.cluster] = e.handle;
        self->monitor(e.handle);
        for (const auto& w : st.watches)
          if (w.scope == protocol::watch_scope::every_cluster) subscribe_on(self, e.handle, w.subscription);
      },
      [=](protocol::cluster_disengaged& d) {
        auto& st = self->state;
        auto it = st.targets.find(d.cluster);
        if (it == st.targets.end()) return;
        self->demonitor(it->second);
        st.targets.erase(it);
        for (const auto& w : st.watches)
          if (w.scope == protocol::watch_scope::every_cluster) self->send(w.subscription.subscriber, d);
      },
      [=](protocol::synced_atom) -> caf::result<bool> {
        // Synced when the management cluster and every engaged target are.
        auto& st = self->state;
        if (st.subscribing > 0) return caf::result<bool>(false);
        std::vector<caf::actor> all{st.management};
        for (const auto& [name, handle] : st.targets) all.push_back(handle);
        auto rp = self->make_response_promise<bool>();
        auto left = std::make_shared<std::size_t>(all.size());
        auto ok = std::make_shared<bool>(true);
        for (const auto& c : all) {
          self->request(c, std::chrono::seconds(5), protocol::synced_atom::value)
              .then(
                  [=](bool synced) mutable {
                    *ok = *ok && synced;
                    if (--*left == 0) rp.deliver(*ok);
                  },
                  [=](const caf::error&) mutable {
                    *ok = false;
                    if (--*left == 0) rp.deliver(false);
                  });
        }
        return rp;
      },
  };
}

}  // namespace

caf::actor spawn_cluster_directory(caf::actor_system& sys, caf::actor management) {
  return sys.spawn(directory_actor, std::move(management));
}

}  // namespace c5c3::cluster
