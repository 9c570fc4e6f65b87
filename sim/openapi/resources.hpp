// The kinds the emulator serves, as k8s::api_resource values: the built-in
// ones (data), and those a CustomResourceDefinition object declares.
#pragma once

#include "k8s/api_resource.hpp"
#include "k8s/object.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim::openapi {

// Namespace, Secret, ConfigMap, Service, Endpoints, ServiceAccount, Event
// (core/v1 and events.k8s.io/v1), Lease, the four RBAC kinds and
// CustomResourceDefinition, with kube-apiserver's verbs, short names,
// categories, scope and status subresources.
const std::vector<k8s::api_resource>& builtin_resources();

// One api_resource per served version of an apiextensions.k8s.io/v1
// CustomResourceDefinition (spec.names, scope, subresources, schema,
// additionalPrinterColumns). Verbs are the CRD handler's. A malformed CRD
// (no group, kind or plural) yields no resources.
std::vector<k8s::api_resource> resources_from_crd(const k8s::object& crd);

// Kubernetes' version priority (version.CompareKubeAwareVersionStrings):
// GA before beta before alpha, higher numbers first, then versions that do
// not look like Kubernetes versions in lexical order. True when `a` sorts
// before `b`.
bool kube_version_less(std::string_view a, std::string_view b);

// The resource `plural` of `group`/`version` in `resources`, or null.
const k8s::api_resource* find_resource(const std::vector<k8s::api_resource>& resources,
                                       std::string_view group, std::string_view version,
                                       std::string_view plural);

}  // namespace c5c3::sim::openapi
