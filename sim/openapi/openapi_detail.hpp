// Shared by the OpenAPI document builders (internal to sim/openapi).
#pragma once

#include "k8s/api_resource.hpp"
#include "sim/openapi/json_build.hpp"

#include <string>
#include <string_view>

namespace c5c3::sim::openapi::detail {

// OpenAPI 3.0 (components.schemas) or Swagger 2.0 (definitions).
enum class flavor { v3, v2 };

// "#/components/schemas/<name>" or "#/definitions/<name>".
std::string ref(flavor f, std::string_view name);

// The schema name of a kind's list ("io.k8s.api.core.v1.SecretList").
std::string list_schema_name(const k8s::api_resource& r);

// Adds the paths serving `r` (collection, item and, with a status
// subresource, status) to the `paths` object.
void add_paths(k8s::json_value& paths, json_builder& b, const k8s::api_resource& r, flavor f);

}  // namespace c5c3::sim::openapi::detail
