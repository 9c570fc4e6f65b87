// Target clusters: a registry actor watches Secrets in the operator's
// namespace labelled `c5c3.io/target-cluster=<name>` (through the management
// cluster actor), engages a cluster actor per Secret from the kubeconfig
// under data key `kubeconfig`, re-engages it when that kubeconfig changes,
// disengages it when the Secret goes, and tells its listeners
// protocol::cluster_engaged / protocol::cluster_disengaged. See README.md.
#pragma once

#include "config/kubeconfig.hpp"
#include "k8s/client/client.hpp"
#include "k8s/log.hpp"
#include "k8s/object.hpp"

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::cluster {

inline constexpr std::string_view target_cluster_label = "c5c3.io/target-cluster";
inline constexpr std::string_view kubeconfig_data_key = "kubeconfig";

struct target_secret {
  std::string cluster;       // the label's value
  k8s::client_config client;  // from the kubeconfig's current context
  std::string kubeconfig;    // the decoded text, to notice changes (never logged)
};

// The target cluster a Secret describes; the error names the Secret and what
// is wrong, never its contents.
config::expected<target_secret> parse_target_secret(const k8s::object& secret);

struct registry_options {
  caf::actor management;  // the management cluster actor
  std::string namespace_;  // the operator's namespace
  std::vector<caf::actor> listeners;
  // Applied to each target's client config before its actor starts (tests: fast retries).
  std::function<void(k8s::client_config&)> tune;
  // "Target kubeconfig rejected" (warn, once per change, with "secret"),
  // "Target cluster engaged" / "Target cluster disengaged" (info).
  k8s::log::logger log = k8s::log::root().named("targets");
};

caf::actor spawn_target_registry(caf::actor_system& sys, registry_options opts);

}  // namespace c5c3::cluster
