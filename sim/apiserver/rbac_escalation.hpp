// kube-apiserver's guard on granting RBAC (pkg/registry/rbac: the
// policy-based storage of roles and bindings, and
// validation.ConfirmNoEscalation): a user writes a Role or ClusterRole only
// with rules it holds itself, or with the `escalate` verb on it; a RoleBinding
// or ClusterRoleBinding only to a role whose rules it holds, or with the
// `bind` verb on that role. A ClusterRole with an aggregationRule needs
// every right. Members of system:masters, and updates that change only what
// garbage collection sets (owners, finalizers), pass. Pure functions over the
// stored RBAC objects, as rbac.hpp.
#pragma once

#include "sim/apiserver/rbac.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim::rbac {

// The rights of `rules` (a JSON array of PolicyRules) `user` does not hold
// in `namespace_` ("": cluster-wide), as kube lists them: one per API group,
// resource (or URL) and resource name with the verbs missing, in
// CompactString's form ({APIGroups:["g"], Resources:["r"], Verbs:["get" "list"]}),
// sorted. Empty when the user holds them all.
std::vector<std::string> missing_rights(const user_info& user, const std::string& namespace_,
                                        const k8s::json_value& rules, const policy& p);

// The 403 of writing `next` (an object of `plural`, one of roles,
// clusterroles, rolebindings and clusterrolebindings, in `namespace_`; `old`
// on an update) when it grants what `user` does not hold, or kube's 404 of a
// binding whose role does not exist (checked only when the writer may not
// `bind` it); nullopt when the write may go on. The wording is kube-apiserver's
// (compared with one: tests/real/rbac_grants_real.py).
std::optional<k8s::api_error> check_grant(const user_info& user, std::string_view plural,
                                          const std::string& namespace_, const k8s::json_value* old,
                                          const k8s::json_value& next, const policy& p);

}  // namespace c5c3::sim::rbac
