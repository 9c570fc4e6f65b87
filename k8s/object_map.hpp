// Objects by key, the key kept as views into each object's own document.
//
// A cache keyed by object_key holds two strings besides every object, and
// the names of an order's children are longer than a std::string's inline
// buffer: a map node of 104 bytes and a name on the heap per cached object.
// Here a node holds the object's pointer and two views into its frozen
// document (72 bytes), which cannot move or change while the node holds the
// object. An entry replaced by put() keeps its node, so a pointer to an
// entry (an index's) stays valid until the entry is erased.
#pragma once

#include "k8s/object.hpp"

#include <cstddef>
#include <map>
#include <string_view>

namespace c5c3::k8s {

struct object_key_view {
  std::string_view namespace_;
  std::string_view name;
  friend bool operator==(const object_key_view&, const object_key_view&) = default;
  friend auto operator<=>(const object_key_view&, const object_key_view&) = default;
};
inline object_key_view view_of(const object_key& k) { return {k.namespace_, k.name}; }
inline object_key_view view_of(const object& o) { return {o.namespace_(), o.name()}; }

class object_map {
 public:
  using map_type = std::map<object_key_view, object>;
  using entry = map_type::value_type;
  using const_iterator = map_type::const_iterator;

  // Inserts `o`, or replaces the object of its key in the same entry; the
  // object replaced goes to `replaced` (left empty on an insert).
  const entry& put(object o, object* replaced = nullptr);
  // Removes the object of `k`; whether there was one.
  bool erase(object_key_view k);
  const object* find(object_key_view k) const;
  bool contains(object_key_view k) const { return map_.count(k) != 0; }
  const_iterator lower_bound(object_key_view k) const { return map_.lower_bound(k); }

  const_iterator begin() const { return map_.begin(); }
  const_iterator end() const { return map_.end(); }
  std::size_t size() const { return map_.size(); }
  bool empty() const { return map_.empty(); }

 private:
  map_type map_;
};

}  // namespace c5c3::k8s
