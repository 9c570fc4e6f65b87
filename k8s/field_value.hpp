// The value a field selector compares at a dotted path of an object
// (k8s::field_selector::matches; the cluster actor's field index).
#pragma once

#include "k8s/object.hpp"

#include <string>
#include <string_view>

namespace c5c3::k8s {

// At `field` (a dotted path such as spec.userRef.name): a string, a bool as
// "true"/"false", an integer; "" for anything else or nothing there.
std::string field_value(const object& o, std::string_view field);

}  // namespace c5c3::k8s
