// Requests the cluster actor answers besides protocol/'s cluster I/O and
// subscriptions.
#pragma once

#include "protocol/cluster_io.hpp"

#include <caf/atom.hpp>

namespace c5c3::cluster {

// discover_atom -> std::vector<k8s::gvk>: every kind the cluster serves now
// (discovery is refreshed by the question).
using discover_atom = caf::atom_constant<caf::atom("discover")>;

}  // namespace c5c3::cluster
