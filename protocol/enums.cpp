// Names of the protocol's enumerations (for logs and CAF's rendering).
#include "protocol/cluster_io.hpp"
#include "protocol/clusters.hpp"
#include "protocol/control_plane.hpp"
#include "protocol/subscription.hpp"

namespace c5c3::protocol {

std::string to_string(read_from x) { return x == read_from::cache ? "cache" : "server"; }

std::string to_string(patch_type x) {
  switch (x) {
    case patch_type::merge: return "merge";
    case patch_type::strategic_merge: return "strategic-merge";
    case patch_type::json: return "json";
  }
  return "unknown";
}

const char* content_type(patch_type x) {
  switch (x) {
    case patch_type::merge: return "application/merge-patch+json";
    case patch_type::strategic_merge: return "application/strategic-merge-patch+json";
    case patch_type::json: return "application/json-patch+json";
  }
  return "application/merge-patch+json";
}

std::string to_string(propagation x) {
  switch (x) {
    case propagation::background: return "Background";
    case propagation::foreground: return "Foreground";
    case propagation::orphan: return "Orphan";
  }
  return "unknown";
}

std::string to_string(watch_scope x) {
  return x == watch_scope::management ? "management" : "every_cluster";
}

std::string to_string(event_type x) {
  switch (x) {
    case event_type::added: return "ADDED";
    case event_type::modified: return "MODIFIED";
    case event_type::deleted: return "DELETED";
  }
  return "unknown";
}

std::string to_string(admission_verdict x) {
  switch (x) {
    case admission_verdict::admitted: return "Admitted";
    case admission_verdict::cluster_name_too_long: return "ClusterNameTooLong";
    case admission_verdict::control_plane_not_found: return "ControlPlaneNotFound";
    case admission_verdict::namespace_not_assigned: return "NamespaceNotAssigned";
  }
  return "unknown";
}

}  // namespace c5c3::protocol
