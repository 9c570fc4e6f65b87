// The operator's options from flags and environment, typed and validated.
// Flags win over the environment; every bad value gets its own message line.
//
//   flag                           environment                        default
//   --kubeconfig PATH              (KUBECONFIG, read by the loader)   ""
//   --context NAME                 C5C3_CONTEXT                       ""
//   --namespace NS                 C5C3_NAMESPACE, POD_NAMESPACE      "" (the connection's)
//   --metrics-bind-address ADDR    C5C3_METRICS_BIND_ADDRESS          ":8080" ("0" disables)
//   --health-probe-bind-address A  C5C3_HEALTH_PROBE_BIND_ADDRESS     ":8081" ("0" disables)
//   --max-concurrent-reconciles N  C5C3_MAX_CONCURRENT_RECONCILES     2 (per kind and cluster)
//   --worker-threads N             C5C3_WORKER_THREADS                0 (the actor system's workers; 0: the
//                                  usable cores, at least 2: actors/operator/scheduler.hpp)
//   -v N / --v N                   C5C3_VERBOSITY                     0 (klog verbosity 0..10)
//   --log-level LEVEL              C5C3_LOG_LEVEL                     info (debug|info|warn|error)
//   --embedded[=BOOL]              C5C3_EMBEDDED                      false (run against the emulator)
//   --data-dir DIR                 C5C3_DATA_DIR                      "" (embedded state; "" means
//                                  $XDG_STATE_HOME/c5c3-operator or ~/.local/state/c5c3-operator)
//   --embedded-port N              C5C3_EMBEDDED_PORT                 0 (the emulator's port; 0 picks a free one)
//   --source-dir DIR               C5C3_SOURCE_DIR                    "" (where deploy/ and sim/crds are;
//                                  "" means the source tree built from, else <binary>/../share/c5c3-operator)
//   --controllers LIST             C5C3_CONTROLLERS                   orders (orders,monitoring with --embedded):
//                                  the controller groups this process runs (orders: the c5c3 order
//                                  kinds; monitoring: the monitoring controllers, actors/monitoring)
//   the monitoring controllers' flags, upstream monitoring-operator's names:
//   --baseURL URL                  C5C3_BASE_URL                      "" (the backend registration API)
//   --token T                      PLATFORM_API_TOKEN                 "" (its bearer token; never logged)
//   --platform-ca-file PATH        C5C3_PLATFORM_CA_FILE              "" (the CA the backend is verified with)
//   --hubUID UID                   C5C3_HUB_UID                       ""
//   --rancher-auth-secret NAME     C5C3_RANCHER_AUTH_SECRET           "" (a Secret in the operator's namespace)
//   --cluster-name NAME            C5C3_CLUSTER_NAME                  "" (when kube-system names none)
//   --sharding[=BOOL]              C5C3_SHARDING                      false (shard the orders among replicas,
//                                  actors/runtime/shard; --shard-name turns it on)
//   --shard-name NAME              C5C3_SHARD_NAME                    "" (this replica; with --sharding and no
//                                  name: POD_NAME, else the host name)
//   --shard-lease-duration D       C5C3_SHARD_LEASE_DURATION          15s (a Go duration, 1s to 1h)
//   -h / --help
// Both "--flag value" and "--flag=value" are accepted.
#pragma once

#include "config/connection.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::config {

struct bind_address {
  std::string host;  // "" for all interfaces
  int port = 0;
  bool disabled = false;  // "0"
  std::string text;       // as given
};

// ":8080", "127.0.0.1:8080", "[::1]:8080", "0" (disabled).
expected<bind_address> parse_bind_address(std::string_view s);

enum class log_level { debug, info, warn, error };
std::optional<log_level> parse_log_level(std::string_view s);
std::string_view to_string(log_level l);

// The monitoring controllers' settings (apis-monitoring.md 1.2). The backend
// client exists only when base_url and token are both set.
struct monitoring_options {
  std::string base_url;
  std::string token;  // a credential: never logged
  std::string platform_ca_file;
  std::string hub_uid;
  std::string rancher_auth_secret;
  std::string cluster_name;
  // grafana: --requeue-after-duration, when a failed GrafanaDashboard comes
  // back (upstream's default 1m).
  std::chrono::nanoseconds requeue_after_duration = std::chrono::minutes(1);
};

struct operator_options {
  std::string kubeconfig;
  std::string context;
  std::string namespace_;
  bind_address metrics_bind_address{"", 8080, false, ":8080"};
  bind_address health_probe_bind_address{"", 8081, false, ":8081"};
  int max_concurrent_reconciles = 2;
  int worker_threads = 0;  // 0: the usable cores, at least 2
  int verbosity = 0;
  log_level level = log_level::info;
  bool embedded = false;
  std::string data_dir;     // --embedded: where the emulator's state and the kubeconfig live
  int embedded_port = 0;    // --embedded: the emulator's port on 127.0.0.1
  std::string source_dir;   // --embedded: the folder holding deploy/crds, deploy/samples and sim/crds
  // The controller groups to run ("orders", "monitoring"), as given; empty:
  // the default ("orders", and "monitoring" too with --embedded).
  std::vector<std::string> controllers;
  monitoring_options monitoring;
  bool sharding = false;
  std::string shard_name;  // "" with sharding: POD_NAME, else the host name (run.cpp)
  std::chrono::seconds shard_lease_duration{15};
  // --park-idle-after: a converged order's actor is parked after this long
  // without a pass (runtime/order_actor.hpp); 0: never.
  std::chrono::nanoseconds park_idle_after = std::chrono::seconds(10);
  // --memory-trim-interval: how often the heap's free memory may go back to
  // the system (actors/operator/memory_trim.hpp); 0: never.
  std::chrono::nanoseconds memory_trim_interval = std::chrono::seconds(30);
  bool help = false;
  // Whether the group runs (the default when --controllers is not given).
  bool runs(std::string_view group) const;
};

// args excludes the program name. The error lists one line per problem.
expected<operator_options> parse_operator_options(const std::vector<std::string>& args,
                                                  const env_lookup& env = process_env());

// The --help text.
std::string operator_usage(std::string_view program);

}  // namespace c5c3::config
