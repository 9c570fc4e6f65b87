#include "actors/c5c3/scaffold/namespace_assignment.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3 {

std::string cluster_location(std::string_view cluster) {
  if (cluster.empty()) return "the management cluster";
  return fmt::format("target cluster \"{}\"", cluster);
}

std::string namespace_assignment::location() const { return cluster_location(target_cluster_name()); }

std::string namespace_assignment::describe() const { return namespace_ + " on " + location(); }

std::vector<namespace_assignment> namespace_assignments_of(const k8s::object& control_plane) {
  std::vector<namespace_assignment> out;
  const k8s::json_value* list = control_plane.get({"spec", "namespaceAssignments"});
  if (!list || !list->IsArray()) return out;
  for (auto& item : list->GetArray()) {
    if (!item.IsObject()) continue;
    namespace_assignment a;
    a.namespace_ = k8s::get_string(item, {"namespace"});
    if (const auto* ref = k8s::find(item, {"targetClusterRef"}); ref && ref->IsObject())
      a.target_cluster = std::string(k8s::get_string(*ref, {"name"}));
    if (const auto* roles = k8s::find(item, {"allowedRoles"}); roles && roles->IsArray())
      for (auto& r : roles->GetArray())
        if (r.IsString()) a.allowed_roles.emplace_back(k8s::as_string_view(r));
    a.allow_catalog_entries = k8s::get_bool(item, {"allowCatalogEntries"}).value_or(false);
    out.push_back(std::move(a));
  }
  return out;
}

const namespace_assignment* namespace_assignment_for(const std::vector<namespace_assignment>& entries,
                                                     std::string_view namespace_,
                                                     std::string_view cluster) {
  for (auto& e : entries)
    if (e.namespace_ == namespace_ && e.target_cluster_name() == cluster) return &e;
  return nullptr;
}

}  // namespace c5c3::c5c3
