// Secret data encoding for the simulated controllers: the one implementation
// in k8s/base64.hpp.
#pragma once

#include "k8s/base64.hpp"

namespace c5c3::sim::world {
using k8s::base64_decode;
using k8s::base64_encode;
}  // namespace c5c3::sim::world
