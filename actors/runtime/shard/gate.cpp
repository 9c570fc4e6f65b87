#include "actors/runtime/shard/gate.hpp"

#include "actors/runtime/shard/lease_state.hpp"

namespace c5c3::runtime::shard {

bool gate::set_view(const protocol::shard_view& v) {
  if (has_view_ && v.members == members_ && v.self_ready == self_ready_) return false;
  if (has_view_ && self_ready_ && !v.self_ready) {
    lapsed_ = true;
    confirmed_.clear();
  }
  has_view_ = true;
  self_ready_ = v.self_ready;
  members_ = v.members;
  ring_ = ring(members_);
  return true;
}

const k8s::object* gate::latest(const protocol::order_key& key) const {
  auto i = latest_.find(key);
  return i == latest_.end() ? nullptr : &i->second;
}

std::vector<protocol::order_key> gate::known() const {
  std::vector<protocol::order_key> out;
  out.reserve(latest_.size());
  for (const auto& [k, o] : latest_) out.push_back(k);
  return out;
}

std::string gate::ring_key(const protocol::order_key& key) const {
  return order_ring_key(key.cluster, kind_.group, kind_.kind, key.namespace_, key.name);
}

std::string gate::claim_of(const protocol::order_key& key) const {
  const auto* o = latest(key);
  return o ? std::string(o->label(claim_label).value_or("")) : std::string();
}

decision gate::decide(const protocol::order_key& key, bool actor_running) const {
  if (!has_view_ || !self_ready_) return actor_running ? decision::drain : decision::ignore;
  auto rk = ring_key(key);
  auto claim = claim_of(key);
  auto d = shard::decide({me_, ring_, rk, claim, actor_running});
  if (d == decision::keep && lapsed_ && !confirmed_.contains(key)) return decision::claim;
  return d;
}

std::size_t gate::owned() const {
  std::size_t n = 0;
  if (ring_.empty()) return 0;
  for (const auto& [k, o] : latest_)
    if (ring_.owner(ring_key(k)) == me_) ++n;
  return n;
}

std::size_t gate::held() const {
  std::size_t n = 0;
  for (const auto& [k, o] : latest_)
    if (o.label(claim_label).value_or("") == me_) ++n;
  return n;
}

}  // namespace c5c3::runtime::shard
