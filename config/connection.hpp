// Where the operator's API server is and how to reach it: the kubeconfig
// (--kubeconfig, else KUBECONFIG merged, else ~/.kube/config) or the
// in-cluster service account, in controller-runtime's order (--kubeconfig,
// KUBECONFIG, in-cluster, ~/.kube/config), turned into a k8s::client_config.
#pragma once

#include "config/kubeconfig.hpp"
#include "k8s/client/client.hpp"

#include <functional>
#include <optional>
#include <string>

namespace c5c3::config {

// Environment lookup, injectable for tests (default: ::getenv).
using env_lookup = std::function<std::optional<std::string>(const std::string&)>;
env_lookup process_env();

struct connection {
  k8s::client_config client;  // server, TLS, credentials
  std::string namespace_;     // the context's (or the service account's) namespace, "default" when none
  std::string source;         // "kubeconfig context \"x\"" or "in-cluster" (for logs)
};

// The connection of a selected kubeconfig context: CA from the file or data,
// client certificate and key, token / tokenFile (re-read when it changes) or
// the exec plugin. proxy-url, auth-provider and basic auth are refused with
// a message saying so.
expected<connection> connection_from_context(const selected_context& s);

inline constexpr std::string_view default_service_account_dir = "/var/run/secrets/kubernetes.io/serviceaccount";

// In-cluster: KUBERNETES_SERVICE_HOST/PORT, `<dir>/token` (re-read when
// rotated), `<dir>/ca.crt`, `<dir>/namespace`.
expected<connection> in_cluster_connection(const env_lookup& env,
                                           const std::string& dir = std::string(default_service_account_dir));

struct load_options {
  std::string kubeconfig;  // --kubeconfig: that file only (must exist)
  std::string context;     // --context
  std::string service_account_dir = std::string(default_service_account_dir);
};

expected<connection> load_connection(const load_options& o, const env_lookup& env = process_env());

}  // namespace c5c3::config
