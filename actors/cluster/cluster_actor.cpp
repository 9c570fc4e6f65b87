#include "actors/cluster/cluster_actor.hpp"

#include "actors/cluster/cluster_state.hpp"
#include "actors/cluster/messages.hpp"
#include "k8s/projection.hpp"
#include "protocol/api_error.hpp"
#include "protocol/clusters.hpp"
#include "protocol/order.hpp"

#include <algorithm>
#include <optional>

namespace c5c3::cluster {

namespace detail {

void release_engine(std::unique_ptr<io_engine> e) {
  if (!e) return;
  if (std::this_thread::get_id() == e->thread.get_id()) {
    // Destroyed from the io thread itself (a completion held the last
    // reference): let another thread wait for it to return.
    e->io.stop();
    std::thread([e = std::move(e)]() mutable { e->shutdown(); }).detach();
    return;
  }
  e->shutdown();
}

}  // namespace detail

namespace {

using namespace detail;

caf::error to_error(const k8s::api_error& e) {
  if (k8s::is_no_kind_match(e)) {
    return caf::error(static_cast<std::uint8_t>(protocol::api_errc::no_match), protocol::api_error_category,
                      caf::make_message(e));
  }
  return protocol::make_error(e);
}

k8s::api_error cache_not_found(const protocol::resource_ref& ref) {
  k8s::api_error e;
  e.code = 404;
  e.reason = "NotFound";
  e.group = ref.gvk.group;
  e.kind = ref.gvk.kind;
  e.name = ref.name;
  e.message = ref.gvk.kind + " \"" + ref.name + "\" not found";
  return e;
}

// Objects the cluster actor hands out carry no metadata.managedFields, read
// from a cache or answered by the server alike: nothing in the actors reads
// them, and callers keep answers (an order's memo of its own writes).
void fill(op_done& d, k8s::object o) { d.obj = k8s::strip_managed_fields(o); }
void fill(op_done& d, k8s::object_list l) {
  for (auto& o : l.items) o = k8s::strip_managed_fields(o);
  d.list.items = std::move(l.items);
  d.list.resource_version = std::move(l.resource_version);
}
void fill(op_done&, const k8s::api_resource&) {}
void fill(op_done& d, const std::vector<k8s::api_resource>& rs) {
  for (const auto& r : rs) d.kinds.push_back(k8s::gvk{r.group, r.version, r.kind});
}

template <class T>
k8s::callback<T> completion(weak_self w, std::uint64_t id) {
  return [w = std::move(w), id](k8s::result<T> r) {
    op_done d;
    d.id = id;
    d.ok = r.ok();
    if (r.ok()) {
      fill(d, std::move(r).value());
    } else {
      d.err = r.error();
    }
    send_to(w, std::move(d));
  };
}

std::string propagation_name(protocol::propagation p) {
  switch (p) {
    case protocol::propagation::foreground: return "Foreground";
    case protocol::propagation::orphan: return "Orphan";
    case protocol::propagation::background: break;
  }
  return "Background";
}

k8s::patch_type client_patch_type(protocol::patch_type t) {
  switch (t) {
    case protocol::patch_type::json: return k8s::patch_type::json;
    case protocol::patch_type::strategic_merge: return k8s::patch_type::strategic_merge;
    case protocol::patch_type::merge: break;
  }
  return k8s::patch_type::merge;
}

// Retry of a subscription whose kind could not be resolved for a transient
// reason (no connection yet, a 5xx, 429): (resolve_atom, subscription, attempt).
using resolve_atom = caf::atom_constant<caf::atom("resolve")>;

// The delay before resolving a subscription again: 500 ms doubling to 30 s.
caf::timespan resolve_delay(std::uint32_t attempt) {
  auto ms = std::chrono::milliseconds(500);
  for (std::uint32_t i = 1; i < attempt && ms < std::chrono::seconds(30); ++i) ms *= 2;
  return std::min<caf::timespan>(ms, std::chrono::seconds(30));
}

bool transient(const k8s::api_error& e) { return e.transport() || e.server_error() || e.too_many_requests(); }


// Whether every term of `fields` is one every API server selects on.
bool server_selectable(const k8s::field_selector& fields) {
  return std::all_of(fields.requirements().begin(), fields.requirements().end(), [](const k8s::field_requirement& r) {
    return r.field == "metadata.name" || r.field == "metadata.namespace";
  });
}

// `keep` (a list only): the items of the answer delivered.
std::uint64_t expect(self_ptr self, caf::response_promise rp, bool list = false,
                     std::function<bool(const k8s::object&)> keep = {}) {
  auto id = self->state.next_id++;
  self->state.pending.emplace(id, [self, rp, list, keep = std::move(keep)](op_done& d) mutable {
    if (!d.ok) {
      if (d.err.transport()) self->state.last_error = d.err.describe();
      rp.deliver(to_error(d.err));
    } else if (list) {
      if (keep) std::erase_if(d.list.items, [&](const k8s::object& o) { return !keep(o); });
      rp.deliver(std::move(d.list));
    } else {
      rp.deliver(std::move(d.obj));
    }
  });
  return id;
}

// Resolves a subscription's kind and attaches it. `rp` answers the subscriber
// on the first attempt: the id once resolved, an optional kind not served, or
// a transient failure (then it is retried with backoff, and synced_atom stays
// false meanwhile); the error for a required kind not served or any other
// failure (the subscription is dropped).
void resolve(self_ptr self, std::uint64_t sid, std::uint32_t attempt, std::optional<caf::response_promise> rp) {
  auto& st = self->state;
  auto id = st.next_id++;
  st.pending.emplace(id, [self, rp, sid, attempt](op_done& d) mutable {
    auto& s = self->state;
    auto deliver = [&](auto x) {
      if (rp) rp->deliver(std::move(x));
    };
    auto it = s.subs.find(sid);
    if (it == s.subs.end()) {
      deliver(protocol::make_error(protocol::api_errc::other, "unsubscribed while subscribing"));
      return;
    }
    const auto req = it->second.req;
    if (s.stopping) {
      deliver(to_error(d.err));
      return;
    }
    if (d.ok) {
      runtime::log_recovered(s.logged, s.log, "resolve " + req.gvk.kind, "Kind looked up", {{"kind", req.gvk.kind}});
      if (req.optional) ensure_crd_watch(self);
      it->second.resolved = true;
      attach(self, sid);
      if (req.optional) self->send(req.subscriber, protocol::kind_availability{s.name, req.gvk, true});
    } else if (req.optional && k8s::is_no_kind_match(d.err)) {
      ensure_crd_watch(self);
      it->second.resolved = true;
      self->send(req.subscriber, protocol::kind_availability{s.name, req.gvk, false});
    } else if (transient(d.err)) {
      s.last_error = d.err.describe();
      runtime::log_once(s.logged, s.log, k8s::log::level::warn, "resolve " + req.gvk.kind,
                        "Cannot look the kind up; retrying", s.last_error, {{"kind", req.gvk.kind}});
      self->delayed_send(self, resolve_delay(attempt), resolve_atom::value, sid, attempt + 1);
    } else {
      s.subs.erase(it);
      deliver(to_error(d.err));
      return;
    }
    deliver(protocol::subscription_id{sid});
  });
  st.engine->client->resource_for(st.subs.at(sid).req.gvk, completion<k8s::api_resource>(st.self_ref, id));
}

caf::behavior cluster_actor(self_ptr self, cluster_options opts) {
  auto& st = self->state;
  st.name = opts.name;
  st.log = opts.log.with({{"cluster", opts.name}});
  st.reach = std::make_shared<reachability_observer>(opts.client.observer);
  opts.client.observer = st.reach;
  st.self_ref = weak_self{self->ctrl()};
  st.engine = std::make_unique<io_engine>();
  // Nothing the cluster actor serves carries managedFields (fill() below,
  // the informers' transform): they are dropped as the client decodes.
  opts.client.drop_managed_fields = true;
  auto created = k8s::client::create(st.engine->io, std::move(opts.client));
  if (!created.ok()) {
    // Unusable configuration: every request answers transport errors.
    k8s::api_error e;
    e.message = "cluster " + (st.name.empty() ? std::string("management") : st.name) +
                ": client: " + created.error();
    self->quit(protocol::make_error(protocol::api_errc::transport, e.message));
    return {};
  }
  st.engine->client = created.value();
  self->set_down_handler([self](const caf::down_msg& dm) { drop_subscriber(self, dm.source); });
  // Told to exit (the registry disengaging a target, main shutting down):
  // requests in flight are answered with a transport error rather than left
  // to their timeouts.
  self->set_exit_handler([self](caf::exit_msg& em) {
    self->state.stopping = true;
    auto pending = std::move(self->state.pending);
    self->state.pending.clear();
    for (auto& [id, fn] : pending) {
      op_done d;
      d.id = id;
      d.err.message = "cluster " + (self->state.name.empty() ? std::string("management") : self->state.name) +
                      " stopped";
      fn(d);
    }
    self->quit(em.reason);
  });
  auto client = [self]() -> k8s::client& { return *self->state.engine->client; };
  auto weak = [self] { return self->state.self_ref; };
  return {
      [=](protocol::get_request& r) {
        auto cached = read_cached(self->state, r);
        if (cached.outcome == protocol::read_outcome::items)
          return caf::result<k8s::object>(std::move(cached.list.items.front()));
        if (cached.outcome == protocol::read_outcome::not_found)
          return caf::result<k8s::object>(to_error(cache_not_found(r.ref)));
        auto id = expect(self, self->make_response_promise());
        client().get(r.ref.gvk, r.ref.namespace_, r.ref.name, completion<k8s::object>(weak(), id));
        return caf::result<k8s::object>(caf::delegated<k8s::object>());
      },
      [=](protocol::list_request& r) {
        auto cached = read_cached(self->state, r);
        if (cached.outcome == protocol::read_outcome::items)
          return caf::result<protocol::object_list>(std::move(cached.list));
        auto fields = k8s::field_selector::parse(r.field_selector);
        // A cache read the cache cannot answer goes to the API server; a
        // field selector on fields the API server may not select on
        // (spec.*: the cache's field index) is applied to its answer here.
        std::function<bool(const k8s::object&)> keep;
        k8s::list_options lo;
        lo.label_selector = r.label_selector;
        lo.field_selector = r.field_selector;
        if (r.source == protocol::read_from::cache && fields && !server_selectable(*fields)) {
          lo.field_selector.clear();
          keep = [f = *fields](const k8s::object& o) { return f.matches(o); };
        }
        auto id = expect(self, self->make_response_promise(), true, std::move(keep));
        client().list(r.gvk, r.namespace_, std::move(lo), completion<k8s::object_list>(weak(), id));
        return caf::result<protocol::object_list>(caf::delegated<protocol::object_list>());
      },
      [=](const protocol::read_batch& b) { return read_cached(self->state, b); },
      [=](protocol::create_request& r) {
        auto id = expect(self, self->make_response_promise());
        client().create(r.obj,
                        k8s::write_options{r.options.field_manager, r.options.dry_run,
                                           protocol::deadline_of(r.options.deadline)},
                        completion<k8s::object>(weak(), id));
      },
      [=](protocol::update_request& r) {
        auto id = expect(self, self->make_response_promise());
        k8s::write_options wo{r.options.field_manager, r.options.dry_run, protocol::deadline_of(r.options.deadline)};
        if (r.subresource == "status") {
          client().update_status(r.obj, std::move(wo), completion<k8s::object>(weak(), id));
        } else {
          client().update(r.obj, std::move(wo), completion<k8s::object>(weak(), id));
        }
      },
      [=](protocol::patch_request& r) {
        auto id = expect(self, self->make_response_promise());
        k8s::patch_options po;
        po.field_manager = r.options.field_manager;
        po.dry_run = r.options.dry_run;
        po.deadline = protocol::deadline_of(r.options.deadline);
        po.status = r.subresource == "status";
        client().patch(r.ref.gvk, r.ref.namespace_, r.ref.name, client_patch_type(r.type), r.body,
                       std::move(po), completion<k8s::object>(weak(), id));
      },
      [=](protocol::apply_request& r) {
        auto id = expect(self, self->make_response_promise());
        k8s::patch_options po;
        po.field_manager = r.options.field_manager;
        po.dry_run = r.options.dry_run;
        po.force = r.force;
        po.deadline = protocol::deadline_of(r.options.deadline);
        po.status = r.subresource == "status";
        client().apply(r.obj, std::move(po), completion<k8s::object>(weak(), id));
      },
      [=](protocol::delete_request& r) {
        auto id = expect(self, self->make_response_promise());
        k8s::delete_options d;
        d.precondition_uid = r.precondition_uid;
        d.precondition_resource_version = r.precondition_resource_version;
        d.propagation_policy = propagation_name(r.policy);
        d.deadline = protocol::deadline_of(r.deadline);
        client().remove(r.ref.gvk, r.ref.namespace_, r.ref.name, std::move(d),
                        completion<k8s::object>(weak(), id));
      },
      [=](discover_atom) {
        auto rp = self->make_response_promise();
        auto id = self->state.next_id++;
        self->state.pending.emplace(id, [rp](op_done& d) mutable {
          if (d.ok) {
            rp.deliver(std::move(d.kinds));
          } else {
            rp.deliver(to_error(d.err));
          }
        });
        client().discover(completion<std::vector<k8s::api_resource>>(weak(), id));
      },
      [=](protocol::subscribe_request& r) {
        auto rp = self->make_response_promise();
        // A projection that does not parse is refused (a declaration's bug).
        std::string bad;
        if (!k8s::parse_field_paths(r.drop, &bad)) {
          rp.deliver(protocol::make_error(protocol::api_errc::invalid, "subscribe " + r.gvk.kind + ": " + bad));
          return;
        }
        r.drop = k8s::canonical_paths(std::move(r.drop));
        auto sid = self->state.next_id++;
        if (r.subscriber && self->state.monitored.insert(r.subscriber.address()).second) self->monitor(r.subscriber);
        self->state.subs.emplace(sid, subscription{r, 0, false, false, 0});
        resolve(self, sid, 1, rp);
      },
      [=](resolve_atom, std::uint64_t sid, std::uint32_t attempt) {
        if (self->state.subs.count(sid) != 0) resolve(self, sid, attempt, std::nullopt);
      },
      [=](protocol::synced_atom) { return all_synced(self->state); },
      [=](protocol::health_atom) {
        auto& s = self->state;
        bool reachable = s.reach->reachable();
        // Unreachable: what its requests meet; else the last error seen
        // (a refusal, an informer that cannot list).
        auto error = !reachable && s.reach->known() ? s.reach->last_failure() : s.last_error;
        return protocol::cluster_health{s.name, all_synced(s), s.reach->known(), reachable, std::move(error)};
      },
      [=](protocol::rescope_request& r) -> caf::result<protocol::ok_atom> {
        rescope(self, r.subscriber, r.scope);
        if (!moving(self->state, r.subscriber.address())) return protocol::ok_atom::value;
        auto rp = self->make_response_promise<protocol::ok_atom>();
        self->state.rescope_waiters.emplace_back(r.subscriber.address(), rp);
        return rp;
      },
      [=](protocol::unsubscribe_request& r) {
        auto& s = self->state;
        if (s.subs.count(r.id.value) != 0) {
          detach(self, r.id.value);
          s.subs.erase(r.id.value);
        }
        return protocol::ok_atom::value;
      },
      [=](op_done& d) {
        auto& s = self->state;
        auto it = s.pending.find(d.id);
        if (it == s.pending.end()) return;
        auto fn = std::move(it->second);
        s.pending.erase(it);
        fn(d);
      },
      [=](inf_event& ev) { on_informer_event(self, ev); },
  };
}

}  // namespace

std::optional<std::string> client_problem(const k8s::client_config& c) {
  boost::asio::io_context io;
  auto made = k8s::client::create(io, c);
  if (made.ok()) return std::nullopt;
  return made.error();
}

caf::actor spawn_cluster(caf::actor_system& sys, cluster_options opts) {
  return sys.spawn(cluster_actor, std::move(opts));
}

}  // namespace c5c3::cluster
