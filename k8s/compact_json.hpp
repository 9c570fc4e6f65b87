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
#include <memory>

namespace c5c3::k8s {

// Bytes of distinct member names the table keeps at most.
inline constexpr std::size_t max_interned_name_bytes = 256 * 1024;

// The compact, shared, immutable copy of `v`.
std::shared_ptr<const json_document> compact_copy(const json_value& v);

// The pool behind a value made by compact_copy: bytes used and reserved
// (equal when the measure was exact; a pool that overflowed its buffer has
// more reserved than used).
struct compact_usage {
  std::size_t used = 0;
  std::size_t capacity = 0;
};
// `root`: a document made by compact_copy, e.g. a non-empty object's json().
compact_usage usage_of(const json_value& root);

// Distinct member names in the table so far.
std::size_t interned_names();

}  // namespace c5c3::k8s
