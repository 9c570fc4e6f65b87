// One runner pass in flight (internal to actors/runtime/runner): what it has
// sensed, the plan loop's state, and the two halves that share it
// (sense.cpp: clusters, admission, reads; act.cpp: writes, finalizer, status).
#pragma once

#include "actors/runtime/runner/memo.hpp"
#include "actors/runtime/runner/runner.hpp"
#include "protocol/cluster_io.hpp"

#include <caf/event_based_actor.hpp>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

namespace c5c3::runtime::detail {

enum class restamp_read { done, from_cache, from_server };

struct run_state {
  pass_context ctx;
  std::shared_ptr<const kind_declaration> kind;
  std::shared_ptr<const runner_deps> deps;
  std::shared_ptr<write_memo> memo;
  sense_snapshot snap;
  k8s::object started_with;  // the order as the pass started (order_metrics)
  // The order seen through an answer of this actor's over an older version
  // the cache shows (write_memo::ahead): the pass comes back after the
  // memo's horizon.
  bool order_ahead = false;
  caf::actor management;
  caf::actor order_cluster;
  std::set<std::string> read_live;  // named slots read from the API server this pass
  std::string read_error;           // the first read that failed
  int rounds = 0;
  // What the writes of this pass answered, by object (the message of a plan
  // that does not settle compares against it).
  std::map<memo_key, k8s::object> answers;
  // Sharded: how the actor's next pass reads its children slots (restamp.cpp).
  // Until one of its passes has read every slot, they are read and the
  // children another holder stamped are restamped: from the API server, or
  // from the cache when this replica took the order over from the only
  // holder before it and the caches show that holder's stamps. Done from the
  // start when this replica is the order's only holder ever; from the API
  // server again after a create refused as AlreadyExists (a child the cache
  // did not show). Null: not sharded.
  std::shared_ptr<restamp_read> restamp;
  // The cache reads of the wave being issued, by cluster actor: sent as one
  // protocol::read_batch per cluster once the wave has issued them all
  // (sense.cpp), not one request per slot.
  struct queued_read {
    protocol::read_item item;
    std::function<void(std::vector<k8s::object>)> ok;
    std::function<void(const caf::error&)> err;
  };
  std::vector<std::pair<caf::actor, std::vector<queued_read>>> queued;
  bool queueing = false;

  explicit run_state(pass_context c) : ctx(std::move(c)) {}
  caf::event_based_actor* self() const { return ctx.self(); }
  caf::timespan timeout() const { return deps->timeout; }
  const caf::actor& cluster_of(cluster_role r) const { return r == cluster_role::order ? order_cluster : management; }
  std::string cluster_name(cluster_role r) const { return r == cluster_role::order ? snap.key.cluster : std::string(); }
  // "<Kind> <namespace>/<name>" (and the cluster when not the management one).
  std::string who() const;
  // The kind's log with the order's keys.
  k8s::log::logger log() const;
};
using run_ptr = std::shared_ptr<run_state>;

// Continues once every request counted in `pending` has answered.
struct join {
  int pending = 1;  // the issuer's own hold, released by done()
  std::function<void()> then;
  void done() {
    if (--pending == 0) then();
  }
};
using join_ptr = std::shared_ptr<join>;

void finish(const run_ptr& r, pass_result res);

// The options of a write of this pass: the field manager and the write's
// deadline (runner.hpp write_deadline, capped by the ring's write fence).
protocol::write_options write_opts(const run_ptr& r);

using answer_fn = std::function<void(const k8s::object&)>;
using error_fn = std::function<void(const caf::error&)>;

// Sends a write through `cluster`, counted by the order actor until it
// answers (pass_context::write_sent); `ok` and `err` run only while the pass
// is open (an answer after the pass gave up is ignored).
template <class Request>
void send_write(const run_ptr& r, const caf::actor& cluster, Request req, answer_fn ok, error_fn err) {
  r->ctx.write_sent();
  r->self()
      ->request(cluster, r->timeout(), std::move(req))
      .then(
          [r, ok = std::move(ok)](const k8s::object& o) {
            r->ctx.write_answered();
            if (r->ctx.open()) ok(o);
          },
          [r, err = std::move(err)](const caf::error& e) {
            r->ctx.write_answered();
            if (r->ctx.open()) err(e);
          });
}

// A Conflict is a requeue; every other error fails the pass with its text.
void fail(const run_ptr& r, const caf::error& e);

// sense.cpp
void start(const run_ptr& r);
// restamp.cpp: whether this pass reads its children to restamp them.
inline bool restamping(const run_ptr& r) { return r->restamp && *r->restamp != restamp_read::done; }
// A children slot (or a named slot of an object carrying the order's labels:
// `keep` picks it) read from the API server or the cache (run_state::restamp),
// the objects another holder stamped restamped with this replica's name
// (joined by `j`).
void read_and_restamp(const run_ptr& r, const join_ptr& j, const read_slot& slot, slot_result& out,
                      std::function<bool(const k8s::object&)> keep = {});
// act.cpp
void plan_and_act(const run_ptr& r);

}  // namespace c5c3::runtime::detail
