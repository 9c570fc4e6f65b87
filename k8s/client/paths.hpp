// REST paths and query strings of the Kubernetes API (pure string building).
#pragma once

#include "k8s/api_resource.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace c5c3::k8s {

// "/api/v1" for the core group, "/apis/<group>/<version>" otherwise.
std::string group_version_path(std::string_view group, std::string_view version);

// /api/v1/namespaces/<ns>/<plural>[/<name>[/<subresource>]]; the namespace part
// is left out for cluster-scoped kinds and for an empty `ns` (all namespaces).
std::string resource_path(const api_resource& r, std::string_view ns, std::string_view name = {},
                          std::string_view subresource = {});

// Percent-encoding of a query component (RFC 3986 unreserved kept).
std::string query_escape(std::string_view s);

// "?a=b&c=d" from pairs whose value is non-empty; "" when none.
std::string query_string(const std::vector<std::pair<std::string, std::string>>& params);

}  // namespace c5c3::k8s
