// The K-ORC facts of a ControlPlane the Keystone orders read (apis.md 1.2,
// 1.4b, 3): the K-ORC kinds, the admin domain and its Domain import, the
// admin password cloud every K-ORC child of an order authenticates through,
// the region, the cloud name.
#pragma once

#include "k8s/object.hpp"

#include <string>
#include <string_view>

namespace c5c3::c5c3::korc {

inline constexpr std::string_view group = "openstack.k-orc.cloud";
inline constexpr std::string_view api_version = "openstack.k-orc.cloud/v1alpha1";

// openstack.k-orc.cloud/v1alpha1 <kind> (User, Project, Domain, Role, ...).
k8s::gvk gvk(std::string_view kind);

// spec.korc.adminCredential.domainName (Default): where ordered users and
// projects live.
std::string admin_domain_name(const k8s::object& cp);
// spec.korc.adminCredential.userName / projectName (admin).
std::string admin_user_name(const k8s::object& cp);
std::string admin_project_name(const k8s::object& cp);
// The Domain import of the admin domain the ControlPlane side provides:
// <cp>-domain-default.
std::string admin_domain_ref(const k8s::object& cp);
// spec.korc.adminCredential.cloudCredentialsRef.cloudName (admin).
std::string cloud_name(const k8s::object& cp);
// spec.region (RegionOne).
std::string region(const k8s::object& cp);

// A K-ORC spec.cloudCredentialsRef.
struct cloud_credentials {
  std::string secret_name;
  std::string cloud_name;
  friend bool operator==(const cloud_credentials&, const cloud_credentials&) = default;
};
// The operator's admin password cloud, <cp>-admin-password-cloud in the
// ControlPlane's namespace (key clouds.yaml), with the ControlPlane's cloud name.
cloud_credentials admin_password_cloud(const k8s::object& cp);

// The CA bundle that verifies an External Keystone
// (spec.services.keystone.external.caBundleSecretRef, readExternalCABundle):
// a Secret in the ControlPlane's namespace and its key (ca.crt). An empty
// name: none (a Managed Keystone, or a publicly trusted endpoint).
struct ca_bundle_ref {
  std::string name;
  std::string key = "ca.crt";
};
ca_bundle_ref keystone_ca_bundle(const k8s::object& cp);
inline constexpr std::string_view ca_bundle_field = "spec.services.keystone.external.caBundleSecretRef";
// K-ORC's CA key in a credentials Secret.
inline constexpr std::string_view cacert_key = "cacert";

}  // namespace c5c3::c5c3::korc
