#include "actors/runtime/shard/membership.hpp"

#include "actors/runtime/shard/lease_state.hpp"
#include "protocol/api_error.hpp"
#include "protocol/cluster_io.hpp"
#include "protocol/order.hpp"
#include "protocol/shard.hpp"
#include "protocol/subscription.hpp"

#include <caf/actor_system.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/stateful_actor.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

namespace c5c3::runtime::shard {

namespace {

using renew_atom = caf::atom_constant<caf::atom("renew")>;
using recheck_atom = caf::atom_constant<caf::atom("recheck")>;
const k8s::gvk lease_gvk{"coordination.k8s.io", "v1", "Lease"};

struct membership_state {
  static inline const char* name = "c5c3.shard_membership";
  caf::stateful_actor<membership_state>* self = nullptr;
  membership_config cfg;
  std::map<std::string, lease_info> leases;  // by Lease name
  std::optional<k8s::time_point> held_until;  // own Lease: last renewal + 2/3 duration
  bool synced = false;
  bool stopping = false;
  std::vector<caf::actor> listeners;
  protocol::shard_view view;
  std::optional<k8s::time_point> recheck_at;

  k8s::time_point now() const { return cfg.now ? cfg.now() : k8s::clock::now(); }

  void publish() {
    auto t = now();
    std::vector<lease_info> ls;
    for (const auto& [n, l] : leases)
      if (l.holder != cfg.name) ls.push_back(l);
    bool self_ready = !stopping && synced && held_until && t < *held_until;
    auto v = members_of(ls, t);
    auto members = v.ready;
    if (self_ready) {
      members.push_back(cfg.name);
      std::sort(members.begin(), members.end());
      members.erase(std::unique(members.begin(), members.end()), members.end());
    }
    protocol::shard_view next{members, self_ready, view.generation, v.fading};
    bool ring_changed = !(next.members == view.members && next.self_ready == view.self_ready);
    if (ring_changed || next.fading != view.fading) {
      next.generation = view.generation + 1;
      if (next.fading != view.fading)
        cfg.log.info("Ring members fading", {{"ring", cfg.ring},
                                             {"fading", static_cast<std::uint64_t>(next.fading.size())}});
      view = next;
      if (ring_changed)
        cfg.log.info("Ring members changed", {{"ring", cfg.ring},
                                              {"members", static_cast<std::uint64_t>(view.members.size())},
                                              {"selfReady", view.self_ready}});
      for (const auto& l : listeners) self->send(l, view);
    }
    // Look again when the next Lease (or my hold) fades or runs out.
    auto next_at = v.next_expiry;
    if (held_until && t < *held_until && (!next_at || *held_until < *next_at)) next_at = held_until;
    if (next_at && (!recheck_at || *next_at < *recheck_at || *recheck_at <= t)) {
      recheck_at = next_at;
      auto d = std::chrono::duration_cast<std::chrono::milliseconds>(*next_at - t) + std::chrono::milliseconds(5);
      self->delayed_send(self, std::max(d, std::chrono::milliseconds(5)), recheck_atom::value);
    }
  }

  void renew() {
    if (stopping) return;
    auto t = now();
    protocol::apply_request req;
    req.obj = make_lease(cfg.namespace_, lease_name(cfg), cfg.name, cfg.ring, cfg.duration, t);
    req.options.field_manager = cfg.field_manager;
    req.force = true;
    // Answered later than the hold it would give, a renewal is of no use (and
    // the client sends no attempt of it after that).
    const auto hold = std::chrono::duration_cast<std::chrono::milliseconds>(cfg.duration * 2 / 3);
    req.options.deadline = protocol::deadline_at(std::chrono::steady_clock::now() + hold);
    self->request(cfg.cluster, hold, std::move(req))
        .then(
            [this, t](const k8s::object&) {
              held_until = t + cfg.duration * 2 / 3;
              if (cfg.fence && !stopping) cfg.fence->hold_until(*held_until);
              publish();
            },
            [this](const caf::error& e) {
              cfg.log.warn("Lease renewal failed", {{"lease", lease_name(cfg)},
                                                    {"namespace", cfg.namespace_},
                                                    {"error", protocol::describe(e)}});
              publish();
            });
    self->delayed_send(self, cfg.duration / 3, renew_atom::value);
  }
};

caf::behavior membership(caf::stateful_actor<membership_state>* self, membership_config cfg) {
  auto& s = self->state;
  s.self = self;
  s.cfg = std::move(cfg);
  protocol::subscribe_request sub{lease_gvk, s.cfg.namespace_, std::string(ring_label) + "=" + s.cfg.ring, self,
                                  false};
  self->request(s.cfg.cluster, caf::infinite, std::move(sub))
      .then([](const protocol::subscription_id&) {},
            [self](const caf::error& e) {
              self->state.cfg.log.error("unable to watch the ring's Leases", protocol::describe(e),
                                        {{"ring", self->state.cfg.ring}});
            });
  s.renew();
  return {
      [self](const protocol::object_event& ev) {
        auto& st = self->state;
        if (!ev.obj) return;
        std::string n(ev.obj.name());
        if (ev.type == protocol::event_type::deleted) st.leases.erase(n);
        else st.leases[n] = lease_of(ev.obj);
        st.publish();
      },
      [self](const protocol::informer_synced&) {
        self->state.synced = true;
        self->state.publish();
      },
      [self](renew_atom) { self->state.renew(); },
      [self](recheck_atom) {
        self->state.recheck_at.reset();
        self->state.publish();
      },
      [self](protocol::shard_subscribe_atom, const caf::actor& listener) {
        self->state.listeners.push_back(listener);
        if (self->state.view.generation > 0) self->send(listener, self->state.view);
        return protocol::ok_atom::value;
      },
      [self](protocol::probe_atom) { return self->state.view; },
      [self](protocol::stop_atom) {
        auto& st = self->state;
        st.stopping = true;
        if (st.cfg.fence) st.cfg.fence->lapse();
        st.publish();
        auto rp = self->make_response_promise();
        // Released: the holder emptied (a patch, the verb renewals use).
        protocol::apply_request rel;
        rel.obj = make_lease(st.cfg.namespace_, lease_name(st.cfg), "", st.cfg.ring, st.cfg.duration, st.now());
        rel.options.field_manager = st.cfg.field_manager;
        rel.force = true;
        self->request(st.cfg.cluster, std::chrono::seconds(5), std::move(rel))
            .then(
                [self, rp](const k8s::object&) mutable {
                  self->state.cfg.log.info("Lease released", {{"lease", lease_name(self->state.cfg)}});
                  rp.deliver(protocol::ok_atom::value);
                  self->quit();
                },
                [self, rp](const caf::error& e) mutable {
                  self->state.cfg.log.warn("Lease release failed", {{"lease", lease_name(self->state.cfg)},
                                                                    {"error", protocol::describe(e)}});
                  rp.deliver(protocol::ok_atom::value);
                  self->quit();
                });
      },
  };
}

}  // namespace

std::string lease_name(const membership_config& c) { return c.name + "-" + c.ring; }

caf::actor spawn_membership(caf::actor_system& sys, membership_config cfg) {
  return sys.spawn(membership, std::move(cfg));
}

}  // namespace c5c3::runtime::shard
