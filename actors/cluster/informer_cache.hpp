// The objects one informer has delivered, as the cluster actor answers cache
// reads from them (pure; no actor). Besides reads with the informer's own
// label selector, it answers a list whose selector is narrower than the
// informer's: every requirement of the informer's selector appears in the
// request's, or the informer asks only that a key exists and the request
// pins that key's value. A list pinning label values (`key=value`, or `in`
// with one value) is answered from a label index (key -> value -> objects,
// every namespace together) on one of the pinned keys: the informer's first
// `exists` key, kept from the start, or another, built on the first list
// pinning it and kept by put and erase after it; an order listing its own
// children out of every order's children touches only its own. A list
// pinning nothing (only `!=`, `notin`, `exists`...) scans, in a namespace
// only that namespace's objects.
// A list with a field selector of equalities (`spec.userRef.name=alice,...`)
// is answered from an index on those fields in the namespace, built on the
// first such list and kept by put and erase after it (controller-runtime's
// field indexer): a KeystoneRoleAssignment's duplicate rule reads its few
// peers, not its namespace's thousands.
// The objects are kept packed (k8s/packed_object.hpp: compressed with a
// dictionary of the cache's own latest objects, about a tenth of a frozen
// document) and unpacked for each read; an index keeps its label or field
// values beside the packed entries it points at.
#pragma once

#include "k8s/client/informer.hpp"
#include "k8s/object.hpp"
#include "k8s/object_map.hpp"
#include "k8s/packed_object.hpp"
#include "k8s/selector.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace c5c3::cluster {

class informer_cache {
 public:
  explicit informer_cache(const std::string& label_selector = {});
  // The indexes point at the store's keys: a move keeps the nodes, a copy
  // would not.
  informer_cache(const informer_cache&) = delete;
  informer_cache& operator=(const informer_cache&) = delete;
  informer_cache(informer_cache&&) = default;
  informer_cache& operator=(informer_cache&&) = default;

  // Stores `o`; the object it replaced (empty when it is new).
  k8s::object put(const k8s::object& o);
  // The object removed (empty when there was none).
  k8s::object erase(const k8s::object_key& key);
  // The object of `key` (empty when there is none).
  k8s::object get(const k8s::object_key& key) const;
  // The resourceVersion of `key`'s object, read without unpacking it.
  std::optional<std::string_view> version(const k8s::object_key& key) const;
  std::size_t size() const { return store_.size(); }
  // Every object, in key order.
  std::vector<k8s::object> all() const;
  // What `listed` (a relist) adds, changes and removes.
  k8s::list_difference difference(const k8s::object_map& listed) const;
  // From `seen` to `now`, in key order: calls `on` with each object that
  // only `seen` holds (now empty), only `now` holds (was empty), or both at
  // another resourceVersion.
  static void compare(const informer_cache& seen, const informer_cache& now,
                      const std::function<void(const k8s::object& was, const k8s::object& now)>& on);
  // The bytes of the packed objects and of the packer's dictionary.
  std::size_t packed_bytes() const;

  // Whether a list with `request` can be answered from this cache (the
  // informer's selector is implied by the request's).
  bool covers(const k8s::label_selector& request) const;
  // The objects in `ns` ("" all) matching `request`; call when covers().
  std::vector<k8s::object> list(const std::string& ns, const k8s::label_selector& request) const;
  // The same, narrowed by `fields`; equalities only (and a namespace): from
  // the field index. Otherwise (a `!=`, every namespace) a filtered scan.
  std::vector<k8s::object> list(const std::string& ns, const k8s::label_selector& request,
                                const k8s::field_selector& fields) const;
  // Field indexes built so far (each a set of field paths).
  std::size_t field_indexes() const { return field_index_.size(); }
  // Label keys indexed so far.
  std::size_t label_indexes() const { return label_index_.size(); }

 private:
  k8s::label_selector selector_;
  k8s::object_packer packer_;
  using store_type = k8s::basic_object_map<k8s::packed_object>;
  store_type store_;
  // Objects of an index: store_'s entries (an entry stays where it is until
  // erased, put() included; erase() and put() unindex first), in key order,
  // as a scan gives them. Pointers, not copies: an order's children are in
  // one index or two.
  using entry = store_type::entry;
  struct key_less {
    using is_transparent = void;
    bool operator()(const entry* a, const entry* b) const { return store_type::key(*a) < store_type::key(*b); }
    bool operator()(const entry* a, const k8s::object_key_view& b) const { return store_type::key(*a) < b; }
    bool operator()(const k8s::object_key_view& a, const entry* b) const { return a < store_type::key(*b); }
  };
  using key_set = std::set<const entry*, key_less>;
  // Per label key, its objects ordered by a hash of their value, then by
  // key: a value's objects are an equal range of its hash, in key order, at
  // one node of 16 bytes each (a map of values to sets took four times
  // that). Values whose hashes collide share a range; list() matches every
  // object it reads against the request anyway.
  struct posting {
    std::uint64_t hash;
    const entry* e;
  };
  struct posting_less {
    using is_transparent = void;
    using probe = std::pair<std::uint64_t, k8s::object_key_view>;
    static probe of(const posting& p) { return {p.hash, store_type::key(*p.e)}; }
    bool operator()(const posting& a, const posting& b) const { return of(a) < of(b); }
    bool operator()(const posting& a, const probe& b) const { return of(a) < b; }
    bool operator()(const probe& a, const posting& b) const { return a < of(b); }
  };
  using postings = std::set<posting, posting_less>;
  static std::uint64_t hash_of(std::string_view label_value);
  mutable std::map<std::string, postings> label_index_;

  // Per set of field paths (sorted): (namespace, values) -> objects.
  using field_values = std::vector<std::string>;
  mutable std::map<std::vector<std::string>, std::map<std::pair<std::string, field_values>, key_set>> field_index_;

  k8s::object unpack(const entry& e) const { return packer_.unpack(store_type::value(e)); }
  // With the packer's new dictionary, every object packed again.
  void repack();
  // `e`: the store's entry of `o`.
  void index_labels(const entry& e, const k8s::object& o);
  void unindex_labels(const k8s::object& o);
  // The index answering `request`'s pinned keys, built if none is yet, and
  // the hash of the pinned value it answers for; nullptr when it pins none.
  const postings* label_index_for(const k8s::label_selector& request, std::uint64_t& hash) const;
  std::vector<k8s::object> scan(const std::string& ns, const k8s::label_selector& request) const;
  void index_fields(const entry& e, const k8s::object& o);
  void unindex_fields(const k8s::object& o);
};

}  // namespace c5c3::cluster
