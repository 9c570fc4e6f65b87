// Merge hints for the built-in kinds the emulator serves, after the
// Kubernetes API types' +listType / +mapType markers and patchStrategy /
// patchMergeKey tags (k8s.io/api core/v1, rbac/v1, coordination/v1,
// events/v1, apiextensions/v1).
//
// Lists these kinds declare without a strategy (Endpoints subsets, RBAC rules
// and subjects, Namespace spec.finalizers, ...) are atomic: replaced whole by
// both strategic merge patch and server-side apply.
#pragma once

#include "sim/ssa/schema.hpp"

#include <optional>
#include <string_view>

namespace c5c3::sim::ssa {

// The schema of a built-in kind ("v1" + "Service", "rbac.authorization.k8s.io/v1"
// + "RoleBinding", ...); nullopt for any other kind (custom resources).
std::optional<type_schema> builtin_schema(std::string_view api_version, std::string_view kind);

// Whether kube-apiserver accepts application/strategic-merge-patch+json for
// the kind: true for built-in kinds, false for custom resources (which answer
// 415 Unsupported Media Type).
bool supports_strategic_merge(std::string_view api_version, std::string_view kind);

}  // namespace c5c3::sim::ssa
