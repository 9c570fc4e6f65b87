// The K-ORC children the Keystone orders build (apis.md 1.4b, 3.1, 3.3): the
// unmanaged imports that probe for a name (User, Project, Service) or import
// what the orders only name (Role, Region), and the managed User and Project
// in the admin domain, RoleAssignment, Service and Endpoint. Each
// authenticates through the ControlPlane's admin password cloud.
#pragma once

#include "actors/c5c3/korc/control_plane.hpp"
#include "k8s/object.hpp"

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace c5c3::c5c3::korc {

// spec.cloudCredentialsRef of `creds` on a K-ORC object under construction.
void set_cloud_credentials(k8s::object_builder& b, const cloud_credentials& creds);

// An unmanaged import filtered by name and domain: `kind` User or Project.
k8s::object unmanaged_import(std::string_view kind, std::string_view name, std::string_view namespace_,
                             std::string_view openstack_name, std::string_view domain_ref,
                             const cloud_credentials& creds);

// An unmanaged import of `kind` with spec.import.filter set to `filter`
// (field, value), in that order.
using import_filter = std::vector<std::pair<std::string_view, std::string_view>>;
k8s::object unmanaged_import_filtered(std::string_view kind, std::string_view name, std::string_view namespace_,
                                      const import_filter& filter, const cloud_credentials& creds);

// The managed User: resource {name, domainRef, passwordRef}, no defaultProjectRef.
k8s::object managed_user(std::string_view name, std::string_view namespace_, std::string_view user_name,
                         std::string_view domain_ref, std::string_view password_ref,
                         const cloud_credentials& creds);

// The managed Project: resource {name, domainRef}.
k8s::object managed_project(std::string_view name, std::string_view namespace_, std::string_view project_name,
                            std::string_view domain_ref, const cloud_credentials& creds);

// The managed ApplicationCredential (apis.md 3.3: the resource is immutable):
// resource {description, userRef, unrestricted false, secretRef, expiresAt
// when given}. It authenticates through `creds`, a project-scoped password
// cloud of the user (the credential is scoped by that token's project).
k8s::object managed_application_credential(std::string_view name, std::string_view namespace_,
                                           std::string_view description, std::string_view user_ref,
                                           std::string_view secret_ref, std::optional<k8s::time_point> expires_at,
                                           const cloud_credentials& creds);

// The managed RoleAssignment: resource {roleRef, userRef, projectRef}, each
// the name of a K-ORC object in the same namespace.
k8s::object managed_role_assignment(std::string_view name, std::string_view namespace_, std::string_view role_ref,
                                    std::string_view user_ref, std::string_view project_ref,
                                    const cloud_credentials& creds);

// The managed Service: resource {name, type, enabled: true}.
k8s::object managed_service(std::string_view name, std::string_view namespace_, std::string_view service_name,
                            std::string_view type, const cloud_credentials& creds);

// The managed Endpoint: resource {interface, url, serviceRef, regionRef,
// enabled: true}.
k8s::object managed_endpoint(std::string_view name, std::string_view namespace_, std::string_view interface,
                             std::string_view url, std::string_view service_ref, std::string_view region_ref,
                             const cloud_credentials& creds);

// status.id and status.resource.<field> of a K-ORC object ("" when absent).
std::string status_id(const k8s::object& obj);
std::string status_resource(const k8s::object& obj, std::string_view field);

}  // namespace c5c3::c5c3::korc
