// OpenAPI documents, shaped as kube-apiserver publishes them:
//   /openapi/v3            index: {"paths": {"apis/<g>/<v>": {"serverRelativeURL": "/openapi/v3/apis/<g>/<v>?hash=..."}}}
//   /openapi/v3/<gv path>  OpenAPI 3.0 document of one group/version: paths
//                          (list, create, get, replace, patch, delete, with
//                          x-kubernetes-group-version-kind and the
//                          fieldValidation parameter) and components.schemas
//                          (the kinds, their lists, ObjectMeta and what it uses)
//   /openapi/v2            Swagger 2.0 of everything (JSON; protobuf: swagger and info)
// kubectl reads v3 for `explain`, for client-side apply's strategic merge
// patch of built-ins, and to learn that the server validates fields
// (?fieldValidation=Strict) so it skips client-side validation.
#pragma once

#include "k8s/api_resource.hpp"
#include "k8s/json.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim::openapi {

using resource_list = std::vector<k8s::api_resource>;

// The group/version paths of the v3 index: "api/v1", "apis/<group>/<version>".
std::vector<std::string> openapi_v3_paths(const resource_list& resources);

// /openapi/v3. Each serverRelativeURL carries the hash of its document.
k8s::json_document openapi_v3_index(const resource_list& resources);

// /openapi/v3/<path> for `path` "api/v1" or "apis/<group>/<version>"
// (without the leading slash or query); nullopt when nothing is served there.
std::optional<k8s::json_document> openapi_v3_document(const resource_list& resources,
                                                      std::string_view path);

// /openapi/v2 as JSON.
k8s::json_document openapi_v2(const resource_list& resources);
// /openapi/v2 as protobuf (gnostic openapi_v2.Document), what kubectl asks
// for: swagger and info of `v2` only (see openapi_v2_protobuf.cpp). kubectl
// asks with the deprecated media type (with '@'); kube-openapi answers both
// with the one Go's mime parser accepts.
inline constexpr std::string_view openapi_v2_protobuf_type =
    "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";
inline constexpr std::string_view openapi_v2_protobuf_type_deprecated =
    "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
std::string openapi_v2_protobuf(const k8s::json_value& v2);

// The hash kube-apiserver puts in serverRelativeURL: SHA-512 of the
// document's JSON text, upper-case hex.
std::string openapi_hash(const k8s::json_value& document);

// The components.schemas name of a kind: "io.k8s.api.core.v1.Secret" for
// built-ins, reversed group + version + kind for custom resources
// ("io.c5c3.v1alpha1.RabbitMQVhost").
std::string schema_name(const k8s::api_resource& resource);

// The hand-written OpenAPI v3 schema of a built-in kind (its top level, without
// apiVersion, kind and metadata), or null when the kind is not built in; and the
// schema a "$ref" ("#/components/schemas/<name>") names, or null.
const k8s::json_value* builtin_kind_schema(std::string_view group, std::string_view version,
                                           std::string_view kind);
const k8s::json_value* builtin_schema_ref(std::string_view ref);

}  // namespace c5c3::sim::openapi
