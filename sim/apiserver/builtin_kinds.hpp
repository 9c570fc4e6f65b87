// The built-in kinds the emulator serves, and kube's name validation rules.
#pragma once

#include "k8s/api_resource.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim {

// Namespace, Secret, ConfigMap, Service, Endpoints, ServiceAccount, Event (v1
// and events.k8s.io/v1, one store), Lease, the RBAC kinds,
// CustomResourceDefinition and APIService.
const std::vector<k8s::api_resource>& builtin_kinds();

// Kube's validation messages (empty when valid).
// DNS-1123 subdomain: lowercase alphanumerics, '-' and '.', at most 253.
std::vector<std::string> validate_dns1123_subdomain(std::string_view name);
// DNS-1123 label: lowercase alphanumerics and '-', at most 63.
std::vector<std::string> validate_dns1123_label(std::string_view name);
// DNS-1035 label (Service names): starts with a letter.
std::vector<std::string> validate_dns1035_label(std::string_view name);
// RBAC names (path segment name): not "." or "..", no '/' or '%'.
std::vector<std::string> validate_path_segment_name(std::string_view name);

// The rule a kind's names follow.
std::vector<std::string> validate_object_name(const k8s::api_resource& r, std::string_view name);

}  // namespace c5c3::sim
