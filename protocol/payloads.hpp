// Large or local-only payloads that travel between actors as they are, by
// shared immutable handle, never serialized: a k8s::object shares one
// document between copies; the typed API error rides in a caf::error.
#pragma once

#include "k8s/object.hpp"
#include "k8s/status.hpp"

#include <caf/allowed_unsafe_message_type.hpp>

#include <string>
#include <vector>

namespace c5c3::protocol {

// A list answer: the items and the list's resourceVersion.
struct object_list {
  std::vector<k8s::object> items;
  std::string resource_version;
};

}  // namespace c5c3::protocol

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::k8s::object)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::k8s::api_error)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::protocol::object_list)
