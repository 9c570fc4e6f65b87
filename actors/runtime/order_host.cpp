#include "actors/runtime/order_host.hpp"

#include "actors/runtime/mailbox_depth.hpp"
#include "actors/runtime/order_host_state.hpp"
#include "actors/runtime/predicate.hpp"
#include "actors/runtime/shard/scope.hpp"
#include "protocol/control_plane.hpp"
#include "protocol/subscription.hpp"
#include "protocol/timer_relay.hpp"

#include <caf/actor_system.hpp>

#include <algorithm>

namespace c5c3::runtime {

namespace detail {

host_state::~host_state() {
  // The host is going (exit, kill, or after stop): its order actors go with
  // it, or they would keep the actor system from shutting down.
  for (auto& [key, e] : orders)
    if (e.actor) caf::anon_send_exit(e.actor, caf::exit_reason::user_shutdown);
  if (auto* mm = m()) mm->order_actors.set(0);
  if (sm) sm->owned.set(0);
}

void host_state::sample() {
  if (auto* mm = m()) {
    mm->host_mailbox_depth.set(static_cast<double>(mailbox_depth(self)));
    mm->order_actors.set(static_cast<double>(orders.size() - parked_now));
    mm->orders_parked.set(static_cast<double>(parked_now));
  }
  if (sm) sm->owned.set(static_cast<double>(orders.size()));
}

bool host_state::is_order(const k8s::object& o) const {
  return o.kind() == cfg.order_kind.kind && o.gvk().group == cfg.order_kind.group &&
         (!order_selector || order_selector->matches(o));
}

bool host_state::wake_referencing(const k8s::object& obj, const k8s::object& old,
                                  const std::string& cluster, const order_key* self_key) {
  bool routed = false;
  for (const auto& key : named_by.woken_by(obj, old, cluster, self_key)) {
    if (wake(key)) {
      routed = true;
      ++referenced_wakes;
    }
  }
  return routed;
}

caf::actor host_state::start_actor(const order_key& key, pass_fn pass,
                                   std::shared_ptr<const protocol::order_probe> resume) {
  order_actor_config oc;
  oc.key = key;
  oc.pass = std::move(pass);
  oc.limiter = cfg.limiter;
  oc.metrics = cfg.metrics;
  oc.options = cfg.actor_options;
  oc.host = self->address();
  oc.resume = std::move(resume);
  auto a = spawn_order_actor(self->system(), std::move(oc));
  self->monitor(a);
  by_id[a.id()] = key;
  return a;
}

void host_state::spawn(const order_key& key, const k8s::object& obj) {
  auto pass = cfg.make_pass(key);
  auto a = start_actor(key, pass, nullptr);
  auto prior = orders.find(key);
  named_by.update(key, prior == orders.end() ? k8s::object{} : last_of(prior->second), obj);
  entry fresh;
  fresh.actor = a;
  keep_last(fresh, obj);
  fresh.pass = std::move(pass);
  orders[key] = std::move(fresh);
  ++spawned;
  if (auto c = claimed.find(key); c != claimed.end()) {
    if (sm) sm->handoff.observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - c->second).count());
    claimed.erase(c);
  }
  self->send(a, protocol::order_update{obj, true});
}

void host_state::on_order_event(const protocol::object_event& ev) {
  order_key key{ev.cluster, std::string(ev.obj.namespace_()), std::string(ev.obj.name())};
  auto i = orders.find(key);
  if (ev.type == protocol::event_type::deleted) {
    // Gone, or out of this replica's scope (another ready member holds it:
    // its actor here was drained before the release). Either way it is
    // forgotten and its actor, if any, retired; nothing is written.
    gate.forget(key);
    claimed.erase(key);
    if (!ev.out_of_scope && named_by.names_kind(ev.obj)) wake_referencing(ev.obj, {}, key.cluster, &key);
    if (i != orders.end()) retire(i);
    return;
  }
  if (stopping) return;
  if (gate.enabled()) {
    gate.record(key, ev.obj);
    if (auto d = gate.decide(key, i != orders.end()); d != shard::decision::keep) return act(key, d);
  }
  if (i == orders.end()) {
    spawn(key, ev.obj);
    if (named_by.names_kind(ev.obj)) wake_referencing(ev.obj, {}, key.cluster, &key);
    return;
  }
  auto& e = i->second;
  if (e.retiring) {
    e.respawn = ev.obj;
    return;
  }
  auto before = last_of(e);
  bool wake = cr_update_predicate(before, ev.obj);
  if (!wake) ++filtered;
  named_by.update(key, before, ev.obj);
  keep_last(e, ev.obj);
  deliver(e, key, protocol::order_update{ev.obj, wake});
  // An order of this kind named by its peers (a duplicate assignment).
  if (named_by.names_kind(ev.obj)) wake_referencing(ev.obj, before, key.cluster, &key);
}

