// The key-value store standing in for OpenBao: each remote key holds a map of
// strings (the pushed Secret's keys and decoded values). Thread-safe; tests
// read it.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim::world {

using kv_entry = std::map<std::string, std::string>;

class kv_store {
 public:
  // Replaces the entry at `key` (every key of the map).
  void put(std::string_view key, kv_entry value);
  // Merges `value` into the entry at `key` (one property pushed).
  void merge(std::string_view key, const kv_entry& value);
  void remove(std::string_view key);
  std::optional<kv_entry> get(std::string_view key) const;
  std::vector<std::string> keys() const;
  std::size_t writes() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, kv_entry> entries_;
  std::size_t writes_ = 0;
};

}  // namespace c5c3::sim::world
