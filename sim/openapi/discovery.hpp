// Discovery documents, shaped as kube-apiserver writes them:
//   /api              APIVersions
//   /apis             APIGroupList
//   /apis/<g>         APIGroup
//   /api/v1, /apis/<g>/<v>  APIResourceList
//   /api, /apis with Accept ...;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList
//                     APIGroupDiscoveryList (aggregated discovery, v2 or v2beta1)
// Pure functions of the served resources (builtin_resources() plus the
// resources of every established CRD).
#pragma once

#include "k8s/api_resource.hpp"
#include "k8s/json.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim::openapi {

using resource_list = std::vector<k8s::api_resource>;

// /api. `server_address` is "host:port" as clients reach the server.
k8s::json_document api_versions(std::string_view server_address);

// /apis: every non-core group, versions in preference order.
k8s::json_document api_group_list(const resource_list& resources);

// /apis/<group>; nullopt when nothing is served in that group.
std::optional<k8s::json_document> api_group(const resource_list& resources,
                                            std::string_view group);

// /api/v1 (group "") or /apis/<group>/<version>; nullopt when nothing is
// served there (the server answers 404).
std::optional<k8s::json_document> api_resource_list(const resource_list& resources,
                                                    std::string_view group,
                                                    std::string_view version);

enum class discovery_version { v2, v2beta1 };

// Aggregated discovery: for /api when `legacy_core`, else for /apis.
k8s::json_document aggregated_discovery(const resource_list& resources, bool legacy_core,
                                        discovery_version version = discovery_version::v2);

// Content type of an aggregated discovery answer, e.g.
// "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList".
std::string aggregated_discovery_content_type(discovery_version version);

// discovery.StorageVersionHash: base64 of the first 8 bytes of
// sha256("<group>/<version>/<kind>").
std::string storage_version_hash(std::string_view group, std::string_view version,
                                 std::string_view kind);

// The non-core groups served, in discovery order, and the versions of one
// group in preference order (first is preferred).
std::vector<std::string> served_groups(const resource_list& resources);
std::vector<std::string> served_versions(const resource_list& resources, std::string_view group);

}  // namespace c5c3::sim::openapi