bool host_state::wake(const order_key& key, const protocol::object_event* child) {
  auto i = orders.find(key);
  if (i == orders.end() || i->second.retiring) return false;
  auto& e = i->second;
  const auto cause = child ? protocol::wake_cause::child : protocol::wake_cause::host;
  if (e.parked)
    unpark(key, e, cause);
  else if (e.parking)
    e.held_wake = e.held_wake.value_or(cause);
  else if (child && child->type != protocol::event_type::deleted)
    self->send(e.actor, protocol::child_update{child->cluster, child->obj, true});
  else
    self->send(e.actor, protocol::wake_atom::value);
  return true;
}

// A child's modification that changed nothing but its version wakes no
// pass: a running actor is shown the version (its memo may be waiting for
// the cache to reach it); a parked one stays parked.
bool host_state::show_version(const order_key& key, const protocol::object_event& ev) {
  auto i = orders.find(key);
  if (i == orders.end() || i->second.retiring) return false;
  ++unchanged_children;
  auto& e = i->second;
  if (!e.parked && !e.parking) self->send(e.actor, protocol::child_update{ev.cluster, ev.obj, false});
  return true;
}

bool host_state::wake_related(const protocol::object_event& ev) {
  bool routed = false;
  const auto g = ev.obj.gvk();
  for (const auto& rule : cfg.wakes) {
    if (rule.gvk.kind != g.kind || rule.gvk.group != g.group || !rule.relates) continue;
    for (const auto& [key, e] : orders) {
      if (key.cluster != ev.cluster || e.retiring) continue;
      // Never packed: a host with wake rules does not pack (packs()).
      if (rule.relates(ev.obj, e.last) || (ev.old && rule.relates(ev.old, e.last)))
        routed = wake(key) || routed;
    }
  }
  return routed;
}

std::optional<order_key> host_state::order_of_event_object(const k8s::object& obj,
                                                           const std::string& cluster) const {
  if (auto k = order_of_child(obj, cluster, cfg.keys, cfg.order_kind)) return k;
  for (const auto& ref : cfg.referenced_by)
    if (auto k = order_of_reference(obj, cluster, ref)) {
      if (ref.only_while_deleting) {
        auto i = orders.find(*k);
        if (i == orders.end() || !i->second.terminating) return std::nullopt;
      }
      return k;
    }
  return std::nullopt;
}

void host_state::on_child_event(const protocol::object_event& ev) {
  auto now = order_of_event_object(ev.obj, ev.cluster);
  bool routed = now && (ev.type != protocol::event_type::modified || changed_beyond_version(ev.old, ev.obj)
                            ? wake(*now, &ev)
                            : show_version(*now, ev));
  routed = wake_referencing(ev.obj, ev.type == protocol::event_type::modified ? ev.old : k8s::object{},
                            ev.cluster) ||
           routed;
  if (ev.old) {
    auto before = order_of_event_object(ev.old, ev.cluster);
    if (before && before != now) routed = wake(*before) || routed;
  }
  routed = wake_related(ev) || routed;
  if (!routed) ++unrouted;
}

void host_state::retire_cluster(const std::string& cluster) {
  std::vector<order_key> keys;
  for (const auto& [key, e] : orders)
    if (key.cluster == cluster) keys.push_back(key);
  for (const auto& key : keys)
    if (auto i = orders.find(key); i != orders.end()) retire(i);
}

