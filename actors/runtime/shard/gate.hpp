// The order host's view of the ring (pure): which orders exist (the latest
// object of each, run by this replica or not), the ring of ready members
// from the membership's latest protocol::shard_view, and the one claim or
// release write in flight per order. The host asks it what to do about an
// order (claim.hpp's decision) and does the I/O itself.
#pragma once

#include "actors/runtime/metrics.hpp"
#include "actors/runtime/shard/claim.hpp"
#include "actors/runtime/shard/lease_fence.hpp"
#include "actors/runtime/shard/scope_cover.hpp"
#include "k8s/object.hpp"
#include "protocol/order.hpp"
#include "protocol/shard.hpp"

#include <caf/actor.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace c5c3::runtime::shard {

// How an order host shards its orders; `me` empty: it does not (every order
// it sees is its own, as with one replica).
struct shard_options {
  std::string me;         // this replica's name (--shard-name)
  caf::actor membership;  // the ring's membership actor (membership.hpp)
  caf::actor clusters;    // the cluster directory: the order's cluster actor for claim writes
  std::string field_manager = "c5c3-operator";
  metrics::registry* registry = nullptr;  // where shard_metrics.hpp's series go (null: none)
  // The ring's write fence (lease_fence.hpp), moved by `membership`: the
  // runner caps every write's deadline by it (null: no cap).
  std::shared_ptr<const lease_fence> fence{};
  // Label-scoped watches (scope.hpp): the order kind's watch and its children
  // slots' watches narrowed to this replica's share, rescoped on every view
  // in which its own Lease is held. false (C5C3_SHARD_WATCH_ALL=1): every
  // replica watches everything.
  bool scope_watches = true;
  // With scope_watches: whose stamps the host's caches show, kept by the host
  // as it rescopes and read by its order actors' first passes (null: none
  // kept; a takeover's first pass reads the API server).
  std::shared_ptr<scope_cover> cover{};
  bool enabled() const { return !me.empty(); }
};

class gate {
 public:
  gate() = default;
  gate(std::string me, k8s::gvk order_kind) : me_(std::move(me)), kind_(std::move(order_kind)) {}

  bool enabled() const { return !me_.empty(); }
  const std::string& me() const { return me_; }
  // A new view; false when it changes nothing.
  bool set_view(const protocol::shard_view& v);
  bool has_view() const { return has_view_; }
  const ring& members() const { return ring_; }

  void record(const protocol::order_key& key, const k8s::object& order) { latest_[key] = order; }
  void forget(const protocol::order_key& key) {
    latest_.erase(key);
    writing_.erase(key);
    confirmed_.erase(key);
  }
  // A claim write of `key` succeeded: the API server confirmed the holder
  // (with the resourceVersion the view had), see decide().
  void confirm(const protocol::order_key& key) { confirmed_.insert(key); }
  const k8s::object* latest(const protocol::order_key& key) const;
  std::vector<protocol::order_key> known() const;

  // What to do about `key` now (ignore before the first view, or while this
  // replica's own Lease is not held: then only drain). Once its own Lease has
  // lapsed, the view of an order may be stale (its watches failed with its
  // renewals: a partition) while another replica took the order over; so
  // after a lapse an order the view says this replica holds is claimed again
  // (the resourceVersion it has as the precondition) before it runs, and runs
  // once that claim succeeded (confirm()).
  decision decide(const protocol::order_key& key, bool actor_running) const;
  std::string ring_key(const protocol::order_key& key) const;
  std::string claim_of(const protocol::order_key& key) const;

  // One claim or release write per order at a time.
  bool begin_write(const protocol::order_key& key) { return writing_.insert(key).second; }
  void end_write(const protocol::order_key& key) { writing_.erase(key); }

  // How many orders the ring gives this replica and how many it holds (label).
  std::size_t owned() const;
  std::size_t held() const;

 private:
  std::string me_;
  k8s::gvk kind_;
  bool has_view_ = false;
  bool self_ready_ = false;
  std::vector<std::string> members_;
  ring ring_;
  std::map<protocol::order_key, k8s::object> latest_;
  std::set<protocol::order_key> writing_;
  bool lapsed_ = false;                      // its own Lease lapsed once (was held, then not)
  std::set<protocol::order_key> confirmed_;  // claimed again since the last lapse
};

}  // namespace c5c3::runtime::shard
