// The cluster actor's state, shared by its parts (internal to actors/cluster):
// cluster_actor.cpp (requests, subscribe, the behavior), informers.cpp (the
// shared informers, their subscriptions, optional kinds, cache lookup) and
// rescope.cpp (scoped subscriptions moving to a new scope).
#pragma once

#include "actors/cluster/crd.hpp"
#include "actors/cluster/informer_cache.hpp"
#include "actors/cluster/reachability.hpp"
#include "actors/runtime/metrics.hpp"
#include "actors/runtime/order_log.hpp"
#include "k8s/client/client.hpp"
#include "k8s/client/informer.hpp"
#include "k8s/log.hpp"
#include "protocol/cluster_io.hpp"
#include "protocol/subscription.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <caf/all.hpp>

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace c5c3::cluster::detail {

// Completions from the io thread, sent back to the actor (never delivered there).
struct op_done {
  std::uint64_t id = 0;
  bool ok = false;
  k8s::object obj;
  protocol::object_list list;
  std::vector<k8s::gvk> kinds;
  k8s::api_error err;
};

// What an informer (without a store of its own: the entry's cache is the
// one) hands the actor: a list or relist whole, a watched object added or
// modified, one deleted, synced, an error.
enum class inf_kind : std::uint8_t { listed, upserted, deleted, synced, error };

struct inf_event {
  std::uint64_t informer = 0;
  inf_kind kind = inf_kind::upserted;
  k8s::object obj;
  std::vector<k8s::object> items;  // inf_kind::listed
  std::string error;               // inf_kind::error: what the list or watch met
};

}  // namespace c5c3::cluster::detail

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::cluster::detail::op_done)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::cluster::detail::inf_event)

namespace c5c3::cluster::detail {

using weak_self = caf::weak_actor_ptr;

template <class T>
void send_to(const weak_self& w, T msg) {
  if (auto s = w.lock()) caf::anon_send(caf::actor_cast<caf::actor>(s), std::move(msg));
}

// The io_context, its thread and the client living on it.
struct io_engine {
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work{io.get_executor()};
  std::thread thread;
  std::shared_ptr<k8s::client> client;

  io_engine() : thread([this] { io.run(); }) {}
  void shutdown() {
    work.reset();
    io.stop();
    if (thread.joinable()) thread.join();
    client.reset();
  }
};

// Stops the engine (from any thread, its own included).
void release_engine(std::unique_ptr<io_engine> e);

struct informer_entry {
  informer_key key;
  std::shared_ptr<k8s::informer> inf;
  std::set<std::uint64_t> subs;
  std::set<std::uint64_t> pending;  // subscriptions moving here once it has its list (rescope)
  bool synced = false;
  bool internal = false;  // the CRD watch of optional kinds
  informer_cache cache;   // as the subscribers have seen it: the informer keeps no store of its own
  // c5c3_informer_events_total of this cluster and kind: added, modified, deleted.
  std::array<runtime::metrics::counter*, 3> events{};
};

struct subscription {
  protocol::subscribe_request req;  // req.scope: the latest scope asked for
  std::uint64_t informer = 0;       // 0: not attached (an optional kind not served)
  bool synced_sent = false;
  bool resolved = false;            // discovery answered: attached, or an optional kind not served
  std::uint64_t moving_to = 0;      // a rescope's informer, until it has its list
};

struct cluster_state {
  std::string name;
  std::shared_ptr<reachability_observer> reach;  // in front of the client's observer
  std::string last_error;                        // the last failure met, for health_atom
  k8s::log::logger log;                          // with "cluster"
  runtime::change_memory logged;                 // informer and lookup errors, once per change
  std::set<caf::actor_addr> monitored;  // subscribers whose death drops their subscriptions
  std::unique_ptr<io_engine> engine;
  weak_self self_ref;
  std::uint64_t next_id = 1;
  std::map<std::uint64_t, std::function<void(op_done&)>> pending;
  std::map<std::uint64_t, informer_entry> informers;
  std::map<informer_key, std::uint64_t> by_key;
  std::map<std::uint64_t, subscription> subs;
  std::uint64_t crd_informer = 0;
  // Rescope requests answered once none of their subscriber's subscriptions
  // is still moving (rescope.cpp).
  std::vector<std::pair<caf::actor_addr, caf::response_promise>> rescope_waiters;
  bool stopping = false;  // told to exit: pending requests are failed, nothing retried or logged

  ~cluster_state() {
    for (auto& [id, e] : informers) {
      if (e.inf) e.inf->stop();
    }
    informers.clear();
    release_engine(std::move(engine));
  }
};

using self_ptr = caf::stateful_actor<cluster_state>*;

// informers.cpp
// The informer of `key`, started unless one runs.
std::uint64_t start_informer(self_ptr self, const informer_key& key);
// Stops `iid` when no subscription uses it or moves to it.
void stop_if_unused(self_ptr self, std::uint64_t iid);
// The informer key a subscription asks for (its latest scope).
informer_key key_of(const subscription& sub);
void attach(self_ptr self, std::uint64_t sid);
void detach(self_ptr self, std::uint64_t sid);
void ensure_crd_watch(self_ptr self);
void on_informer_event(self_ptr self, inf_event& ev);
// A synced informer whose cache answers a read of `gvk` in `ns` with `selector`
// by a reader doing without the fields `accepted` (canonical: the informer's
// projection drops none besides them; an unscoped one preferred).
const informer_entry* cache_for(const cluster_state& st, const k8s::gvk& gvk, const std::string& ns,
                                const std::string& selector, const std::vector<std::string>& accepted);
// A synced informer whose cache holds every object a list with the narrower
// `request` selects (informer_cache::covers; as above for `accepted`).
const informer_entry* covering_cache(const cluster_state& st, const k8s::gvk& gvk, const std::string& ns,
                                     const k8s::label_selector& request, const std::vector<std::string>& accepted);
void drop_subscriber(self_ptr self, const caf::actor_addr& who);
bool all_synced(const cluster_state& st);

// cache_reads.cpp
// A read answered from the caches at once: the object or objects, not found
// (a get the covering cache does not hold), or `uncached` (the API server
// must answer it: read_from::server, or no synced cache covers it).
protocol::read_result read_cached(const cluster_state& st, const protocol::get_request& r);
protocol::read_result read_cached(const cluster_state& st, const protocol::list_request& r);
// Each item of a batch so (protocol::read_batch).
protocol::read_batch_answer read_cached(const cluster_state& st, const protocol::read_batch& b);

// rescope.cpp
// Moves `subscriber`'s scoped subscriptions to `scope` (protocol::rescope_request).
void rescope(self_ptr self, const caf::actor& subscriber, const std::string& scope);
// Informer `iid` has its list: the subscriptions moving to it move now.
void complete_moves(self_ptr self, std::uint64_t iid);
// Drops the move of `sid` in progress, if any.
void cancel_move(self_ptr self, std::uint64_t sid);
// Whether a subscription of `subscriber` is still moving.
bool moving(const cluster_state& st, const caf::actor_addr& subscriber);
// Answers the rescope requests whose subscriber has nothing moving any more.
void answer_rescopes(self_ptr self);

}  // namespace c5c3::cluster::detail