void host_state::disengaged(const protocol::cluster_disengaged& c) {
  if (auto source = caf::actor_cast<caf::strong_actor_ptr>(c.source); source && !is_stale(source)) {
    stale_sources.push_back(c.source);
    self->monitor(source);  // at once if it is down already
  }
  retire_cluster(c.cluster);
}

bool host_state::is_stale(const caf::strong_actor_ptr& sender) const {
  if (stale_sources.empty() || !sender) return false;
  return std::find(stale_sources.begin(), stale_sources.end(), sender->address()) != stale_sources.end();
}

bool host_state::stale_done(const caf::actor_addr& source) {
  auto i = std::find(stale_sources.begin(), stale_sources.end(), source);
  if (i == stale_sources.end()) return false;
  stale_sources.erase(i);
  return true;
}

void host_state::on_down(const caf::down_msg& dm) {
  if (stale_done(dm.source)) return;
  auto a = by_id.find(dm.source.id());
  if (a == by_id.end()) return;
  auto key = a->second;
  by_id.erase(a);
  auto i = orders.find(key);
  if (i == orders.end() || i->second.actor.address() != dm.source) return;  // parked, or already replaced
  gone(i);
}

void host_state::gone(std::map<order_key, entry>::iterator i) {
  auto key = i->first;
  auto e = std::move(i->second);
  wheel_remove(e, i->first);
  if (e.parked) --parked_now;
  auto last = last_of(e);
  named_by.update(key, last, {});
  orders.erase(i);
  if (e.retiring) ++retired;
  // It left (its actor's death alone does not end an order: it starts over;
  // a stopped host's orders go with the host). Sent before any respawn,
  // whose pass registers it again.
  if (e.retiring && cfg.control_planes)
    self->send(cfg.control_planes, protocol::cp_forget_atom::value, key);
  if (!stopping) {
    if (e.retiring && e.respawn)
      spawn(key, *e.respawn);
    else if (!e.retiring)
      spawn(key, last);  // died unexpectedly while its order lives: start over
    else if (gate.enabled())
      evaluate(key);  // drained: release it, or run it again
  }
  sample();
  if (stopping && orders.empty()) finish_stop();
}

void host_state::finish_stop() {
  for (auto& rp : stop_waiters) rp.deliver(protocol::ok_atom::value);
  stop_waiters.clear();
  self->quit();
}

protocol::host_probe host_state::probe() const {
  protocol::host_probe p;
  for (const auto& [key, e] : orders) (e.retiring ? p.retiring : p.live).push_back(key);
  p.parked = parked_now;
  p.parks = parks;
  p.unparks = unparks;
  p.spawned = spawned;
  p.retired = retired;
  p.filtered = filtered;
  p.unrouted = unrouted;
  p.unchanged_children = unchanged_children;
  p.referenced_wakes = referenced_wakes;
  return p;
}

