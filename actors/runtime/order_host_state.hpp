// Private to the order host (order_host.cpp, order_host_shard.cpp): its
// state. order_host.cpp routes events to order actors and retires them;
// order_host_shard.cpp carries out the shard gate's decisions (claims,
// releases, drains) and narrows the watches to this replica's share.
#pragma once

#include "actors/runtime/order_host.hpp"
#include "actors/runtime/parked_record.hpp"
#include "actors/runtime/reference_index.hpp"
#include "actors/runtime/shard/claim.hpp"
#include "actors/runtime/shard/shard_metrics.hpp"
#include "k8s/packed_object.hpp"
#include "k8s/selector.hpp"
#include "protocol/shard.hpp"
#include "protocol/subscription.hpp"

#include <caf/stateful_actor.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace c5c3::runtime::detail {

using protocol::order_key;
// (shard_eval_atom, key): decide about one order again (after a claim write).
using shard_eval_atom = caf::atom_constant<caf::atom("shard_eval")>;
// (park_tick_atom, at): the parked orders' wheel (order_host_park.cpp).
using park_tick_atom = caf::atom_constant<caf::atom("park_tick")>;

struct host_state {
  static inline const char* name = "c5c3.order_host";

  using time_point = caf::actor_clock::time_point;

  struct entry {
    caf::actor actor;  // invalid while parked
    // The order's latest object (last_of): while parked, packed when the
    // host packs (packs()), and then `last` is empty.
    k8s::object last;
    k8s::packed_object packed_last;
    bool terminating = false;  // the latest object's, read without unpacking it
    bool retiring = false;
    std::optional<k8s::object> respawn;  // the order came back while retiring
    // The order's pass (its closure: the runner's memo), kept while parked.
    pass_fn pass;
    // Parking (order_host_park.cpp): agreed, the actor's parked_order not
    // read yet; what would have gone to the actor meanwhile is held.
    bool parking = false;
    std::optional<protocol::wake_cause> held_wake;  // a wake-up held, by its cause
    std::vector<protocol::order_update> held;
    // Parked: what the actor left (its probe, compacted), and when its
    // earliest timer is due.
    std::optional<parked_record> parked;
    std::optional<time_point> due;
  };

  caf::stateful_actor<host_state>* self = nullptr;
  order_host_config cfg;
  std::optional<k8s::label_selector> order_selector;  // parsed cfg.order_selector (nullopt: every object)
  std::map<order_key, entry> orders;
  std::map<caf::actor_id, order_key> by_id;  // live order actors (down messages, timer relays)
  // The cluster actors of disengaged clusters whose last events may still
  // come: sent before they stopped, those come by another way than the news
  // and would bring the gone cluster's orders back. Ignored until the
  // actor's down message is read: nothing it sent is queued behind that. (An
  // actor already destroyed has nothing queued: a message keeps its sender.)
  std::vector<caf::actor_addr> stale_sources;
  // cfg.references: what an order names -> the orders naming it.
  reference_index named_by;
  std::uint64_t spawned = 0;
  std::uint64_t retired = 0;
  std::uint64_t filtered = 0;
  std::uint64_t unrouted = 0;
  std::uint64_t unchanged_children = 0;
  std::uint64_t referenced_wakes = 0;
  std::uint64_t parked_now = 0;
  parked_shapes shapes;  // what the parked orders' probes share
  // The parked orders' latest objects, packed with a dictionary of their own
  // (k8s/packed_object.hpp): a running order's actor shares its object's
  // document with the entry, a parked one's is the entry's alone.
  k8s::object_packer packer;
  std::uint64_t parks = 0;
  std::uint64_t unparks = 0;
  // The parked orders' due timers, earliest first (the keys are the
  // orders map's own), and the wheel's ticks on their way.
  std::set<std::pair<time_point, const order_key*>> wheel;
  std::multiset<time_point> wheel_ticks;
  bool stopping = false;
  std::vector<caf::response_promise> stop_waiters;
  shard::gate gate;  // disabled unless cfg.shard.me
  std::unique_ptr<shard::shard_metrics> sm;  // sharded with a registry
  std::chrono::steady_clock::time_point view_changed;
  std::map<order_key, std::chrono::steady_clock::time_point> claimed;  // since the view change that moved it
  std::map<order_key, int> claim_failures;  // failed claims or releases in a row, per order
  shard::scope scope;  // the watch scope last asked for (shard/scope.hpp)
  // Rescopes asked (protocol::rescope_request); the last is answered once
  // every subscription moved, and then settles cfg.shard.cover.
  std::uint64_t rescopes = 0;

