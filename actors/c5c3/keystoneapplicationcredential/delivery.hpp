// deliverCredential (keystone-orders-reconcilers.txt "Application credential
// delivery"): for the generation status.credentialGeneration names, the auth
// URL for the order's cluster (KeystoneNotPublished), the generation's
// secret (WaitingForCredential before the first credential), the document
// (buildAppCredCloudsYAML), the source Secret and the PushSecret to
// openstack/keystone/<cp ns>/<prefix>/service-accounts/application-credential
// with push freshness (BackupNotSynced), then <name>-credentials beside the
// order (clouds.yaml, application_credential_id,
// application_credential_secret), refused when the order does not control it
// (DeliveryRefused). A switch in the provision step reaches the Secret in the
// same pass once the backup holds the new document. It writes DeliveryReady.
#pragma once

#include "actors/c5c3/keystoneapplicationcredential/spec.hpp"
#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/pass_result.hpp"
#include "k8s/object.hpp"

#include <vector>

namespace c5c3::c5c3::keystoneapplicationcredential {

struct delivery_snapshot {
  const credential_order* order = nullptr;
  const credential_status* status = nullptr;  // after the provision step
  std::string order_api_version = std::string(api_version);
  const k8s::object* control_plane = nullptr;
  // In the ControlPlane's namespace.
  const k8s::object* value_secret = nullptr;   // secret-v<status.credentialGeneration>
  const k8s::object* source_secret = nullptr;  // <prefix>source
  const k8s::object* push_secret = nullptr;    // <prefix>backup
  // Beside the order, read live: <name>-credentials.
  const k8s::object* delivered_secret = nullptr;
  std::vector<k8s::object> read_by_name;
};

struct delivery_plan {
  std::vector<child_write> writes;
  credential_status status;
  k8s::condition delivery_ready;
  c5c3::requeue requeue;
};

delivery_plan deliver_credential(const delivery_snapshot& s);

// DeliveryReady before the first credential.
k8s::condition not_minted_yet(std::int64_t generation);

}  // namespace c5c3::c5c3::keystoneapplicationcredential
