// The storage of a frozen object (object.hpp): an immutable deep copy of a
// JSON value in one allocation sized to what the copy takes.
//
// A RapidJSON document keeps its values in a MemoryPoolAllocator whose first
// chunk is 64 KiB by default; an informer cache of small objects would cost a
// chunk each. Here the copy is measured first (member and element arrays,
// strings too long for RapidJSON's inline strings), and the pool is a buffer
// of exactly that size placed behind the document in the same allocation. Member
// names longer than the inline strings (`creationTimestamp`,
// `c5c3.io/rabbitmqvhost-name`, ...) are kept once per process in a table of
// names and referenced, not copied: every cached object has the same few dozen
// names. The table is bounded (max_interned_name_bytes); past it, names are
// copied as before, so objects with names from everywhere cannot grow it
// without end. The figures: bench/README.md, "P2: where the operator's
// memory goes".
#pragma once

#include "k8s/json.hpp"

#include <cstddef>

namespace c5c3::k8s {

// Bytes of distinct member names the table keeps at most.
inline constexpr std::size_t max_interned_name_bytes = 256 * 1024;

// The pool behind a value made by compact_copy: bytes used and reserved
// (equal when the measure was exact; a copy whose measure fell short is
// made again in a pool as large as it used).
struct compact_usage {
  std::size_t used = 0;
  std::size_t capacity = 0;
};

// An immutable JSON value in one allocation, shared by a reference count:
// [count and sizes][root value][the pool: members, elements, long strings].
// An object's whole fixed cost is that header and the pool's chunk header
// (56 bytes); a document, its pool allocator and a shared_ptr's control
// block took some 200 bytes per object, in two allocations.
class frozen_json {
 public:
  frozen_json() = default;
  frozen_json(const frozen_json& o) noexcept;
  frozen_json(frozen_json&& o) noexcept : b_(o.b_) { o.b_ = nullptr; }
  frozen_json& operator=(const frozen_json& o) noexcept;
  frozen_json& operator=(frozen_json&& o) noexcept;
  ~frozen_json();

  explicit operator bool() const { return b_ != nullptr; }
  // The value; call only when non-empty.
  const json_value& operator*() const;
  friend bool operator==(const frozen_json& a, const frozen_json& b) { return a.b_ == b.b_; }

 private:
  struct block;
  explicit frozen_json(block* b) : b_(b) {}
  friend frozen_json compact_copy(const json_value& v);
  friend compact_usage usage_of(const json_value& root);
  block* b_ = nullptr;
};

// The compact, shared, immutable copy of `v`.
frozen_json compact_copy(const json_value& v);

// `root`: a value made by compact_copy, e.g. a non-empty object's json().
compact_usage usage_of(const json_value& root);

// Distinct member names in the table so far.
std::size_t interned_names();

}  // namespace c5c3::k8s
