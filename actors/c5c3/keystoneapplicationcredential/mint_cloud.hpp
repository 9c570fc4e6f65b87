// ensureMintCloud (keystone-orders-reconcilers.txt "Application credential
// provisioning" 1): <prefix>mint-cloud in the ControlPlane's namespace, the
// project-scoped password clouds.yaml of the ordered user
// (buildServiceAccountCloudsYAML, for the management cluster where K-ORC
// runs), rebuilt on every pass from the password Secret of the user's
// status.passwordGeneration, so a password rotation reaches it and K-ORC can
// always mint the successor and delete the superseded credential; with the
// Keystone CA bundle beside it under K-ORC's key cacert (removed when none is
// configured). It waits on WaitingForProject (no status.projectName yet),
// WaitingForUser (the password not there yet) or WaitingForCABundle.
#pragma once

#include "actors/c5c3/keystoneapplicationcredential/spec.hpp"
#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/pass_result.hpp"
#include "k8s/object.hpp"

#include <optional>
#include <string>
#include <vector>

namespace c5c3::c5c3::keystoneapplicationcredential {

struct mint_cloud_input {
  const credential_order* order = nullptr;
  const k8s::object* control_plane = nullptr;
  const k8s::object* user = nullptr;     // the admitted KeystoneUser
  const k8s::object* project = nullptr;  // the admitted KeystoneProject
  // In the ControlPlane's namespace (null: none): the user's password Secret
  // of its status.passwordGeneration, the CA bundle Secret the ControlPlane
  // names, and <prefix>mint-cloud as listed or as a create met it.
  const k8s::object* password_secret = nullptr;
  const k8s::object* ca_bundle_secret = nullptr;
  const k8s::object* mint_cloud = nullptr;
};

struct mint_cloud_result {
  bool ready = false;               // the document is (being) written: the mint may go on
  std::optional<child_write> write;  // the create or the read-modify-write
  std::string reason;                // not ready: CredentialReady's reason
  std::string message;
  c5c3::requeue requeue;
};

mint_cloud_result ensure_mint_cloud(const mint_cloud_input& in);

// The user's Keystone name (spec.userName, else metadata.name) and the
// project's (status.projectName).
std::string keystone_user_name(const k8s::object& user);
std::string keystone_project_name(const k8s::object& project);

}  // namespace c5c3::c5c3::keystoneapplicationcredential
