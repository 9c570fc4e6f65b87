// What the c5c3 ControlPlane reconciler provides and the Keystone orders only
// read (apis.md 1.4b, last paragraph), simulated for every ControlPlane:
//  - the Secret <cp>-admin-password-cloud in the ControlPlane's namespace, key
//    clouds.yaml: the admin password cloud (buildPasswordCloudsYAML: cloud
//    spec.korc.adminCredential.cloudCredentialsRef.cloudName, the admin user,
//    project and domain of spec.korc.adminCredential, region, endpoint_type);
//  - the K-ORC Domain import <cp>-domain-default (unmanaged, filter name
//    spec.korc.adminCredential.domainName, authenticating with that Secret);
//  - the ControlPlane condition AdminCredentialReady: True (reason
//    AdminCredentialReady) once that Domain import is Available, False
//    (reason WaitingForKORC) before, with observedGeneration.
// The Secret and the Domain carry a controller owner reference to the
// ControlPlane, so they go with it.
#pragma once

#include "sim/world/world_object.hpp"

#include <string>
#include <vector>

namespace c5c3::sim::world {

inline constexpr std::string_view admin_credential_ready = "AdminCredentialReady";
inline constexpr std::string_view admin_credential_waiting = "WaitingForKORC";

// Who the admin is in the world's Keystone.
struct keystone_admin {
  std::string password;
  // The auth_url the admin cloud carries; empty: korcAuthURL of the
  // ControlPlane on the management cluster (its external authURL, else
  // http://<cp>-keystone.<ns>.svc:5000/v3).
  std::string auth_url;
};

struct control_plane_snapshot {
  k8s::object control_plane;
  k8s::object admin_cloud;    // the Secret <cp>-admin-password-cloud, or empty
  k8s::object domain_import;  // the Domain <cp>-domain-default, or empty
  keystone_admin admin;
  k8s::time_point now;
};

struct control_plane_plan {
  std::vector<object_write> writes;  // the Secret, the Domain import, the ControlPlane's status
};

std::string admin_cloud_secret_name(std::string_view control_plane);   // "<cp>-admin-password-cloud"
std::string admin_domain_import_name(std::string_view control_plane);  // "<cp>-domain-default"

control_plane_plan reconcile_control_plane(const control_plane_snapshot& s);

}  // namespace c5c3::sim::world
