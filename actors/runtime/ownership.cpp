#include "actors/runtime/ownership.hpp"

namespace c5c3::runtime {

std::optional<protocol::order_key> order_of_labels(const k8s::object& child,
                                                   const ownership_keys& keys) {
  if (!child) return std::nullopt;
  auto name = child.label(keys.name);
  auto ns = child.label(keys.namespace_);
  if (!name || !ns || name->empty() || ns->empty()) return std::nullopt;
  auto cluster = child.label(keys.cluster);
  return protocol::order_key{cluster ? std::string(*cluster) : std::string(), std::string(*ns),
                             std::string(*name)};
}

std::optional<protocol::order_key> order_of_controller(const k8s::object& child,
                                                       std::string_view cluster,
                                                       const k8s::gvk& order_kind) {
  if (!child) return std::nullopt;
  auto ref = child.controller_reference();
  if (!ref || ref->name.empty() || ref->kind != order_kind.kind) return std::nullopt;
  if (k8s::gvk::from_api_version(ref->api_version, ref->kind).group != order_kind.group)
    return std::nullopt;
  return protocol::order_key{std::string(cluster), std::string(child.namespace_()), ref->name};
}

std::optional<protocol::order_key> order_of_child(const k8s::object& child,
                                                  std::string_view cluster,
                                                  const ownership_keys& keys,
                                                  const k8s::gvk& order_kind) {
  auto labels = order_of_labels(child, keys);
  // All three labels: a child on the management cluster naming its order's cluster.
  if (labels && child.label(keys.cluster)) return labels;
  // Otherwise the child lives beside its order (the delivered Secret: a
  // controller reference and the name and namespace labels, no cluster
  // label), on the cluster the event came from.
  if (auto owner = order_of_controller(child, cluster, order_kind)) return owner;
  if (labels) labels->cluster = std::string(cluster);
  return labels;
}

std::string_view string_at(const k8s::object& obj, const std::vector<std::string>& path) {
  if (!obj || path.empty()) return {};
  const k8s::json_value* v = &obj.json();
  for (const auto& p : path) {
    v = k8s::member(*v, p);
    if (!v) return {};
  }
  return v->IsString() ? k8s::as_string_view(*v) : std::string_view{};
}

std::optional<protocol::order_key> order_of_reference(const k8s::object& obj, std::string_view cluster,
                                                      const reference_field& ref) {
  if (!obj || obj.kind() != ref.gvk.kind || obj.gvk().group != ref.gvk.group) return std::nullopt;
  auto name = string_at(obj, ref.path);
  if (name.empty()) return std::nullopt;
  return protocol::order_key{std::string(cluster), std::string(obj.namespace_()), std::string(name)};
}

}  // namespace c5c3::runtime
