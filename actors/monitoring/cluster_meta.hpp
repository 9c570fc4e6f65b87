// Cluster metadata (apis-monitoring.md section 3, kmodules' ClusterMetadata):
// read from ConfigMap kube-public/ace-info when its MAC checks out (HMAC-SHA256
// keyed by the kube-system Namespace's UID over Go's JSON of the metadata),
// otherwise from the kube-system Namespace itself; and the registration state
// string State() the marker annotations compare.
#pragma once

#include "k8s/object.hpp"

#include <optional>
#include <string>

namespace c5c3::monitoring {

struct cluster_metadata {
  std::string uid, name, display_name, provider, owner_id, owner_type, api_endpoint, ca_bundle, manager_id,
      hub_cluster_id, cloud_service_auth_mode, mode;

  // managerID unless it is empty or "0", else ownerID.
  std::string manager() const;
  // base64url(HMAC-SHA256(key = uid, "<apiEndpoint>,<manager>")), padded.
  std::string state() const;
};

// ClusterMetadata: `kube_system` the Namespace (empty: it is missing, an
// error), `ace_info` the ConfigMap (empty: absent), `cluster_name` the
// --cluster-name flag (the name when neither names one).
std::optional<cluster_metadata> cluster_metadata_of(const k8s::object& kube_system, const k8s::object& ace_info,
                                                    const std::string& cluster_name, std::string* error = nullptr);

// Go's encoding/json of the metadata as the MAC covers it (field order of the
// struct, omitempty, HTML escaping).
std::string go_json(const cluster_metadata& md);
// The ace-info `mac` (raw bytes): HMAC-SHA256 keyed by `uid` over go_json(md).
std::string ace_info_mac(const cluster_metadata& md, const std::string& uid);

// One string as Go's encoding/json writes it (quoted, HTML-safe).
std::string go_json_string(std::string_view s);

}  // namespace c5c3::monitoring
