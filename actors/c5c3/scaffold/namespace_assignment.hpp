// The ControlPlane's spec.namespaceAssignments as the orders read them
// (apis.md 1.2): the consent list and its helpers Location(), Describe() and
// NamespaceAssignmentFor().
#pragma once

#include "k8s/object.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::c5c3 {

struct namespace_assignment {
  std::string namespace_;
  std::optional<std::string> target_cluster;  // targetClusterRef.name; absent: the management cluster
  std::vector<std::string> allowed_roles;
  bool allow_catalog_entries = false;

  // TargetClusterName(): "" for the management cluster.
  std::string target_cluster_name() const { return target_cluster.value_or(""); }
  // "the management cluster" or `target cluster "<name>"`.
  std::string location() const;
  // "<ns> on <location>".
  std::string describe() const;
  friend bool operator==(const namespace_assignment&, const namespace_assignment&) = default;
};

// The location phrase of a cluster name ("" is the management cluster).
std::string cluster_location(std::string_view cluster);

// spec.namespaceAssignments of a ControlPlane object.
std::vector<namespace_assignment> namespace_assignments_of(const k8s::object& control_plane);

// The first entry for (namespace, cluster), or null (NamespaceAssignmentFor).
const namespace_assignment* namespace_assignment_for(const std::vector<namespace_assignment>& entries,
                                                     std::string_view namespace_,
                                                     std::string_view cluster);

}  // namespace c5c3::c5c3
