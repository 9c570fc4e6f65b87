// Objects by key, the key kept as views into each object's own document.
//
// A cache keyed by object_key holds two strings besides every object, and
// the names of an order's children are longer than a std::string's inline
// buffer: a map node of 104 bytes and a name on the heap per cached object.
// Here a node holds the object's pointer and two views into its frozen
// document (72 bytes), which cannot move or change while the node holds the
// object. A value whose key reads straight from it (key_in_value: a packed
// object's names are in its header) is kept alone in its node, the key read
// from it on each comparison (40 bytes). An entry replaced by put() keeps its
// node, so a pointer to an entry (an index's) stays valid until the entry is
// erased. basic_object_map<V> holds any V with namespace_() and name() as
// views into itself; key(entry) and value(entry) read an entry either way.
#pragma once

#include "k8s/object.hpp"

#include <cstddef>
#include <map>
#include <set>
#include <string_view>
#include <type_traits>

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

// Whether V's namespace and name read from it without a lookup (a header,
// not a document's members): then its map keeps no views beside it.
template <class V>
inline constexpr bool key_in_value = false;

template <class V>
class basic_object_map {
  struct by_key {
    using is_transparent = void;
    bool operator()(const V& a, const V& b) const { return view_of(a) < view_of(b); }
    bool operator()(const V& a, const object_key_view& b) const { return view_of(a) < b; }
    bool operator()(const object_key_view& a, const V& b) const { return a < view_of(b); }
  };

 public:
  using map_type = std::conditional_t<key_in_value<V>, std::set<V, by_key>, std::map<object_key_view, V>>;
  using entry = typename map_type::value_type;
  using const_iterator = typename map_type::const_iterator;

  static object_key_view key(const entry& e) {
    if constexpr (key_in_value<V>)
      return view_of(e);
    else
      return e.first;
  }
  static const V& value(const entry& e) {
    if constexpr (key_in_value<V>)
      return e;
    else
      return e.second;
  }

  // Inserts `o`, or replaces the object of its key in the same entry; the
  // object replaced goes to `replaced` (left empty on an insert).
  const entry& put(V o, V* replaced = nullptr) {
    auto it = map_.find(view_of(o));
    if (it == map_.end()) {
      if constexpr (key_in_value<V>) {
        return *map_.insert(std::move(o)).first;
      } else {
        // The views are into the document `o` shares with the node's copy.
        object_key_view k = view_of(o);
        return *map_.emplace(k, std::move(o)).first;
      }
    }
    // The node leaves the map and comes back with the new object (and its
    // views: the old views point into the old document, which it may free).
    auto node = map_.extract(it);
    if constexpr (key_in_value<V>) {
      if (replaced) *replaced = std::move(node.value());
      node.value() = std::move(o);
    } else {
      if (replaced) *replaced = std::move(node.mapped());
      node.mapped() = std::move(o);
      node.key() = view_of(node.mapped());
    }
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
    return it == map_.end() ? nullptr : &value(*it);
  }
  bool contains(object_key_view k) const { return map_.find(k) != map_.end(); }
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
  using MA = basic_object_map<A>;
  using MB = basic_object_map<B>;
  while (x != a.end() || y != b.end()) {
    if (y == b.end() || (x != a.end() && MA::key(*x) < MB::key(*y))) {
      on(&MA::value(*x), static_cast<const B*>(nullptr));
      ++x;
    } else if (x == a.end() || MB::key(*y) < MA::key(*x)) {
      on(static_cast<const A*>(nullptr), &MB::value(*y));
      ++y;
    } else {
      on(&MA::value(*x), &MB::value(*y));
      ++x;
      ++y;
    }
  }
}

}  // namespace c5c3::k8s
