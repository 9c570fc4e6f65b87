// Names as Keystone compares them, and the names a ControlPlane reserves in
// its admin domain (apis.md 1.4, 1.5; keystone-orders-reconcilers.txt
// "Project provisioning" 1). Keystone's identity tables compare under a
// *_general_ci collation: case- and accent-insensitive, so "ADMIN", "admín"
// and "ádmin" are all the row "admin".
#pragma once

#include "k8s/object.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace c5c3::c5c3::korc {

// keystoneNameKey: canonical decomposition, combining marks removed,
// recomposition, lower case. Text that is not UTF-8 is folded by case only
// (ASCII), never widened.
std::string keystone_name_key(std::string_view name);
bool same_keystone_name(std::string_view a, std::string_view b);

// The admin user and the built-in service accounts: glance, placement,
// barbican, neutron, cinder, nova, neutron-nova, hypervisor-operator.
std::vector<std::string> reserved_user_names(const k8s::object& cp);
// The admin project and service-glance, service-placement, service-barbican,
// service-neutron, service-cinder, service-nova.
std::vector<std::string> reserved_project_names(const k8s::object& cp);

// Whether `name` folds to one of `reserved`.
bool reserved(std::string_view name, const std::vector<std::string>& reserved_names);

}  // namespace c5c3::c5c3::korc
