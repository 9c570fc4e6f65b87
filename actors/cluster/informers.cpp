// The cluster actor's shared informers: started per key (kind, namespace,
// label selector, field selector, scope), their subscriptions attached and
// detached (a late joiner gets the cache, then synced), optional kinds
// following their CRD, the events passed on, and which cache answers a read.
#include "actors/cluster/cluster_state.hpp"
#include "actors/cluster/rescope.hpp"
#include "k8s/projection.hpp"

#include <algorithm>

namespace c5c3::cluster::detail {

std::uint64_t start_informer(self_ptr self, const informer_key& key) {
  auto& st = self->state;
  if (auto it = st.by_key.find(key); it != st.by_key.end()) return it->second;
  auto iid = st.next_id++;
  auto w = st.self_ref;
  k8s::informer_handlers h;
  h.on_list = [w, iid](std::vector<k8s::object> items) {
    send_to(w, inf_event{iid, inf_kind::listed, {}, std::move(items), {}});
  };
  h.on_upsert = [w, iid](const k8s::object& o) { send_to(w, inf_event{iid, inf_kind::upserted, o, {}, {}}); };
  h.on_delete = [w, iid](const k8s::object& o) { send_to(w, inf_event{iid, inf_kind::deleted, o, {}, {}}); };
  h.on_synced = [w, iid] { send_to(w, inf_event{iid, inf_kind::synced, {}, {}, {}}); };
  // A failed list or watch is retried by the informer; the worker says so once
  // per change. An expired resourceVersion is routine: the informer lists again.
  h.on_error = [w, iid](const k8s::api_error& e) {
    if (e.gone()) return;
    send_to(w, inf_event{iid, inf_kind::error, {}, {}, e.describe()});
  };
  k8s::informer_options opts;
  opts.keep_store = false;  // the entry's cache is the one store
  opts.namespace_ = key.namespace_;
  opts.label_selector = scoped_selector(key.label_selector, key.scope);
  opts.field_selector = key.field_selector;
  // Nothing here reads managedFields (SSA writes do not need them): caches and
  // events go without. A projected watch's objects go without its fields too
  // (checked at subscribe: key.drop parses).
  auto paths = k8s::parse_field_paths(key.drop).value_or(std::vector<k8s::field_path>{});
  if (paths.empty()) {
    opts.transform = k8s::strip_managed_fields;
  } else {
    opts.transform = [paths = std::move(paths)](const k8s::object& o) {
      return k8s::project(k8s::strip_managed_fields(o), paths);
    };
  }
  informer_entry e;
  e.key = key;
  auto& events = runtime::metrics::default_registry().counter(
      "c5c3_informer_events_total",
      "Watch events the cluster actors' informers passed on to their subscribers (a relist's differences "
      "included; a replayed version not), by cluster (empty: the management cluster), kind and type.",
      {"cluster", "kind", "type"});
  using protocol::event_type;
  for (auto [type, label] : {std::pair{event_type::added, "added"}, std::pair{event_type::modified, "modified"},
                             std::pair{event_type::deleted, "deleted"}})
    e.events[static_cast<std::size_t>(type)] = &events.with({st.name, key.gvk.kind, label});
  e.cache = informer_cache(key.label_selector);
  e.inf = k8s::informer::create(st.engine->client, key.gvk, std::move(opts), std::move(h));
  e.inf->start();
  st.informers.emplace(iid, std::move(e));
  st.by_key.emplace(key, iid);
  return iid;
}

void stop_if_unused(self_ptr self, std::uint64_t iid) {
  auto& st = self->state;
  auto it = st.informers.find(iid);
  if (it == st.informers.end()) return;
  auto& e = it->second;
  if (!e.subs.empty() || !e.pending.empty() || e.internal) return;
  e.inf->stop();
  st.by_key.erase(e.key);
  st.informers.erase(it);
}

informer_key key_of(const subscription& sub) {
  const auto& r = sub.req;
  return informer_key{r.gvk, r.namespace_, r.label_selector, r.field_selector, r.scoped ? r.scope : std::string(),
                      k8s::canonical_paths(r.drop)};
}

void attach(self_ptr self, std::uint64_t sid) {
  auto& st = self->state;
  auto& sub = st.subs.at(sid);
  const auto& r = sub.req;
  auto iid = start_informer(self, key_of(sub));
  sub.informer = iid;
  sub.synced_sent = false;
  auto& e = st.informers.at(iid);
  e.subs.insert(sid);
  if (e.synced) {
    // Late joiner: the cache as the others have seen it, then synced.
    for (auto& o : e.cache.all()) {
      self->send(r.subscriber, protocol::object_event{protocol::subscription_id{sid}, st.name,
                                                      protocol::event_type::added, std::move(o), {}});
    }
    self->send(r.subscriber, protocol::informer_synced{protocol::subscription_id{sid}, st.name, r.gvk});
    sub.synced_sent = true;
  }
}

void detach(self_ptr self, std::uint64_t sid) {
  auto& st = self->state;
  cancel_move(self, sid);
  answer_rescopes(self);
  auto& sub = st.subs.at(sid);
  if (sub.informer == 0) return;
  auto iid = sub.informer;
  sub.informer = 0;
  sub.synced_sent = false;
  auto it = st.informers.find(iid);
  if (it == st.informers.end()) return;
  it->second.subs.erase(sid);
  stop_if_unused(self, iid);
}

void ensure_crd_watch(self_ptr self) {
  auto& st = self->state;
  if (st.crd_informer != 0) return;
  st.crd_informer = start_informer(self, informer_key{crd_kind, "", ""});
  st.informers.at(st.crd_informer).internal = true;
}

namespace {

// A CRD came, changed or went: optional subscriptions of its kinds follow.
void on_crd(self_ptr self, const k8s::object& crd, bool gone) {
  auto& st = self->state;
  for (auto& [sid, sub] : st.subs) {
    if (!sub.req.optional || !crd_defines(crd, sub.req.gvk)) continue;
    bool serves = !gone && crd_serves(crd, sub.req.gvk);
    bool attached = sub.informer != 0;
    if (serves == attached) continue;
    if (serves) {
      attach(self, sid);
    } else {
      // The kind's objects are gone from view: the subscriber hears each as
      // deleted (hosts retire their actors), then that the kind went.
      if (auto it = st.informers.find(sub.informer); it != st.informers.end()) {
        for (auto& o : it->second.cache.all())
          self->send(sub.req.subscriber, protocol::object_event{protocol::subscription_id{sid}, st.name,
                                                                protocol::event_type::deleted, std::move(o), {}});
      }
      detach(self, sid);
    }
    self->send(sub.req.subscriber, protocol::kind_availability{st.name, sub.req.gvk, serves});
  }
}

// One change the subscribers see; the cache follows it first, and gives the
// version they saw before it (a deletion tells the last one).
void publish(self_ptr self, std::uint64_t iid, informer_entry& e, protocol::event_type type, const k8s::object& obj) {
  auto& st = self->state;
  e.events[static_cast<std::size_t>(type)]->inc();
  k8s::object old;
  if (type == protocol::event_type::deleted)
    e.cache.erase(obj.key());
  else
    old = e.cache.put(obj);
  for (auto sid : e.subs)
    self->send(st.subs.at(sid).req.subscriber,
               protocol::object_event{protocol::subscription_id{sid}, st.name, type, obj, old});
  if (iid == st.crd_informer) on_crd(self, obj, type == protocol::event_type::deleted);
}

// A list or relist (after 410 Gone): the difference from what the
// subscribers have seen becomes their events, the deletions first, as a
// watch would have told them.
void relisted(self_ptr self, std::uint64_t iid, informer_entry& e, std::vector<k8s::object> items) {
  k8s::object_map listed;
  for (auto& o : items) listed.put(std::move(o));
  auto d = e.cache.difference(listed);
  for (const auto& o : d.deleted) publish(self, iid, e, protocol::event_type::deleted, o);
  for (const auto& o : d.added) publish(self, iid, e, protocol::event_type::added, o);
  for (const auto& u : d.updated) publish(self, iid, e, protocol::event_type::modified, u.second);
}

}  // namespace

void on_informer_event(self_ptr self, inf_event& ev) {
  auto& st = self->state;
  auto it = st.informers.find(ev.informer);
  if (it == st.informers.end()) return;  // stopped meanwhile
  auto& e = it->second;
  // The log's topic and fields, made only for what may log (not per event).
  auto log_keys = [&e] {
    auto selector = scoped_selector(e.key.label_selector, e.key.scope);
    auto topic = "informer " + e.key.gvk.kind + " " + e.key.namespace_ + " " + selector;
    k8s::log::fields where{{"kind", e.key.gvk.kind}, {"namespace", e.key.namespace_}, {"selector", selector}};
    return std::pair{std::move(topic), std::move(where)};
  };
  if (ev.kind == inf_kind::error) {
    auto [topic, where] = log_keys();
    st.last_error = ev.error;
    runtime::log_once(st.logged, st.log, k8s::log::level::warn, topic, "Failed to watch", ev.error, where);
    return;
  }
  if (ev.kind == inf_kind::synced) {
    auto [topic, where] = log_keys();
    runtime::log_recovered(st.logged, st.log, topic, "Informer synced again", where);
    e.synced = true;
    for (auto sid : e.subs) {
      auto& sub = st.subs.at(sid);
      if (sub.synced_sent) continue;
      sub.synced_sent = true;
      self->send(sub.req.subscriber,
                 protocol::informer_synced{protocol::subscription_id{sid}, st.name, sub.req.gvk});
    }
    complete_moves(self, ev.informer);
    return;
  }
  switch (ev.kind) {
    case inf_kind::listed:
      return relisted(self, ev.informer, e, std::move(ev.items));
    case inf_kind::deleted:
      if (e.cache.version(ev.obj.key())) publish(self, ev.informer, e, protocol::event_type::deleted, ev.obj);
      return;
    case inf_kind::upserted: {
      // Added or modified; a version the cache has is a replay (a watch
      // resumed from an older resourceVersion): no event twice.
      auto known = e.cache.version(ev.obj.key());
      if (known && *known == ev.obj.resource_version()) return;
      auto type = known ? protocol::event_type::modified : protocol::event_type::added;
      return publish(self, ev.informer, e, type, ev.obj);
    }
    case inf_kind::synced:
    case inf_kind::error:
      return;  // above
  }
}

namespace {

// The first synced informer of `gvk` covering `ns` that `fits` and drops
// nothing the reader needs (its projection within `accepted`), an unscoped
// one before a scoped one (a scoped cache holds only its share), and of the
// scoped ones the newest: the latest scope asked for (a rescope's informer
// answers as soon as it has its list, though another subscriber still on the
// old scope keeps that one running; scope_cover.hpp relies on it).
template <class Fits>
const informer_entry* first_cache(const cluster_state& st, const k8s::gvk& gvk, const std::string& ns,
                                  const std::vector<std::string>& accepted, Fits fits) {
  auto usable = [&](const informer_entry& e, bool scoped) {
    if (!e.synced || !(e.key.gvk == gvk) || !e.key.field_selector.empty() || e.key.scope.empty() == scoped)
      return false;
    if (!e.key.namespace_.empty() && e.key.namespace_ != ns) return false;
    if (!k8s::drops_within(e.key.drop, accepted)) return false;
    return fits(e);
  };
  for (const auto& [id, e] : st.informers)
    if (usable(e, false)) return &e;
  for (auto it = st.informers.rbegin(); it != st.informers.rend(); ++it)
    if (usable(it->second, true)) return &it->second;
  return nullptr;
}

}  // namespace

const informer_entry* cache_for(const cluster_state& st, const k8s::gvk& gvk, const std::string& ns,
                                const std::string& selector, const std::vector<std::string>& accepted) {
  return first_cache(st, gvk, ns, accepted,
                     [&](const informer_entry& e) { return e.key.label_selector == selector; });
}

const informer_entry* covering_cache(const cluster_state& st, const k8s::gvk& gvk, const std::string& ns,
                                     const k8s::label_selector& request, const std::vector<std::string>& accepted) {
  return first_cache(st, gvk, ns, accepted, [&](const informer_entry& e) { return e.cache.covers(request); });
}

// A subscriber died: its subscriptions go (an informer nobody uses stops).
void drop_subscriber(self_ptr self, const caf::actor_addr& who) {
  auto& st = self->state;
  st.monitored.erase(who);
  for (auto it = st.subs.begin(); it != st.subs.end();) {
    if (it->second.req.subscriber.address() == who) {
      detach(self, it->first);
      it = st.subs.erase(it);
    } else {
      ++it;
    }
  }
}

// Something subscribed (actors start asynchronously: an actor with no
// subscription yet has not been told what to watch), every subscription
// resolved, and each attached one has its initial list.
bool all_synced(const cluster_state& st) {
  if (st.subs.empty()) return false;
  for (const auto& [sid, sub] : st.subs) {
    if (!sub.resolved) return false;
    if (sub.informer == 0) continue;
    auto it = st.informers.find(sub.informer);
    if (it == st.informers.end() || !it->second.synced) return false;
  }
  return true;
}

}  // namespace c5c3::cluster::detail
