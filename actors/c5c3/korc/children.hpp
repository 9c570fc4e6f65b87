// The K-ORC children the Keystone orders build (apis.md 1.4b, 3.1, 3.3): the
// unmanaged imports that probe for a name (User, Project), and the managed
// User and Project in the admin domain. Each authenticates through the
// ControlPlane's admin password cloud.
#pragma once

#include "actors/c5c3/korc/control_plane.hpp"
#include "k8s/object.hpp"

#include <optional>
#include <string_view>

namespace c5c3::c5c3::korc {

// spec.cloudCredentialsRef of `creds` on a K-ORC object under construction.
void set_cloud_credentials(k8s::object_builder& b, const cloud_credentials& creds);

// An unmanaged import filtered by name and domain: `kind` User or Project.
k8s::object unmanaged_import(std::string_view kind, std::string_view name, std::string_view namespace_,
                             std::string_view openstack_name, std::string_view domain_ref,
                             const cloud_credentials& creds);

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

// status.id and status.resource.<field> of a K-ORC object ("" when absent).
std::string status_id(const k8s::object& obj);
std::string status_resource(const k8s::object& obj, std::string_view field);

}  // namespace c5c3::c5c3::korc
