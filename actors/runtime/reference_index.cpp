#include "actors/runtime/reference_index.hpp"

namespace c5c3::runtime {

reference_index::reference_index(std::vector<reference_field> refs)
    : refs_(std::move(refs)), by_key_(refs_.size()) {}

bool reference_index::of_kind(const k8s::object& obj, const reference_field& ref) {
  return obj && obj.kind() == ref.gvk.kind && obj.gvk().group == ref.gvk.group;
}

std::optional<reference_index::key> reference_index::order_key_of(const k8s::object& o,
                                                                  const protocol::order_key& at,
                                                                  const reference_field& ref) {
  if (!o) return std::nullopt;
  key k{at.cluster, at.namespace_, {}};
  if (ref.shared.empty()) {
    auto v = string_at(o, ref.path);
    if (v.empty()) return std::nullopt;
    k.values.emplace_back(v);
    return k;
  }
  for (const auto& path : ref.shared) {
    auto v = string_at(o, path);
    if (v.empty()) return std::nullopt;
    k.values.emplace_back(v);
  }
  return k;
}

std::optional<reference_index::key> reference_index::object_key_of(const k8s::object& o, std::string_view cluster,
                                                                   const reference_field& ref) {
  if (!of_kind(o, ref)) return std::nullopt;
  key k{std::string(cluster), std::string(o.namespace_()), {}};
  if (ref.shared.empty()) {
    k.values.emplace_back(o.name());
    return k;
  }
  for (const auto& path : ref.shared) {
    auto v = string_at(o, path);
    if (v.empty()) return std::nullopt;
    k.values.emplace_back(v);
  }
  return k;
}

void reference_index::update(const protocol::order_key& at, const k8s::object& before, const k8s::object& now) {
  for (std::size_t i = 0; i < refs_.size(); ++i) {
    auto was = order_key_of(before, at, refs_[i]);
    auto is = order_key_of(now, at, refs_[i]);
    if (was == is) continue;
    auto& m = by_key_[i];
    if (was) {
      auto it = m.find(*was);
      if (it != m.end() && (it->second.erase(at), it->second.empty())) m.erase(it);
    }
    if (is) m[*is].insert(at);
  }
}

std::set<protocol::order_key> reference_index::woken_by(const k8s::object& obj, const k8s::object& old,
                                                        std::string_view cluster,
                                                        const protocol::order_key* exclude) const {
  std::set<protocol::order_key> out;
  for (std::size_t i = 0; i < refs_.size(); ++i) {
    const auto& ref = refs_[i];
    if (!of_kind(obj, ref)) continue;
    if (old && ref.passes && !ref.passes(old, obj)) continue;
    for (const auto* o : {&obj, &old}) {
      auto k = object_key_of(*o, cluster, ref);
      if (!k) continue;
      auto it = by_key_[i].find(*k);
      if (it == by_key_[i].end()) continue;
      for (const auto& order : it->second)
        if (!exclude || order != *exclude) out.insert(order);
    }
  }
  return out;
}

bool reference_index::names_kind(const k8s::object& obj) const {
  for (const auto& ref : refs_)
    if (of_kind(obj, ref)) return true;
  return false;
}

std::size_t reference_index::entries() const {
  std::size_t n = 0;
  for (const auto& m : by_key_)
    for (const auto& [k, orders] : m) n += orders.size();
  return n;
}

}  // namespace c5c3::runtime