caf::behavior order_host(caf::stateful_actor<host_state>* self, order_host_config cfg) {
  self->state.self = self;
  self->state.cfg = std::move(cfg);
  if (!self->state.cfg.order_selector.empty())
    self->state.order_selector = k8s::label_selector::parse(self->state.cfg.order_selector);
  self->state.named_by = reference_index(self->state.cfg.references);
  if (auto* mm = self->state.m())
    mm->max_concurrent_reconciles.set(self->state.cfg.max_concurrent_reconciles);
  self->set_down_handler([self](caf::down_msg& dm) { self->state.on_down(dm); });
  if (self->state.cfg.shard.enabled()) {
    self->state.gate = shard::gate(self->state.cfg.shard.me, self->state.cfg.order_kind);
    self->state.scope = shard::scope_of(self->state.cfg.shard.me, nullptr);
    if (self->state.cfg.shard.registry)
      self->state.sm = std::make_unique<shard::shard_metrics>(*self->state.cfg.shard.registry,
                                                              self->state.cfg.controller);
    if (self->state.cfg.shard.membership)
      self->request(self->state.cfg.shard.membership, caf::infinite, protocol::shard_subscribe_atom::value,
                    caf::actor_cast<caf::actor>(self))
          .then([](protocol::ok_atom) {});
  }
  return {
      [self](const protocol::shard_view& v) {
        auto& s = self->state;
        if (!s.gate.enabled()) return;
        // A member fading changes the scope, not the ring.
        if (!s.gate.set_view(v)) return s.rescope(v);
        s.view_changed = std::chrono::steady_clock::now();
        s.rescope(v);
        for (const auto& key : s.gate.known()) s.evaluate(key);
        s.sample();
      },
      [self](shard_eval_atom, const order_key& key) {
        // A claim's answer may spawn the order's actor: the owned gauge says so
        // now, not at the next event (a converged order may have none).
        self->state.evaluate(key);
        self->state.sample();
      },
      [self](const protocol::object_event& ev) {
        auto& s = self->state;
        if (!ev.obj || s.is_stale(self->current_sender())) return;
        if (s.is_order(ev.obj))
          s.on_order_event(ev);
        else
          s.on_child_event(ev);
        s.sample();
      },
      [self](const protocol::wake_order& w) {
        if (!self->state.wake(w.key)) ++self->state.unrouted;
      },
      [self](const protocol::control_plane_changed& c) {
        for (const auto& key : c.orders) self->state.wake(key);
      },
      [self](const protocol::cluster_disengaged& c) { self->state.disengaged(c); },
      [self](const protocol::kind_availability& k) {
        auto& s = self->state;
        if (!k.served && k.gvk.kind == s.cfg.order_kind.kind &&
            k.gvk.group == s.cfg.order_kind.group)
          s.retire_cluster(k.cluster);
      },
      [](const protocol::informer_synced&) {
        // Readiness is tracked by whoever serves /readyz; nothing to route.
      },
      [self](protocol::stop_atom) {
        auto& s = self->state;
        s.stopping = true;
        s.stop_waiters.push_back(self->make_response_promise());
        std::vector<order_key> parked;
        for (auto& [key, e] : s.orders) {
          e.respawn.reset();
          if (e.parked)
            parked.push_back(key);
          else
            self->send(e.actor, protocol::stop_atom::value);
        }
        for (const auto& key : parked) s.gone(s.orders.find(key));  // the last finishes the stop
        if (parked.empty() && s.orders.empty()) s.finish_stop();
      },
      [self](protocol::park_atom, const order_key& key, std::uint64_t) {
        return self->state.park_asked(key, caf::actor_cast<caf::actor_addr>(self->current_sender()));
      },
      [self](protocol::parked_order& p) {
        self->state.park_answered(p, caf::actor_cast<caf::actor_addr>(self->current_sender()));
        self->state.sample();
      },
      [self](const protocol::timer_relay& t) {
        auto& s = self->state;
        auto a = s.by_id.find(t.actor);
        if (a == s.by_id.end()) return;  // gone (parked, retired): its timers went with it
        auto i = s.orders.find(a->second);
        if (i != s.orders.end() && i->second.actor && i->second.actor.id() == t.actor)
          self->send(i->second.actor, protocol::timer_tick{t.at});
      },
      [self](park_tick_atom, std::int64_t at) {
        self->state.wheel_tick(host_state::time_point{host_state::time_point::duration{at}});
        self->state.sample();
      },
      [self](protocol::probe_atom) { return self->state.probe(); },
      [self](protocol::probe_atom, const order_key& key) -> caf::result<protocol::order_probe> {
        auto i = self->state.orders.find(key);
        if (i == self->state.orders.end()) {
          protocol::order_probe none;
          none.key = key;
          return none;
        }
        if (i->second.parked) return expand(*i->second.parked, key);
        auto rp = self->make_response_promise<protocol::order_probe>();
        self->request(i->second.actor, caf::infinite, protocol::probe_atom::value)
            .then([rp](protocol::order_probe& p) mutable { rp.deliver(std::move(p)); },
                  [rp](caf::error& e) mutable { rp.deliver(std::move(e)); });
        return rp;
      },
  };
}

}  // namespace detail

caf::actor spawn_order_host(caf::actor_system& sys, order_host_config cfg) {
  return sys.spawn(detail::order_host, std::move(cfg));
}

}  // namespace c5c3::runtime
