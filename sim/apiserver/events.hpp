// Events as kube-apiserver serves them: one store (core/v1 Event, the
// internal shape) behind two views, core/v1 and events.k8s.io/v1, converted
// field by field as pkg/apis/events/v1/conversion.go does; the validation of
// pkg/apis/core/validation/events.go (legacy rules for every request, the
// strict ones for events.k8s.io); the field selectors of both views. Pure
// functions over JSON.
#pragma once

#include "k8s/api_resource.hpp"
#include "k8s/json.hpp"
#include "sim/validation/field_error.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim {

// The events.k8s.io/v1 view (stored as core/v1 Events).
bool is_events_group_event(const k8s::api_resource& r);
bool is_core_event(const k8s::api_resource& r);

// The resource a kind's objects are stored under: "events" for both Event
// views, r.qualified() for every other kind.
std::string storage_resource(const k8s::api_resource& r);

// Core/v1 Event as Go's encoding/json writes it (zero timestamps null,
// reportingComponent and reportingInstance always present, empty omitempty
// fields dropped). `v` must be an object.
void canonicalize_core_event(k8s::json_document& v);

// Conversions between the two views (metadata is kept as is; apiVersion and
// kind are set). The result of event_to_core is canonical.
k8s::json_document event_to_core(const k8s::json_value& events_v1);
k8s::json_document event_from_core(const k8s::json_value& core);

// ValidateEventCreate / ValidateEventUpdate on the core shape; `strict` for
// requests through events.k8s.io/v1. Field paths are the internal ones
// (involvedObject.namespace, message), as kube reports them for both views.
std::vector<validation::field_error> validate_event(const k8s::json_value& core, bool strict,
                                                    const k8s::json_value* old_core);

// The path in the stored (core) object that a field selector label selects,
// or nullopt when the view does not support the label (kube: 400 "field
// label not supported: <label>").
std::optional<std::string> event_field_path(std::string_view label, bool events_group);

// apimachinery's IsQualifiedName messages (empty when valid).
std::vector<std::string> qualified_name_errors(std::string_view value);

}  // namespace c5c3::sim
