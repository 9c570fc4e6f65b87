// Per-kind rules applied on writes (kube's registry strategies): defaults,
// Secret stringData and base64, Namespace phase and finalizers, Service
// defaults, CRD status, and status dropped on create for kinds with a status
// subresource. Pure functions; they throw api_failure.
#pragma once

#include "k8s/base64.hpp"

#include "k8s/api_resource.hpp"
#include "k8s/object.hpp"

#include <string>

namespace c5c3::sim {

// A CRD annotated with this ("true") stays Established=False (Installing).
inline const std::string crd_hold_established_annotation = "sim.c5c3.io/hold-established";

bool is_builtin(const k8s::api_resource& r);
// Whether an update without metadata.resourceVersion is accepted (the
// strategy's AllowUnconditionalUpdate): built-ins but APIService.
bool allows_unconditional_update(const k8s::api_resource& r);
// Whether metadata.generation is kept (custom kinds and CRDs; kube's built-in
// ConfigMap, Secret, Namespace, ... have none).
bool tracks_generation(const k8s::api_resource& r);
void prepare_for_create(const k8s::api_resource& r, k8s::json_document& doc, bool custom);
void prepare_for_update(const k8s::api_resource& r, k8s::json_document& doc, const k8s::object& old);
// Checks the kind's own rules (nullptr `old` on create).
void validate_kind(const k8s::api_resource& r, k8s::json_document& doc, const k8s::object* old);

// Base64 as Go's encoding/base64.StdEncoding (k8s/base64.hpp).
using k8s::base64_decode;
using k8s::base64_encode;

// The CRD's served versions as api_resources.
std::vector<k8s::api_resource> crd_resources(const k8s::object& crd);

}  // namespace c5c3::sim
