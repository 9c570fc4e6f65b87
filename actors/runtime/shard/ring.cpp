#include "actors/runtime/shard/ring.hpp"

#include <algorithm>

namespace c5c3::runtime::shard {

std::uint64_t stable_hash(std::string_view s) {
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a 64 offset basis
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;  // FNV-1a 64 prime
  }
  // splitmix64 finaliser
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 31;
  return h;
}

std::string order_ring_key(std::string_view cluster, std::string_view group, std::string_view kind,
                           std::string_view namespace_, std::string_view name) {
  std::string k;
  k.reserve(cluster.size() + group.size() + kind.size() + namespace_.size() + name.size() + 4);
  k.append(cluster).append("/").append(group).append("/").append(kind).append("/");
  k.append(namespace_).append("/").append(name);
  return k;
}

ring::ring(std::vector<std::string> members, int virtual_nodes) {
  members.erase(std::remove(members.begin(), members.end(), std::string{}), members.end());
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  members_ = std::move(members);
  points_.reserve(members_.size() * static_cast<std::size_t>(std::max(virtual_nodes, 1)));
  for (std::uint32_t m = 0; m < members_.size(); ++m)
    for (int i = 0; i < std::max(virtual_nodes, 1); ++i)
      points_.emplace_back(stable_hash(members_[m] + "#" + std::to_string(i)), m);
  // Ties (vanishingly rare) break by member name's index, the same everywhere.
  std::sort(points_.begin(), points_.end());
}

const std::string& ring::owner(std::string_view key) const {
  static const std::string none;
  if (points_.empty()) return none;
  auto h = stable_hash(key);
  auto it = std::lower_bound(points_.begin(), points_.end(), std::make_pair(h, std::uint32_t{0}));
  if (it == points_.end()) it = points_.begin();
  return members_[it->second];
}

}  // namespace c5c3::runtime::shard
