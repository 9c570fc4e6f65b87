// Hand-written OpenAPI v3 schemas of the built-in kinds the emulator serves
// and of the apimachinery types they use (ObjectMeta, ListMeta, ...), with
// descriptions for `kubectl explain` and the list-type and patch-strategy
// extensions kubectl's client-side apply reads. Internal to sim/openapi.
#pragma once

#include "k8s/json.hpp"

#include <string>
#include <string_view>

namespace c5c3::sim::openapi::detail {

// An object whose members are schema name -> schema. References are written
// "#/components/schemas/<name>". Top-level kinds carry no apiVersion, kind,
// metadata or x-kubernetes-group-version-kind: the document builders add them.
const k8s::json_value& builtin_schemas();

// The schema name of a built-in kind ("io.k8s.api.core.v1.Secret"), or ""
// when the kind is not built in.
std::string builtin_schema_name(std::string_view group, std::string_view version,
                                std::string_view kind);

// The apiregistration.k8s.io schemas (builtin_schemas_apiregistration.cpp).
extern const char* const apiregistration_schemas_text;

inline constexpr std::string_view object_meta_schema = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
inline constexpr std::string_view list_meta_schema = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";

}  // namespace c5c3::sim::openapi::detail
