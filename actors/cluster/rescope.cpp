// Scoped subscriptions moving to a new scope (protocol::rescope_request): the
// new scope's informer is started (or shared), and once it has its list each
// moving subscription switches to it, its subscriber told only the difference
// (scope_difference). Until then it stays on the old informer, synced, so
// /readyz does not flap; a rescope arriving meanwhile replaces the move. The
// request is answered once none of the subscriber's subscriptions is moving:
// from then on its cache reads see the new scope.
#include "actors/cluster/rescope.hpp"

#include "actors/cluster/cluster_state.hpp"

#include <algorithm>

namespace c5c3::cluster {

std::string scoped_selector(const std::string& base, const std::string& scope) {
  if (scope.empty()) return base;
  if (base.empty()) return scope;
  return base + "," + scope;
}

std::vector<scope_change> scope_difference(const informer_cache& seen, const informer_cache& now) {
  std::vector<scope_change> out;
  informer_cache::compare(seen, now, [&](const k8s::object& was, const k8s::object& is) {
    if (!is)
      out.push_back({protocol::event_type::deleted, was, {}});
    else if (!was)
      out.push_back({protocol::event_type::added, is, {}});
    else
      out.push_back({protocol::event_type::modified, is, was});
  });
  return out;
}

namespace detail {

namespace {

// Switches `sid` from its informer to `to` (which has its list).
void move_now(self_ptr self, std::uint64_t sid, std::uint64_t to) {
  auto& st = self->state;
  auto& sub = st.subs.at(sid);
  auto& target = st.informers.at(to);
  target.pending.erase(sid);
  sub.moving_to = 0;
  auto from = sub.informer;
  if (from == to) return;
  static const informer_cache none;
  auto old = st.informers.find(from);
  const auto& seen = old == st.informers.end() ? none : old->second.cache;
  for (auto& c : scope_difference(seen, target.cache)) {
    protocol::object_event ev{protocol::subscription_id{sid}, st.name, c.type, std::move(c.obj), std::move(c.old)};
    ev.out_of_scope = c.type == protocol::event_type::deleted;
    self->send(sub.req.subscriber, std::move(ev));
  }
  if (old != st.informers.end()) {
    old->second.subs.erase(sid);
    stop_if_unused(self, from);
  }
  target.subs.insert(sid);
  sub.informer = to;
  if (!sub.synced_sent) {
    sub.synced_sent = true;
    self->send(sub.req.subscriber, protocol::informer_synced{protocol::subscription_id{sid}, st.name, sub.req.gvk});
  }
}

}  // namespace

void cancel_move(self_ptr self, std::uint64_t sid) {
  auto& st = self->state;
  auto& sub = st.subs.at(sid);
  if (sub.moving_to == 0) return;
  auto to = sub.moving_to;
  sub.moving_to = 0;
  if (auto it = st.informers.find(to); it != st.informers.end()) {
    it->second.pending.erase(sid);
    stop_if_unused(self, to);
  }
}

void rescope(self_ptr self, const caf::actor& subscriber, const std::string& scope) {
  auto& st = self->state;
  for (auto& [sid, sub] : st.subs) {
    if (!sub.req.scoped || sub.req.subscriber != subscriber) continue;
    sub.req.scope = scope;
    // Not attached (resolving, or an optional kind not served): it attaches
    // with this scope.
    if (sub.informer == 0) continue;
    auto key = key_of(sub);
    if (sub.moving_to != 0 && st.informers.at(sub.moving_to).key == key) continue;
    cancel_move(self, sid);
    if (st.informers.at(sub.informer).key == key) continue;  // back where it is
    auto to = start_informer(self, key);
    if (st.informers.at(to).synced) {
      move_now(self, sid, to);
    } else {
      st.informers.at(to).pending.insert(sid);
      sub.moving_to = to;
    }
  }
}

void complete_moves(self_ptr self, std::uint64_t iid) {
  auto& st = self->state;
  auto it = st.informers.find(iid);
  if (it == st.informers.end()) return;
  auto to_move = it->second.pending;
  for (auto sid : to_move) move_now(self, sid, iid);
  answer_rescopes(self);
}

bool moving(const cluster_state& st, const caf::actor_addr& subscriber) {
  return std::any_of(st.subs.begin(), st.subs.end(), [&](const auto& s) {
    return s.second.moving_to != 0 && s.second.req.subscriber.address() == subscriber;
  });
}

void answer_rescopes(self_ptr self) {
  auto& waiters = self->state.rescope_waiters;
  for (auto it = waiters.begin(); it != waiters.end();) {
    if (moving(self->state, it->first)) {
      ++it;
      continue;
    }
    it->second.deliver(protocol::ok_atom::value);
    it = waiters.erase(it);
  }
}

}  // namespace detail
}  // namespace c5c3::cluster
