// Where the embedded default finds its manifests and keeps its state.
#pragma once

#include "config/connection.hpp"

#include <optional>
#include <string>
#include <vector>

namespace c5c3::operator_ {

// The folders the embedded default reads, under one root.
struct embedded_manifests {
  std::string root;
  std::string crds() const { return root + "/deploy/crds"; }        // applied at every start
  std::string samples() const { return root + "/deploy/samples"; }  // applied on the first start
  std::string sim_crds() const { return root + "/sim/crds"; }       // the simulated external kinds
};

// Whether `root` holds deploy/crds, deploy/samples and sim/crds.
bool has_manifests(const std::string& root);

// The root: `flag` (--source-dir) when given (an error when it lacks the
// folders), else the first of `candidates` that has them. The error names
// --source-dir and the folders looked in.
config::expected<embedded_manifests> find_manifests(const std::string& flag, const std::vector<std::string>& candidates);

// The default candidates: the source tree this binary was built from
// (C5C3_SOURCE_DIR at compile time), <exe>/../share/c5c3-operator (the install
// layout) and <exe>/../.. (build/bin/ inside a checkout).
std::vector<std::string> default_manifest_roots();

// --data-dir, else $XDG_STATE_HOME/c5c3-operator, else $HOME/.local/state/c5c3-operator.
config::expected<std::string> data_dir_of(const std::string& flag, const config::env_lookup& env);

// The *.yaml and *.yml files directly in `dir`, sorted (none when it is missing).
std::vector<std::string> yaml_files(const std::string& dir);

// The sample files applied on the first start, in order: the top-level
// *.yaml of deploy/samples, then deploy/samples/world/*.yaml (what the
// ControlPlane needs around it), then deploy/samples/orders/*.yaml (one
// Keystone order of each kind: the simulated K-ORC and its in-memory
// Keystone bring them to Ready), then, with `monitoring`,
// deploy/samples/monitoring/*.yaml (a Prometheus, an Alertmanager and
// ServiceMonitors with what the Prometheus Operator would have made around
// them).
std::vector<std::string> sample_files(const embedded_manifests& m, bool monitoring = false);

}  // namespace c5c3::operator_
