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
  // Each subscriber's latest scope (protocol::rescope_request): its scoped
  // watches registered later, and clusters engaged later, start with it.
  std::map<caf::actor_addr, std::string> scopes;
  std::size_t subscribing = 0;  // subscribe requests to the management cluster not answered yet
  static inline const char* name = "c5c3.cluster_directory";
};

using self_ptr = caf::stateful_actor<directory_state>*;

// How long a cluster actor may take to complete a rescope's moves (its new
// informers' lists) before the directory answers the rescope with an error.
constexpr auto rescope_answer_within = std::chrono::minutes(2);

void answered(self_ptr self, bool management) {
  if (management) --self->state.subscribing;
}

void subscribe_on(self_ptr self, const caf::actor& cluster, const protocol::subscribe_request& r) {
  // The subscription lives as long as the cluster actor. A refusal (a
  // required kind not served) leaves the subscriber running; synced_atom
  // answers false while a subscribe request to the management cluster is
  // unanswered (a target's do not count: one that never answers must not
  // make the operator unready).
  bool management = cluster == self->state.management;
  if (management) ++self->state.subscribing;
  self->request(cluster, caf::infinite, r)
      .then([self, management](const protocol::subscription_id&) { answered(self, management); },
            [self, management](const caf::error&) { answered(self, management); });
}

protocol::cluster_health no_answer(const std::string& cluster, const caf::error& e) {
  protocol::cluster_health h;
  h.cluster = cluster;
  h.known = true;
  h.error = "its cluster actor did not answer: " + protocol::describe(e);
  return h;
}

// Every cluster's health, the management cluster first.
void answer_health(self_ptr self, caf::response_promise rp) {
  auto& st = self->state;
  std::vector<std::pair<std::string, caf::actor>> all{{"", st.management}};
  for (const auto& [name, handle] : st.targets) all.emplace_back(name, handle);
  auto out = std::make_shared<std::vector<protocol::cluster_health>>(all.size());
  auto left = std::make_shared<std::size_t>(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    auto done = [=](protocol::cluster_health h) mutable {
      (*out)[i] = std::move(h);
      if (--*left == 0) rp.deliver(std::move(*out));
    };
    auto name = all[i].first;
    self->request(all[i].second, std::chrono::seconds(5), protocol::health_atom::value)
        .then([=](protocol::cluster_health h) mutable { done(std::move(h)); },
              [=](const caf::error& e) mutable { done(no_answer(name, e)); });
  }
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
            self->send(w.subscription.subscriber, protocol::cluster_disengaged{name, dm.source});
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
        if (w.subscription.scoped)
          if (auto sc = st.scopes.find(w.subscription.subscriber.address()); sc != st.scopes.end())
            w.subscription.scope = sc->second;
        subscribe_on(self, st.management, w.subscription);
        if (w.scope == protocol::watch_scope::every_cluster)
          for (const auto& [name, handle] : st.targets) subscribe_on(self, handle, w.subscription);
        st.watches.push_back(std::move(w));
        return protocol::ok_atom::value;
      },
      [=](protocol::rescope_request& r) -> caf::result<protocol::ok_atom> {
        auto& st = self->state;
        st.scopes[r.subscriber.address()] = r.scope;
        for (auto& w : st.watches)
          if (w.subscription.scoped && w.subscription.subscriber == r.subscriber) w.subscription.scope = r.scope;
        // Answered once every engaged cluster answered (each once its moves
        // are complete); an error when one failed or did not answer in time.
        struct fan_in {
          caf::typed_response_promise<protocol::ok_atom> rp;
          std::size_t left = 0;
          bool ok = true;
          void answered(bool good) {
            ok = ok && good;
            if (--left != 0) return;
            if (ok)
              rp.deliver(protocol::ok_atom::value);
            else
              rp.deliver(caf::make_error(caf::sec::request_timeout, "a cluster did not complete the rescope"));
          }
        };
        auto f = std::make_shared<fan_in>(fan_in{self->make_response_promise<protocol::ok_atom>(), 1 + st.targets.size()});
        auto pass_on = [self, &r, f](const caf::actor& cluster) {
          self->request(cluster, rescope_answer_within, r)
              .then([f](protocol::ok_atom) { f->answered(true); }, [f](const caf::error&) { f->answered(false); });
        };
        pass_on(st.management);
        for (const auto& [name, handle] : st.targets) pass_on(handle);
        return f->rp;
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
        // Synced when the management cluster is: /readyz follows it alone
        // (health_atom tells how the targets fare).
        auto& st = self->state;
        if (st.subscribing > 0) return caf::result<bool>(false);
        auto rp = self->make_response_promise<bool>();
        self->request(st.management, std::chrono::seconds(5), protocol::synced_atom::value)
            .then([=](bool synced) mutable { rp.deliver(synced); },
                  [=](const caf::error&) mutable { rp.deliver(false); });
        return rp;
      },
      [=](protocol::health_atom) {
        auto rp = self->make_response_promise<std::vector<protocol::cluster_health>>();
        answer_health(self, rp);
        return rp;
      },
      [=](protocol::health_atom, const std::string& cluster) -> caf::result<protocol::cluster_health> {
        auto& st = self->state;
        caf::actor handle = st.management;
        if (!cluster.empty()) {
          auto it = st.targets.find(cluster);
          if (it == st.targets.end())
            return protocol::make_error(protocol::api_errc::not_found,
                                        "target cluster \"" + cluster + "\" is not engaged");
          handle = it->second;
        }
        auto rp = self->make_response_promise<protocol::cluster_health>();
        self->request(handle, std::chrono::seconds(5), protocol::health_atom::value)
            .then([=](protocol::cluster_health h) mutable { rp.deliver(std::move(h)); },
                  [=](const caf::error& e) mutable { rp.deliver(no_answer(cluster, e)); });
        return rp;
      },
  };
}

}  // namespace

caf::actor spawn_cluster_directory(caf::actor_system& sys, caf::actor management) {
  return sys.spawn(directory_actor, std::move(management));
}

}  // namespace c5c3::cluster
