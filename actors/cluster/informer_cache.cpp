#include "actors/cluster/informer_cache.hpp"

#include "k8s/field_value.hpp"

#include <algorithm>

namespace c5c3::cluster {

namespace {

using op = k8s::label_requirement::op;

// Whether `req` (of the request) implies `inf` (of the informer).
bool implies(const k8s::label_requirement& req, const k8s::label_requirement& inf) {
  if (req == inf) return true;
  if (req.key != inf.key) return false;
  if (inf.operation == op::exists) return req.operation == op::equals || req.operation == op::in;
  if (inf.operation == op::in && (req.operation == op::equals || req.operation == op::in))
    return std::all_of(req.values.begin(), req.values.end(), [&](const std::string& v) {
      return std::find(inf.values.begin(), inf.values.end(), v) != inf.values.end();
    });
  return false;
}

// The single value a requirement pins its key to (`k=v`, `k in (v)`), if any.
const std::string* pinned(const k8s::label_requirement& r) {
  if ((r.operation == op::equals || r.operation == op::in) && r.values.size() == 1) return &r.values.front();
  return nullptr;
}

using store_type = k8s::basic_object_map<k8s::packed_object>;
using entry = store_type::entry;
k8s::object_key_view key_of(const entry* e) { return store_type::key(*e); }
k8s::object_key_view key_of(const entry& e) { return store_type::key(e); }

// Calls `f` on each element of `sorted` (ordered by object key, so by
// namespace first) in `ns`, or on every element when `ns` is "".
template <class Sorted, class F>
void each_in(const Sorted& sorted, const std::string& ns, F&& f) {
  auto it = ns.empty() ? sorted.begin() : sorted.lower_bound(k8s::object_key_view{ns, ""});
  for (; it != sorted.end(); ++it) {
    if (!ns.empty() && key_of(*it).namespace_ != ns) break;
    f(*it);
  }
}

// The sorted field paths of `fields` when it is equalities only; nullopt
// otherwise. The parsed selector keeps its terms sorted.
std::optional<std::vector<std::string>> equality_paths(const k8s::field_selector& fields) {
  std::vector<std::string> out;
  for (const auto& r : fields.requirements()) {
    if (r.negated) return std::nullopt;
    out.push_back(r.field);
  }
  std::sort(out.begin(), out.end());
  if (std::adjacent_find(out.begin(), out.end()) != out.end()) return std::nullopt;
  return out;
}

std::vector<std::string> values_at(const k8s::object& o, const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  out.reserve(paths.size());
  for (const auto& p : paths) out.push_back(k8s::field_value(o, p));
  return out;
}

}  // namespace

informer_cache::informer_cache(const std::string& label_selector) {
  if (auto s = k8s::label_selector::parse(label_selector)) selector_ = *s;
  for (const auto& r : selector_.requirements()) {
    if (r.operation == op::exists) {
      label_index_.try_emplace(r.key);
      break;
    }
  }
}

// Removes `key` from `set` (C++20's set has no heterogeneous erase).
template <class Set, class Key>
void erase_key(Set& set, const Key& key) {
  if (auto it = set.find(key); it != set.end()) set.erase(it);
}

std::uint64_t informer_cache::hash_of(std::string_view label_value) {
  return std::hash<std::string_view>{}(label_value);
}

void informer_cache::index_labels(const entry& e, const k8s::object& o) {
  for (auto& [label, index] : label_index_)
    if (auto v = o.label(label)) index.insert({hash_of(*v), &e});
}

void informer_cache::unindex_labels(const k8s::object& o) {
  for (auto& [label, index] : label_index_)
    if (auto v = o.label(label)) erase_key(index, posting_less::probe{hash_of(*v), k8s::view_of(o)});
}

void informer_cache::index_fields(const entry& e, const k8s::object& o) {
  for (auto& [paths, by_values] : field_index_)
    by_values[{std::string(o.namespace_()), values_at(o, paths)}].insert(&e);
}

void informer_cache::unindex_fields(const k8s::object& o) {
  for (auto& [paths, by_values] : field_index_) {
    auto it = by_values.find({std::string(o.namespace_()), values_at(o, paths)});
    if (it == by_values.end()) continue;
    erase_key(it->second, k8s::view_of(o));
    if (it->second.empty()) by_values.erase(it);
  }
}

k8s::object informer_cache::put(const k8s::object& o) {
  // One lookup: the entry keeps its node and its key's order, so the indexes
  // find it by the replaced object's labels and fields after the put.
  k8s::packed_object replaced;
  const entry& e = store_.put(packer_.pack(o), &replaced);
  k8s::object old = packer_.unpack(replaced);
  if (old) {
    unindex_labels(old);
    unindex_fields(old);
  }
  index_labels(e, o);
  index_fields(e, o);
  if (packer_.due(store_.size())) repack();
  return old;
}

void informer_cache::repack() {
  auto previous = packer_.renew();
  // put() keeps each entry's node (the indexes point at it); the key's views
  // move to the new packing.
  std::vector<const entry*> entries;
  entries.reserve(store_.size());
  for (const auto& e : store_) entries.push_back(&e);
  for (const entry* e : entries) store_.put(packer_.repack(store_type::value(*e), previous));
}

k8s::object informer_cache::erase(const k8s::object_key& key) {
  const k8s::packed_object* p = store_.find(k8s::view_of(key));
  if (!p) return {};
  k8s::object old = packer_.unpack(*p);
  unindex_labels(old);
  unindex_fields(old);
  store_.erase(k8s::view_of(key));
  return old;
}

k8s::object informer_cache::get(const k8s::object_key& key) const {
  const k8s::packed_object* p = store_.find(k8s::view_of(key));
  return p ? packer_.unpack(*p) : k8s::object();
}

std::optional<std::string_view> informer_cache::version(const k8s::object_key& key) const {
  const k8s::packed_object* p = store_.find(k8s::view_of(key));
  if (!p) return std::nullopt;
  return p->resource_version();
}

std::vector<k8s::object> informer_cache::all() const {
  std::vector<k8s::object> out;
  out.reserve(store_.size());
  for (const auto& e : store_) out.push_back(unpack(e));
  return out;
}

k8s::list_difference informer_cache::difference(const k8s::object_map& listed) const {
  return k8s::diff_list(store_, listed, [&](const k8s::packed_object& p) { return packer_.unpack(p); });
}

void informer_cache::compare(const informer_cache& seen, const informer_cache& now,
                             const std::function<void(const k8s::object&, const k8s::object&)>& on) {
  k8s::walk_together(seen.store_, now.store_, [&](const k8s::packed_object* a, const k8s::packed_object* b) {
    if (a && b && a->resource_version() == b->resource_version()) return;
    on(a ? seen.packer_.unpack(*a) : k8s::object(), b ? now.packer_.unpack(*b) : k8s::object());
  });
}

std::size_t informer_cache::packed_bytes() const {
  std::size_t n = packer_.dictionary_size();
  for (const auto& e : store_) n += store_type::value(e).allocated();
  return n;
}

bool informer_cache::covers(const k8s::label_selector& request) const {
  for (const auto& inf : selector_.requirements()) {
    bool implied = std::any_of(request.requirements().begin(), request.requirements().end(),
                               [&](const k8s::label_requirement& r) { return implies(r, inf); });
    if (!implied) return false;
  }
  return true;
}

const informer_cache::postings* informer_cache::label_index_for(const k8s::label_selector& request,
                                                                 std::uint64_t& hash) const {
  // The pinned key already indexed whose value has the fewest objects: the
  // values' ranges walked side by side, the first to end wins (a key whose
  // value has thousands costs no more than the smallest's count).
  struct candidate {
    const postings* index;
    std::uint64_t hash;
    postings::const_iterator at;
  };
  std::vector<candidate> candidates;
  for (const auto& r : request.requirements()) {
    const auto* v = pinned(r);
    auto at = v ? label_index_.find(r.key) : label_index_.end();
    if (at == label_index_.end()) continue;
    auto h = hash_of(*v);
    candidates.push_back({&at->second, h, at->second.lower_bound(posting_less::probe{h, {}})});
  }
  if (candidates.size() == 1) {
    hash = candidates.front().hash;
    return candidates.front().index;
  }
  while (!candidates.empty()) {
    for (const auto& c : candidates) {
      if (c.at == c.index->end() || c.at->hash != c.hash) {
        hash = c.hash;
        return c.index;
      }
    }
    for (auto& c : candidates) ++c.at;
  }
  // None yet: index the first pinned key (the selector sorts its terms).
  for (const auto& r : request.requirements()) {
    const auto* v = pinned(r);
    if (!v) continue;
    auto& index = label_index_[r.key];
    for (const entry& e : store_) {
      auto o = unpack(e);  // the label's view is into it
      if (auto l = o.label(r.key)) index.insert({hash_of(*l), &e});
    }
    hash = hash_of(*v);
    return &index;
  }
  return nullptr;
}

std::vector<k8s::object> informer_cache::scan(const std::string& ns, const k8s::label_selector& request) const {
  std::vector<k8s::object> out;
  each_in(store_, ns, [&](const entry& e) {
    auto o = unpack(e);
    if (request.matches(o)) out.push_back(std::move(o));
  });
  return out;
}

std::vector<k8s::object> informer_cache::list(const std::string& ns, const k8s::label_selector& request) const {
  std::uint64_t hash = 0;
  const auto* index = label_index_for(request, hash);
  if (!index) return scan(ns, request);
  std::vector<k8s::object> out;
  // The value's objects in `ns` (keys sort by namespace first), or all.
  for (auto it = index->lower_bound(posting_less::probe{hash, {ns, ""}}); it != index->end() && it->hash == hash;
       ++it) {
    if (!ns.empty() && key_of(it->e).namespace_ != ns) break;
    auto o = unpack(*it->e);
    if (request.matches(o)) out.push_back(std::move(o));
  }
  return out;
}

std::vector<k8s::object> informer_cache::list(const std::string& ns, const k8s::label_selector& request,
                                              const k8s::field_selector& fields) const {
  if (fields.empty()) return list(ns, request);
  auto paths = equality_paths(fields);
  if (!paths || ns.empty()) {
    auto out = list(ns, request);
    std::erase_if(out, [&](const k8s::object& o) { return !fields.matches(o); });
    return out;
  }
  auto [at, built] = field_index_.try_emplace(*paths);
  if (built)
    for (const entry& e : store_)
      at->second[{std::string(key_of(e).namespace_), values_at(unpack(e), *paths)}].insert(&e);
  std::vector<std::string> want;
  for (const auto& p : *paths)
    for (const auto& r : fields.requirements())
      if (r.field == p) want.push_back(r.value);
  std::vector<k8s::object> out;
  auto it = at->second.find({ns, want});
  if (it == at->second.end()) return out;
  for (const entry* e : it->second) {
    auto o = unpack(*e);
    if (request.matches(o)) out.push_back(std::move(o));
  }
  return out;
}

}  // namespace c5c3::cluster