  controller_metrics* m() const { return cfg.metrics.get(); }

  ~host_state();

  void sample();

  bool is_order(const k8s::object& o) const;

  // The orders naming `obj` (of a referenced kind) on `cluster`; `old` the
  // previous version of a modification; `self_key` an order of this kind
  // whose own event it is.
  bool wake_referencing(const k8s::object& obj, const k8s::object& old, const std::string& cluster,
                        const order_key* self_key = nullptr);

  // Whether parked orders' objects are packed: not when a wake rule reads
  // every order's object on each event of its kind (cfg.wakes).
  bool packs() const { return cfg.wakes.empty(); }
  k8s::object last_of(const entry& e) const { return e.packed_last ? packer.unpack(e.packed_last) : e.last; }
  // The order's latest object is `o` (packed if the order is parked).
  void keep_last(entry& e, const k8s::object& o);
  // At parking and unparking (order_host_park.cpp).
  void pack_last(entry& e);
  void unpack_last(entry& e);

  void spawn(const order_key& key, const k8s::object& obj);
  // A monitored order actor running `pass` (`resume`: the parked order's probe).
  caf::actor start_actor(const order_key& key, pass_fn pass, std::shared_ptr<const protocol::order_probe> resume);

  // To the order's actor, or held while it parks; a wake-up of a parked
  // order spawns its actor again (order_host_park.cpp).
  void deliver(entry& e, const order_key& key, protocol::order_update u);
  // Retires the order's actor; a parked order is gone at once.
  void retire(std::map<order_key, entry>::iterator i);
  // The actor agreed to park (park_atom) and answered (parked_order).
  bool park_asked(const order_key& key, const caf::actor_addr& from);
  void park_answered(protocol::parked_order& p, const caf::actor_addr& from);
  void unpark(const order_key& key, entry& e, protocol::wake_cause cause);
  void wheel_add(const order_key& key, entry& e, time_point due);  // `key`: the orders map's own
  void wheel_remove(entry& e, const order_key& key);
  void wheel_tick(time_point at);
  void wheel_arm();

  void on_order_event(const protocol::object_event& ev);

  // Sharded: carry out a decision other than keep for the order's latest object.
  void act(const order_key& key, shard::decision d);

  // Scoped watches follow the ready members, but only while this replica's
  // own Lease is held (a stale view must not widen or narrow them).
  void rescope(const protocol::shard_view& v);
  // The answer to rescope number `n` (`ok`: every move complete).
  void rescoped(std::uint64_t n, bool ok);

  void evaluate(const order_key& key);

  // Wakes the order's actor (unparks a parked one). `child`: the event of
  // one of its children that wakes it, which a running actor is handed so
  // that the echo of its own write wakes no pass (protocol::child_update).
  bool wake(const order_key& key, const protocol::object_event* child = nullptr);
  bool show_version(const order_key& key, const protocol::object_event& ev);

  // The wake rules of the event's kind: every order of its cluster whose
  // latest object a rule relates to the event's object (either version).
  bool wake_related(const protocol::object_event& ev);

  // The order `obj` belongs to: its ownership labels or controller, else the
  // first reference field of its kind that names one.
  // A reference read only while deleting names no order that is not.
  std::optional<order_key> order_of_event_object(const k8s::object& obj, const std::string& cluster) const;

  void on_child_event(const protocol::object_event& ev);

  // Every order of `cluster` is gone from view (the cluster was disengaged,
  // or stopped serving the order kind): retire their actors.
  void retire_cluster(const std::string& cluster);
  // The cluster was disengaged: retire its orders, ignore its actor from now.
  void disengaged(const protocol::cluster_disengaged& c);
  bool is_stale(const caf::strong_actor_ptr& sender) const;
  // Its actor's last events are read: forget it. False: not a stale source.
  bool stale_done(const caf::actor_addr& source);

  void on_down(const caf::down_msg& dm);
  // The order's actor is gone (or it was parked and retired): forget it,
  // and spawn it again, release it or finish the stop as the host is.
  void gone(std::map<order_key, entry>::iterator i);

  void finish_stop();

  protocol::host_probe probe() const;
};

}  // namespace c5c3::runtime::detail
