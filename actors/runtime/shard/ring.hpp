// The consistent-hash ring the replicas of a sharded operator compute, each
// from the same live Leases (pure). An order's key is its cluster, kind,
// namespace and name ("cluster/group/Kind/namespace/name"), so every
// replica places it on the same member, and its children, which follow the
// order, land there too.
//
// The hash is fixed by definition (never std::hash): 64-bit FNV-1a over the
// bytes, then splitmix64's finaliser to spread FNV's weak low bits. Each
// member has `virtual_nodes` points on the ring, at the hashes of
// "<member>#<i>"; a key belongs to the member of the first point at or after
// its hash (wrapping). A member joining or leaving moves only the keys
// between its points and their predecessors: about 1/N of them, and only to
// or from that member.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace c5c3::runtime::shard {

inline constexpr int default_virtual_nodes = 256;

std::uint64_t stable_hash(std::string_view s);

// The ring key of an order.
std::string order_ring_key(std::string_view cluster, std::string_view group, std::string_view kind,
                           std::string_view namespace_, std::string_view name);

class ring {
 public:
  ring() = default;
  // Members in any order, duplicates ignored; "" is not a member.
  explicit ring(std::vector<std::string> members, int virtual_nodes = default_virtual_nodes);

  bool empty() const { return members_.empty(); }
  const std::vector<std::string>& members() const { return members_; }  // sorted, unique
  // The member owning `key`; "" on an empty ring.
  const std::string& owner(std::string_view key) const;

 private:
  std::vector<std::string> members_;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> points_;  // hash -> member index, sorted
};

}  // namespace c5c3::runtime::shard
