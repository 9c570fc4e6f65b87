#include "sim/world/kv_store.hpp"

namespace c5c3::sim::world {

void kv_store::put(std::string_view key, kv_entry value) {
  std::lock_guard lock(mu_);
  ++writes_;
  entries_[std::string(key)] = std::move(value);
}

void kv_store::merge(std::string_view key, const kv_entry& value) {
  std::lock_guard lock(mu_);
  ++writes_;
  auto& e = entries_[std::string(key)];
  for (const auto& [k, v] : value) e[k] = v;
}

void kv_store::remove(std::string_view key) {
  std::lock_guard lock(mu_);
  ++writes_;
  entries_.erase(std::string(key));
}

std::optional<kv_entry> kv_store::get(std::string_view key) const {
  std::lock_guard lock(mu_);
  auto it = entries_.find(std::string(key));
  if (it == entries_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> kv_store::keys() const {
  std::lock_guard lock(mu_);
  std::vector<std::string> out;
  for (const auto& [k, v] : entries_) out.push_back(k);
  return out;
}

std::size_t kv_store::writes() const {
  std::lock_guard lock(mu_);
  return writes_;
}

}  // namespace c5c3::sim::world
