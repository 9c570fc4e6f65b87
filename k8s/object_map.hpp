// Objects by key, the key kept as views into each object's own document.
//
// A cache keyed by object_key holds two strings besides every object, and
// the names of an order's children are longer than a std::string's inline
// buffer: a map node of 104 bytes and a name on the heap per cached object.
// Here a node holds the object's pointer and two views into its frozen
// document (72 bytes), which cannot move or change while the node holds the
// object. An entry replaced by put() keeps its node, so a pointer to an
// entry (an index's) stays valid until the entry is erased. The same map
// holds packed objects (packed_object.hpp), whose names are readable as
// they are: basic_object_map<V> for any V with namespace_() and name() as
// views into itself.
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
template <class V>
object_key_view view_of(const V& o) {
  return {o.namespace_(), o.name()};
}

template <class V>
class basic_object_map {
 public:
  using map_type = std::map<object_key_view, V>;
  using entry = map_type::value_type;
  using const_iterator = map_type::const_iterator;

  // Inserts `o`, or replaces the object of its key in the same entry; the
  // object replaced goes to `replaced` (left empty on an insert).
  const entry& put(V o, V* replaced = nullptr) {
    auto it = map_.find(view_of(o));
    if (it == map_.end()) {
      // The views are into the document `o` shares with the node's copy.
      object_key_view k = view_of(o);
      return *map_.emplace(k, std::move(o)).first;
    }
    // The node leaves the map and comes back with the new object and its
    // views: the old views point into the old document, which it may free.
    auto node = map_.extract(it);
    if (replaced) *replaced = std::move(node.mapped());
    node.mapped() = std::move(o);
    node.key() = view_of(node.mapped());
    return *map_.insert(std::move(node)).position;
  }
  // Removes the object of `k`; whether there was one.
  bool erase(object_key_view k) {
    auto it = map_.find(k);
    if (it == map_.end()) return false;
    map_.erase(it);
    return true;
  }
  const V* find(object_key_view k) const {
    auto it = map_.find(k);
    return it == map_.end() ? nullptr : &it->second;
  }
  bool contains(object_key_view k) const { return map_.count(k) != 0; }
  const_iterator lower_bound(object_key_view k) const { return map_.lower_bound(k); }

  const_iterator begin() const { return map_.begin(); }
  const_iterator end() const { return map_.end(); }
  std::size_t size() const { return map_.size(); }
  bool empty() const { return map_.empty(); }

 private:
  map_type map_;
};

using object_map = basic_object_map<object>;

// Walks `a` and `b` together in key order: `on(x, y)` once per key of
// either, with nullptr for the side without it.
template <class A, class B, class F>
void walk_together(const basic_object_map<A>& a, const basic_object_map<B>& b, F&& on) {
  auto x = a.begin();
  auto y = b.begin();
  while (x != a.end() || y != b.end()) {
    if (y == b.end() || (x != a.end() && x->first < y->first)) {
      on(&x->second, static_cast<const B*>(nullptr));
      ++x;
    } else if (x == a.end() || y->first < x->first) {
      on(static_cast<const A*>(nullptr), &y->second);
      ++y;
    } else {
      on(&x->second, &y->second);
      ++x;
      ++y;
    }
  }
}

}  // namespace c5c3::k8s
