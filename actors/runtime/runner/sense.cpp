// The runner's sense step: the clusters, admission, and the read slots from
// the informer caches, in dependency order, through the memo.
#include "actors/runtime/runner/fold.hpp"
#include "actors/runtime/runner/run_state.hpp"
#include "protocol/api_error.hpp"
#include "protocol/cluster_io.hpp"
#include "protocol/clusters.hpp"
#include "protocol/control_plane.hpp"

#include <algorithm>

namespace c5c3::runtime::detail {

namespace proto = ::c5c3::protocol;

std::string run_state::who() const {
  auto s = kind->gvk.kind + " " + snap.key.namespace_ + "/" + snap.key.name;
  if (!snap.key.cluster.empty()) s += " on cluster " + snap.key.cluster;
  return s;
}

k8s::log::logger run_state::log() const {
  return deps->log.with({{"controller", kind->controller},
                         {"namespace", snap.key.namespace_},
                         {"name", snap.key.name},
                         {"cluster", snap.key.cluster}});
}

void finish(const run_ptr& r, pass_result res) {
  // Parking (order_actor.hpp): once nothing of this order's writes is left
  // to bridge a lagging cache. The status write's answer is spent when the
  // order's newest version is its own (the echo wakes no pass), the others
  // by later passes or the memo's horizon; the closure stays with the host.
  // A kind with admission stays in its ControlPlane's fan-out: the
  // directory keeps it for the host (pass_context::host), not the actor.
  res.settled = [memo = r->memo, cluster = r->snap.key.cluster](const k8s::object& order,
                                                                caf::actor_clock::time_point now) {
    if (order) memo->latest(memo_key_of(cluster, order), order, now);
    return memo->size() == 0;
  };
  // A child's event showing a version this actor's write answered is the
  // echo of that write, which its pass went on from: it wakes no pass.
  res.echo = [memo = r->memo](const std::string& cluster, const k8s::object& child,
                              caf::actor_clock::time_point now) {
    return memo->echo(memo_key_of(cluster, child), child, now);
  };
  if (r->ctx.finish(std::move(res)) && r->deps->orders)
    r->deps->orders->settled(r->snap.key, r->started_with, r->snap.order);
}

void fail(const run_ptr& r, const caf::error& e) {
  if (proto::is_conflict(e)) return finish(r, pass_result::requeue());
  finish(r, pass_result::failed(r->who() + ": " + proto::describe(e)));
}

namespace {

void note_error(const run_ptr& r, const caf::error& e) {
  if (r->read_error.empty()) r->read_error = proto::describe(e);
}

std::string namespace_of(const run_ptr& r, namespace_role role) {
  switch (role) {
    case namespace_role::home: return r->snap.home_namespace;
    case namespace_role::order: return r->snap.key.namespace_;
    case namespace_role::all: return {};
  }
  return {};
}

// no_match: an optional slot is unserved; a required one is an error.
void not_served(const run_ptr& r, const read_slot& slot, slot_result& out, const caf::error& e) {
  out.served = false;
  if (!slot.optional) note_error(r, e);
}

// Where a slot reads: the informer caches, or the API server for uncached slots.
proto::read_from source_of(const read_slot& slot) {
  return slot.uncached ? proto::read_from::server : proto::read_from::cache;
}

// A read from the API server is bounded by the request timeout. A read from
// the cache is answered from the cluster actor's memory, or with an error when
// that actor is gone: it takes no timeout, because CAF 0.17 keeps a request's
// timeout in its clock until it is due even when the answer came at once
// (30 s of clock entries for every cache read: 14 KiB per RabbitMQVhost order
// at 1,000 orders, measured by bench/rabbitmqvhost). The pass deadline still
// ends a pass whose answer never comes.
caf::duration read_timeout(const run_ptr& r, proto::read_from from) {
  if (from == proto::read_from::cache) return caf::duration(caf::infinite);
  return caf::duration(r->timeout());
}

using items_fn = std::function<void(std::vector<k8s::object>)>;
using read_error_fn = std::function<void(const caf::error&)>;

// One read sent alone: a get when `item.name` is set, else a list. A get the
// cache or the API server does not find answers no object.
void send_read(const run_ptr& r, const caf::actor& cluster, proto::read_item item, items_fn ok, read_error_fn err) {
  auto timeout = read_timeout(r, item.list.source);
  if (item.name.empty()) {
    r->self()
        ->request(cluster, timeout, std::move(item.list))
        .then([ok](proto::object_list& l) { ok(std::move(l.items)); }, [err](const caf::error& e) { err(e); });
    return;
  }
  auto& l = item.list;
  r->self()
      ->request(cluster, timeout,
                proto::get_request{{l.gvk, std::move(l.namespace_), std::move(item.name)}, l.source, std::move(l.drop)})
      .then([ok](k8s::object& o) { ok({std::move(o)}); },
            [ok, err](const caf::error& e) {
              if (proto::is_not_found(e)) return ok({});
              err(e);
            });
}

// A read of the wave being issued: a cache read waits for the wave's batch
// to its cluster (flush_reads), any other goes at once.
void issue_read(const run_ptr& r, cluster_role role, proto::read_item item, items_fn ok, read_error_fn err) {
  const auto& cluster = r->cluster_of(role);
  if (!r->queueing || item.list.source != proto::read_from::cache)
    return send_read(r, cluster, std::move(item), std::move(ok), std::move(err));
  auto it = std::find_if(r->queued.begin(), r->queued.end(), [&](const auto& q) { return q.first == cluster; });
  if (it == r->queued.end()) it = r->queued.insert(r->queued.end(), {cluster, {}});
  it->second.push_back({std::move(item), std::move(ok), std::move(err)});
}

// The wave's cache reads, one read_batch per cluster (a lone read goes as
// itself). An item no cache could answer is sent alone, to the API server.
void flush_reads(const run_ptr& r) {
  r->queueing = false;
  auto queued = std::move(r->queued);
  r->queued.clear();
  for (auto& [cluster, reads] : queued) {
    if (reads.size() == 1) {
      auto& q = reads.front();
      send_read(r, cluster, std::move(q.item), std::move(q.ok), std::move(q.err));
      continue;
    }
    proto::read_batch batch;
    batch.items.reserve(reads.size());
    for (const auto& q : reads) batch.items.push_back(q.item);
    auto pending = std::make_shared<std::vector<run_state::queued_read>>(std::move(reads));
    r->self()
        ->request(cluster, caf::duration(caf::infinite), std::move(batch))
        .then(
            [r, cluster = cluster, pending](proto::read_batch_answer& a) {
              auto& qs = *pending;
              for (std::size_t i = 0; i < qs.size(); ++i) {
                auto& q = qs[i];
                auto* res = i < a.results.size() ? &a.results[i] : nullptr;
                if (!res || res->outcome == proto::read_outcome::uncached)
                  send_read(r, cluster, std::move(q.item), std::move(q.ok), std::move(q.err));
                else
                  q.ok(std::move(res->list.items));
              }
            },
            [pending](const caf::error& e) {
              for (auto& q : *pending) q.err(e);
            });
  }
}

// A slot's read failed: an unserved kind (optional or not), or an error.
read_error_fn slot_failed(const run_ptr& r, const join_ptr& j, const read_slot& slot, slot_result& out) {
  return [r, j, &slot, &out](const caf::error& e) {
    if (proto::is_no_match(e))
      not_served(r, slot, out, e);
    else
      note_error(r, e);
    j->done();
  };
}

void read_list(const run_ptr& r, const join_ptr& j, const read_slot& slot, slot_result& out,
               std::string selector, std::function<bool(const k8s::object&)> keep, std::string fields = {}) {
  ++j->pending;
  if (slot.uncached) out.live = true;
  issue_read(
      r, slot.cluster,
      proto::read_item{
          {slot.gvk, out.namespace_, std::move(selector), std::move(fields), source_of(slot), slot.drop}, {}},
      [j, &out, keep](std::vector<k8s::object> items) {
        for (auto& o : items)
          if (!keep || keep(o)) out.items.push_back(std::move(o));
        j->done();
      },
      slot_failed(r, j, slot, out));
}

void read_one(const run_ptr& r, const join_ptr& j, const read_slot& slot, slot_result& out, proto::read_from from) {
  ++j->pending;
  issue_read(
      r, slot.cluster, proto::read_item{{slot.gvk, out.namespace_, {}, {}, from, slot.drop}, out.name},
      [j, &out](std::vector<k8s::object> items) {
        out.items = std::move(items);
        j->done();
      },
      slot_failed(r, j, slot, out));
}

// One slot's read; `j` joins its requests.
void read_slot_now(const run_ptr& r, const join_ptr& j, const read_slot& slot) {
  auto& out = r->snap.slots[slot.id];
  out = slot_result{};
  const auto& key = r->snap.key;
  const auto& keys = r->kind->keys;
  switch (slot.mode) {
    case read_mode::children:
      out.read = true;
      out.namespace_ = namespace_of(r, slot.ns);
      if (restamping(r)) return read_and_restamp(r, j, slot, out);
      read_list(r, j, slot, out, order_selector(keys, key),
                [&keys, key](const k8s::object& o) { return labelled_for(o, keys, key); });
      return;
    case read_mode::listed: {
      auto loc = slot.locate ? slot.locate(r->snap) : std::optional<locator>(locator{});
      if (!loc) return;
      out.read = true;
      out.namespace_ = loc->namespace_.value_or(namespace_of(r, slot.ns));
      out.fields = loc->fields;
      read_list(r, j, slot, out, slot.selector, {}, loc->fields);
      return;
    }
    case read_mode::named: {
      auto loc = slot.locate ? slot.locate(r->snap) : std::nullopt;
      if (!loc || loc->name.empty()) return;
      out.read = true;
      out.namespace_ = loc->namespace_.value_or(namespace_of(r, slot.ns));
      out.name = loc->name;
      if (slot.selector.empty() || slot.uncached) {
        if (slot.uncached) out.live = true;
        return read_one(r, j, slot, out, source_of(slot));
      }
      // From the informer of `selector`: listed (through the label index
      // when the object carries the order's labels) and picked by name; not
      // there, the API server when the slot says so.
      auto selector = slot.labelled ? order_selector(keys, key) : slot.selector;
      ++j->pending;
      auto inner = std::make_shared<join>();
      inner->then = [r, j, &slot, &out] {
        if (out.items.empty() && out.served && slot.server_fallback)
          read_one(r, j, slot, out, proto::read_from::server);
        j->done();
      };
      auto name = loc->name;
      auto pick = [name](const k8s::object& o) { return o.name() == name; };
      if (slot.labelled && restamping(r))
        read_and_restamp(r, inner, slot, out, pick);  // the first pass: restamped like the children
      else
        read_list(r, inner, slot, out, std::move(selector), pick);
      inner->done();
      return;
    }
  }
}

// Every object of every read slot as the memo says the actor's own writes
// left it.
void through_memo(const run_ptr& r) {
  auto now = r->ctx.now();
  for (const auto& slot : r->kind->reads) {
    auto& res = r->snap.slots[slot.id];
    if (!res.read || !res.served) continue;
    const auto cluster = r->cluster_name(slot.cluster);
    if (slot.mode == read_mode::named) {
      memo_key k{cluster, slot.gvk.group, slot.gvk.kind, res.namespace_, res.name};
      auto v = r->memo->latest(k, res.items.empty() ? k8s::object{} : res.items.front(), now);
      res.items.clear();
      if (v) res.items.push_back(std::move(v));
      continue;
    }
    res.items = r->memo->latest_list(
        cluster, slot.gvk, res.namespace_, res.items,
        [r, &slot, &res](const k8s::object& o) {
          return slot_holds(slot, res, slot.cluster, o, r->kind->keys, r->snap.key);
        },
        now);
  }
}

// The slots in dependency order: each starts once the slots it names in
// `after` have answered.
void read_slots(const run_ptr& r, std::shared_ptr<std::set<std::string>> done) {
  if (!r->ctx.open()) return;
  const auto& reads = r->kind->reads;
  std::vector<const read_slot*> wave;
  for (const auto& s : reads) {
    if (done->contains(s.id)) continue;
    if (std::all_of(s.after.begin(), s.after.end(), [&](const std::string& a) { return done->contains(a); }))
      wave.push_back(&s);
  }
  if (wave.empty()) {
    if (!r->read_error.empty()) return finish(r, pass_result::failed(r->who() + ": " + r->read_error));
    if (r->restamp) *r->restamp = restamp_read::done;
    through_memo(r);
    return plan_and_act(r);
  }
  auto j = std::make_shared<join>();
  j->then = [r, done, wave] {
    for (const auto* s : wave) done->insert(s->id);
    read_slots(r, done);
  };
  r->queueing = true;
  for (const auto* s : wave) read_slot_now(r, j, *s);
  flush_reads(r);
  j->done();
}

void sense(const run_ptr& r) {
  r->snap.sensed = true;
  read_slots(r, std::make_shared<std::set<std::string>>());
}

void admit(const run_ptr& r) {
  auto& snap = r->snap;
  if (!r->kind->admission) {
    snap.admission.verdict = proto::admission_verdict::admitted;
    snap.home_namespace = snap.key.namespace_;
    return sense(r);
  }
  auto ref_ns = snap.order.get_string({"spec", "controlPlaneRef", "namespace"});
  proto::control_plane_ref cp_ref{ref_ns.empty() ? snap.key.namespace_ : std::string(ref_ns),
                                  std::string(snap.order.get_string({"spec", "controlPlaneRef", "name"}))};
  r->self()
      ->request(r->deps->control_planes, r->timeout(), proto::admission_request{snap.key, cp_ref, r->ctx.host()})
      .then(
          [r, cp_ref](proto::admission_answer& a) {
            auto& s = r->snap;
            s.admission = std::move(a);
            s.control_plane = s.admission.control_plane;
            auto next = [r, cp_ref] {
              auto& s2 = r->snap;
              s2.home_namespace = s2.control_plane ? std::string(s2.control_plane.namespace_()) : cp_ref.namespace_;
              if (s2.admitted() || s2.order.terminating()) return sense(r);
              plan_and_act(r);  // the freeze: nothing in the ControlPlane's namespace is read
            };
            if (s.control_plane) return next();
            // A refused order learns nothing more from the answer; the plan
            // reads the cached ControlPlane for its condition.
            r->self()
                ->request(r->management, r->timeout(),
                          proto::get_request{{r->kind->control_plane_gvk, cp_ref.namespace_, cp_ref.name},
                                             proto::read_from::cache})
                .then(
                    [r, next](k8s::object& cp) {
                      r->snap.control_plane = std::move(cp);
                      next();
                    },
                    [r, next](const caf::error& e) {
                      if (!proto::is_not_found(e) && !proto::is_no_match(e)) return fail(r, e);
                      next();
                    });
          },
          [r](const caf::error& e) { fail(r, e); });
}

}  // namespace

void start(const run_ptr& r) {
  if (!r->snap.order) return finish(r, pass_result::converged());
  // The directory answers a lookup from its memory at once (or the request
  // fails when it is gone): no timeout, for the reason read_timeout gives.
  auto lookup = [r](std::string name, std::function<void(caf::actor)> then) {
    r->self()
        ->request(r->deps->clusters, caf::duration(caf::infinite), proto::lookup_cluster_atom::value, name)
        .then([then](caf::actor a) { then(std::move(a)); },
              [r](const caf::error& e) {
                // The order's cluster is not engaged: no requeue (its
                // engagement brings the order back).
                if (proto::is_not_found(e)) return finish(r, pass_result::converged());
                fail(r, e);
              });
  };
  lookup("", [r, lookup](caf::actor m) {
    r->management = std::move(m);
    if (r->snap.key.cluster.empty()) {
      r->order_cluster = r->management;
      return admit(r);
    }
    lookup(r->snap.key.cluster, [r](caf::actor c) {
      r->order_cluster = std::move(c);
      admit(r);
    });
  });
}

}  // namespace c5c3::runtime::detail
