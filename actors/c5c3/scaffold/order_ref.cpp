#include "actors/c5c3/scaffold/order_ref.hpp"

#include "actors/c5c3/scaffold/crypto.hpp"
#include "actors/c5c3/scaffold/namespace_assignment.hpp"

#include <charconv>

namespace c5c3::c5c3 {

std::string order_ref::child_prefix() const {
  return name + "-" + sha256_hex(cluster + "/" + namespace_ + "/" + name).substr(0, 8) + "-" +
         segment + "-";
}

std::map<std::string, std::string> order_ref::child_labels() const {
  return {{keys.name, name}, {keys.namespace_, namespace_}, {keys.cluster, cluster}};
}

std::string order_ref::location() const { return cluster_location(cluster); }

void claim_order_child(k8s::object_builder& b, const order_ref& o) {
  for (auto& [k, v] : o.child_labels()) b.set_label(k, v);
}

bool is_order_child(const k8s::object& obj, const order_ref& o, const order_owner& owner) {
  if (!owner.uid.empty()) {
    if (auto ref = obj.controller_reference(); ref && ref->uid == owner.uid) return true;
  }
  auto cluster = obj.label(o.keys.cluster);
  return cluster && *cluster == o.cluster && obj.label(o.keys.name).value_or("") == o.name &&
         obj.label(o.keys.namespace_).value_or("") == o.namespace_;
}

bool owns_order_child(const k8s::object& obj, const order_ref& o, const order_owner& owner) {
  return is_order_child(obj, o, owner) && obj.name().starts_with(o.child_prefix());
}

std::optional<order_request> order_child_requests(const k8s::object& child,
                                                  const order_label_keys& keys) {
  auto name = child.label(keys.name).value_or("");
  auto ns = child.label(keys.namespace_).value_or("");
  if (name.empty() || ns.empty()) return std::nullopt;
  return order_request{std::string(child.label(keys.cluster).value_or("")), std::string(ns),
                       std::string(name)};
}

std::optional<std::int64_t> generation_of(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix)) return std::nullopt;
  auto digits = name.substr(prefix.size());
  if (digits.empty()) return std::nullopt;
  std::int64_t gen = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), gen);
  if (ec != std::errc{} || ptr != digits.data() + digits.size() || gen <= 0) return std::nullopt;
  return gen;
}

}  // namespace c5c3::c5c3
