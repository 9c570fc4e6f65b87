#include "actors/runtime/runner/declaration.hpp"

#include "k8s/projection.hpp"

#include <algorithm>

namespace c5c3::runtime {

const slot_result* sense_snapshot::slot(std::string_view id) const {
  auto it = slots.find(id);
  return it == slots.end() ? nullptr : &it->second;
}

const std::vector<k8s::object>& sense_snapshot::list(std::string_view id) const {
  static const std::vector<k8s::object> none;
  const auto* s = slot(id);
  return s ? s->items : none;
}

const k8s::object* sense_snapshot::one(std::string_view id) const {
  const auto* s = slot(id);
  return s && !s->items.empty() ? &s->items.front() : nullptr;
}

bool sense_snapshot::served(std::string_view id) const {
  const auto* s = slot(id);
  return !s || s->served;
}

const write_failure* sense_snapshot::failure_of(const child_write& w) const {
  for (const auto& f : write_failures)
    if (f.cluster == w.cluster && f.kind == w.kind() && f.namespace_ == w.body.namespace_() &&
        f.name == w.name() && f.subresource == w.subresource)
      return &f;
  return nullptr;
}

read_slot children(std::string id, k8s::gvk gvk, const ownership_keys& keys, bool optional) {
  read_slot s;
  s.id = std::move(id);
  s.mode = read_mode::children;
  s.gvk = std::move(gvk);
  s.selector = keys.name;
  s.optional = optional;
  return s;
}

read_slot named(std::string id, k8s::gvk gvk, locate_fn locate, std::string selector, bool optional) {
  read_slot s;
  s.id = std::move(id);
  s.mode = read_mode::named;
  s.gvk = std::move(gvk);
  s.locate = std::move(locate);
  s.selector = std::move(selector);
  s.optional = optional;
  return s;
}

read_slot listed(std::string id, k8s::gvk gvk, std::string selector, namespace_role ns, bool optional) {
  read_slot s;
  s.id = std::move(id);
  s.mode = read_mode::listed;
  s.gvk = std::move(gvk);
  s.selector = std::move(selector);
  s.ns = ns;
  s.optional = optional;
  return s;
}

std::vector<derived_watch> watches_of(const kind_declaration& k) {
  std::vector<derived_watch> out;
  // A field-scoped watch (one object) is never merged with another.
  auto add = [&out](const k8s::gvk& gvk, const std::string& selector, bool every, bool optional,
                    const std::string& ns, const std::string& field = {}, bool scoped = false,
                    const std::vector<std::string>& drop = {}) {
    auto dropped = k8s::canonical_paths(drop);
    for (auto& w : out) {
      if (field.empty() && w.gvk == gvk && w.selector == selector && w.namespace_ == ns && w.field_selector.empty()) {
        w.every_cluster = w.every_cluster || every;
        w.optional = w.optional && optional;
        w.shard_scoped = w.shard_scoped && scoped;
        w.drop = k8s::common_paths(w.drop, dropped);
        return;
      }
    }
    out.push_back({gvk, selector, every, optional, ns, field, scoped, std::move(dropped)});
  };
  add(k.gvk, k.order_selector, true, true, k.order_namespace,
      k.order_name.empty() ? std::string() : "metadata.name=" + k.order_name, k.order_name.empty());
  for (const auto& r : k.reads) {
    // The order's own children (and named reads of them through the same
    // informer) carry the holder's stamp.
    bool children = r.mode == read_mode::children || (r.labelled && r.selector == k.keys.name);
    if (!r.uncached)
      add(r.gvk, r.selector, r.cluster == cluster_role::order, r.optional, r.watch_namespace, {}, children, r.drop);
  }
  for (const auto& ref : k.referenced_by) add(ref.gvk, "", true, true, "");
  for (const auto& ref : k.references) add(ref.gvk, "", true, true, "");
  for (const auto& w : k.watches)
    add(w.gvk, w.selector, w.cluster == cluster_role::order, w.optional, w.namespace_, w.field_selector);
  return out;
}

std::vector<wake_rule> wake_rules_of(const kind_declaration& k) {
  std::vector<wake_rule> out;
  for (const auto& w : k.watches)
    if (w.wakes) out.push_back({w.gvk, w.wakes});
  return out;
}

std::string order_selector(const ownership_keys& keys, const protocol::order_key& order) {
  return keys.name + "=" + order.name + "," + keys.namespace_ + "=" + order.namespace_;
}

bool labelled_for(const k8s::object& o, const ownership_keys& keys, const protocol::order_key& order) {
  auto n = o.label(keys.name);
  auto ns = o.label(keys.namespace_);
  auto c = o.label(keys.cluster);
  return n && *n == order.name && ns && *ns == order.namespace_ && c.value_or("") == order.cluster;
}

}  // namespace c5c3::runtime
