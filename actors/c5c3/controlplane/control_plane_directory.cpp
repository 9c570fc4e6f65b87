// The ControlPlane directory (control_plane_actor.hpp): one ControlPlane
// subscription for every actor, the actors spawned on first use and retired
// once no order refers to them.
#include "actors/c5c3/controlplane/control_plane_actor.hpp"

#include "protocol/subscription.hpp"

#include <caf/actor_cast.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/stateful_actor.hpp>

#include <algorithm>
#include <map>
#include <vector>

namespace c5c3::c5c3::controlplane {

namespace {

struct directory_state {
  static inline const char* name = "c5c3.control_plane_directory";
  caf::actor cluster;
  caf::timespan read_timeout{};
  std::map<protocol::control_plane_ref, caf::actor> actors;
  std::vector<caf::actor> hosts;
  // What the one subscription (every namespace) saw: the ControlPlanes, whether
  // the initial list is in, and a refusal.
  std::map<protocol::control_plane_ref, k8s::object> seen;
  bool synced = false;
  bool subscribed = false;
  caf::error failure;
  // The orders that asked for admission, per owner (monitored): the order's
  // host the request names, else its sender. A host's orders stay until it
  // forgets them or goes, so a parked order (no actor) keeps its fan-out.
  // The ControlPlane each named last.
  std::map<caf::actor_addr, std::map<protocol::order_key, protocol::control_plane_ref>> orders;
  std::map<protocol::control_plane_ref, std::size_t> refs;  // orders per ControlPlane
  std::size_t retired = 0;
};

using directory_actor = caf::stateful_actor<directory_state>;

protocol::control_plane_ref ref_of(const k8s::object& cp) {
  return {std::string(cp.namespace_()), std::string(cp.name())};
}

caf::actor find_or_spawn(directory_actor* self, const protocol::control_plane_ref& ref) {
  auto& st = self->state;
  auto i = st.actors.find(ref);
  if (i != st.actors.end()) return i->second;
  control_plane_config cfg{ref, st.cluster, st.read_timeout, false};
  auto a = spawn_control_plane(self->system(), std::move(cfg));
  self->link_to(a);
  // What the subscription saw so far, before any request reaches it.
  if (auto s = st.seen.find(ref); s != st.seen.end())
    self->send(a, protocol::object_event{{}, "", protocol::event_type::added, s->second, {}});
  if (st.synced) self->send(a, protocol::informer_synced{{}, "", control_plane_gvk()});
  if (st.failure) self->send(a, cp_failed_atom::value, st.failure);
  for (auto& h : st.hosts) self->send(a, cp_host_atom::value, h);
  st.actors.emplace(ref, a);
  return a;
}

// One order less for `ref`: its actor forgets the order, and retires when
// no order refers to the ControlPlane any more.
void release(directory_actor* self, const protocol::order_key& order, const protocol::control_plane_ref& ref) {
  auto& st = self->state;
  auto a = st.actors.find(ref);
  if (a != st.actors.end()) self->send(a->second, cp_forget_atom::value, order);
  auto r = st.refs.find(ref);
  if (r == st.refs.end() || --r->second > 0) return;
  st.refs.erase(r);
  if (a == st.actors.end()) return;
  self->unlink_from(a->second);
  self->send(a->second, protocol::retire_atom::value);  // after the requests already handed on
  st.actors.erase(a);
  ++st.retired;
}

// The order of an admission request now refers to `ref`, kept for its host
// (or, without one, its sender).
void track(directory_actor* self, const protocol::admission_request& req) {
  auto& st = self->state;
  auto owner = req.host ? caf::actor_cast<caf::strong_actor_ptr>(req.host) : self->current_sender();
  if (!owner) return;  // gone already: nothing would release it
  auto addr = caf::actor_cast<caf::actor_addr>(owner);
  auto [by_order, first] = st.orders.try_emplace(addr);
  if (first) self->monitor(owner);
  auto [slot, added] = by_order->second.try_emplace(req.order, req.control_plane);
  if (!added) {
    if (slot->second == req.control_plane) return;
    auto before = slot->second;
    slot->second = req.control_plane;
    ++st.refs[req.control_plane];
    release(self, req.order, before);  // it moved to another ControlPlane
    return;
  }
  ++st.refs[req.control_plane];
}

// A host forgets an order (deleted, drained, stopped).
void forget(directory_actor* self, const protocol::order_key& order) {
  auto& st = self->state;
  auto i = st.orders.find(caf::actor_cast<caf::actor_addr>(self->current_sender()));
  if (i == st.orders.end()) return;
  auto o = i->second.find(order);
  if (o == i->second.end()) return;
  auto ref = o->second;
  i->second.erase(o);
  if (i->second.empty()) {
    self->demonitor(i->first);
    st.orders.erase(i);
  }
  release(self, order, ref);
}

void on_down(directory_actor* self, const caf::down_msg& dm) {
  auto& st = self->state;
  auto i = st.orders.find(dm.source);
  if (i == st.orders.end()) return;
  auto gone = std::move(i->second);
  st.orders.erase(i);
  for (const auto& [order, ref] : gone) release(self, order, ref);
}

void on_event(directory_actor* self, const protocol::object_event& ev) {
  auto& st = self->state;
  if (!ev.obj || ev.obj.kind() != control_plane_gvk().kind) return;
  auto ref = ref_of(ev.obj);
  if (ev.type == protocol::event_type::deleted)
    st.seen.erase(ref);
  else
    st.seen[ref] = ev.obj;
  if (auto a = st.actors.find(ref); a != st.actors.end()) self->send(a->second, ev);
}

caf::behavior directory(directory_actor* self, caf::actor cluster, caf::timespan read_timeout) {
  auto& st = self->state;
  st.cluster = std::move(cluster);
  st.read_timeout = read_timeout;
  self->set_down_handler([self](caf::down_msg& dm) { on_down(self, dm); });
  self->request(st.cluster, caf::infinite,
                protocol::subscribe_request{control_plane_gvk(), "", "", caf::actor_cast<caf::actor>(self), false})
      .then([self](const protocol::subscription_id&) { self->state.subscribed = true; },
            [self](const caf::error& e) {
              self->state.failure = e;
              for (auto& [ref, a] : self->state.actors) self->send(a, cp_failed_atom::value, e);
            });
  return {
      [self](cp_lookup_atom, const protocol::control_plane_ref& ref) { return find_or_spawn(self, ref); },
      [](protocol::ok_atom) {},  // a ControlPlane actor acknowledging a host
      [self](const protocol::admission_request& req) {
        track(self, req);
        self->delegate(find_or_spawn(self, req.control_plane), req);
      },
      [self](cp_forget_atom, const protocol::order_key& order) { forget(self, order); },
      [self](const protocol::endpoints_request& req) {
        self->delegate(find_or_spawn(self, req.control_plane), req);
      },
      [self](cp_host_atom, const caf::actor& host) {
        auto& hosts = self->state.hosts;
        if (std::find(hosts.begin(), hosts.end(), host) != hosts.end()) return protocol::ok_atom::value;
        hosts.push_back(host);
        for (auto& [ref, a] : self->state.actors) self->send(a, cp_host_atom::value, host);
        return protocol::ok_atom::value;
      },
      [self](const protocol::object_event& ev) { on_event(self, ev); },
      [self](const protocol::informer_synced& s) {
        if (s.gvk != control_plane_gvk() || !s.cluster.empty()) return;
        self->state.synced = true;
        for (auto& [ref, a] : self->state.actors) self->send(a, s);
      },
      [self](protocol::probe_atom) {
        auto& s = self->state;
        control_plane_directory_probe p;
        for (const auto& [ref, a] : s.actors) p.actors.push_back(ref);
        for (const auto& [addr, orders] : s.orders) p.orders += orders.size();
        p.subscribed = s.subscribed ? 1 : 0;
        p.retired = s.retired;
        return p;
      },
  };
}

}  // namespace

caf::actor spawn_control_plane_directory(caf::actor_system& sys, caf::actor management_cluster,
                                         caf::timespan read_timeout) {
  return sys.spawn(directory, std::move(management_cluster), read_timeout);
}

}  // namespace c5c3::c5c3::controlplane
