#include "k8s/object_map.hpp"

#include <utility>

namespace c5c3::k8s {

const object_map::entry& object_map::put(object o, object* replaced) {
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

bool object_map::erase(object_key_view k) {
  auto it = map_.find(k);
  if (it == map_.end()) return false;
  map_.erase(it);
  return true;
}

const object* object_map::find(object_key_view k) const {
  auto it = map_.find(k);
  return it == map_.end() ? nullptr : &it->second;
}

}  // namespace c5c3::k8s
