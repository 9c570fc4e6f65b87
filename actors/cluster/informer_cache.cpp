#include "actors/cluster/informer_cache.hpp"

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

// The single value `request` pins for `key`, if it pins one.
std::optional<std::string> pinned(const k8s::label_selector& request, const std::string& key) {
  for (const auto& r : request.requirements())
    if (r.key == key && (r.operation == op::equals || r.operation == op::in) && r.values.size() == 1)
      return r.values.front();
  return std::nullopt;
}

}  // namespace

informer_cache::informer_cache(const std::string& label_selector) {
  if (auto s = k8s::label_selector::parse(label_selector)) selector_ = *s;
  for (const auto& r : selector_.requirements()) {
    if (r.operation == op::exists) {
      index_key_ = r.key;
      break;
    }
  }
}

void informer_cache::unindex(const k8s::object& o) {
  if (!index_key_) return;
  auto v = o.label(*index_key_);
  if (!v) return;
  auto it = index_.find(std::string(*v));
  if (it == index_.end()) return;
  it->second.erase(o.key());
  if (it->second.empty()) index_.erase(it);
}

void informer_cache::put(const k8s::object& o) {
  auto key = o.key();
  if (auto it = store_.find(key); it != store_.end()) {
    unindex(it->second);
    it->second = o;
  } else {
    store_.emplace(key, o);
  }
  if (index_key_)
    if (auto v = o.label(*index_key_)) index_[std::string(*v)].insert(key);
}

void informer_cache::erase(const k8s::object_key& key) {
  auto it = store_.find(key);
  if (it == store_.end()) return;
  unindex(it->second);
  store_.erase(it);
}

const k8s::object* informer_cache::find(const k8s::object_key& key) const {
  auto it = store_.find(key);
  return it == store_.end() ? nullptr : &it->second;
}

bool informer_cache::covers(const k8s::label_selector& request) const {
  for (const auto& inf : selector_.requirements()) {
    bool implied = std::any_of(request.requirements().begin(), request.requirements().end(),
                               [&](const k8s::label_requirement& r) { return implies(r, inf); });
    if (!implied) return false;
  }
  return true;
}

std::vector<k8s::object> informer_cache::list(const std::string& ns, const k8s::label_selector& request) const {
  std::vector<k8s::object> out;
  auto take = [&](const k8s::object& o) {
    if ((ns.empty() || o.namespace_() == ns) && request.matches(o)) out.push_back(o);
  };
  std::optional<std::string> value;
  if (index_key_) value = pinned(request, *index_key_);
  if (value) {
    if (auto it = index_.find(*value); it != index_.end())
      for (const auto& key : it->second) take(store_.at(key));
    return out;
  }
  for (const auto& [key, o] : store_) take(o);
  return out;
}

}  // namespace c5c3::cluster
