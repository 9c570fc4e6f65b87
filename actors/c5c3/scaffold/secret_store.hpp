// The ControlPlane's secret store as the orders read it (apis.md 1.2, 4.3:
// effectiveControlPlaneStoreRef, the Ready test), its two read slots, and the
// PushSecret of apis.md 1.9 that backs an order's credentials up through it.
#pragma once

#include "actors/runtime/runner/declaration.hpp"
#include "k8s/object.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace c5c3::c5c3 {

// spec.secretStoreRef; SecretStore openbao-tenant-store when absent.
struct store_ref {
  std::string kind = "SecretStore";
  std::string name = "openbao-tenant-store";
};
store_ref control_plane_store_ref(const k8s::object& control_plane);

// apis.md 4.3: Ready when conditions[type=Ready].status == "True".
bool secret_store_ready(const k8s::object& store);

k8s::gvk secret_store_gvk(std::string_view kind);  // SecretStore or ClusterSecretStore

// The store of the ControlPlane's namespace as a step sees it.
struct secret_store_state {
  std::string kind = "SecretStore";
  std::string name;
  bool ready = false;
};

// The read slots "secret_store" and "cluster_secret_store" (optional: External
// Secrets may not be installed), read for a live order with a ControlPlane.
std::vector<runtime::read_slot> secret_store_slots();
// The store the ControlPlane names and whether it is Ready, from those slots
// (empty name without a ControlPlane).
secret_store_state secret_store_of(const runtime::sense_snapshot& s);

// The PushSecret of apis.md 1.9: deletionPolicy Delete, the store, the source
// Secret, one data entry whose remoteRef is `remote_key` and no secretKey.
k8s::object build_push_secret(std::string_view name, std::string_view namespace_, std::string_view source,
                              std::string_view remote_key, const secret_store_state& store);

}  // namespace c5c3::c5c3
