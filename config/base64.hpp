// Standard base64 as kubeconfig *-data fields are encoded: the one
// implementation in k8s/base64.hpp.
#pragma once

#include "k8s/base64.hpp"

namespace c5c3::config {
using k8s::base64_decode;
using k8s::base64_encode;
}  // namespace c5c3::config
