// Exec credential plugins (client.authentication.k8s.io v1 and v1beta1), as
// client-go runs them: the command with its args and env plus
// KUBERNETES_EXEC_INFO, stdin closed (interactiveMode Never/IfAvailable),
// the ExecCredential it prints parsed and cached until expirationTimestamp,
// and run again after the server answers 401.
#pragma once

#include "config/kubeconfig.hpp"
#include "k8s/client/credentials.hpp"
#include "k8s/time.hpp"

#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace c5c3::config {

struct exec_credential {
  std::string token;
  std::string client_certificate_data;  // PEM
  std::string client_key_data;
  std::optional<k8s::time_point> expiration;
};

// Parses a plugin's stdout; `api_version` is what the kubeconfig asked for.
expected<exec_credential> parse_exec_credential(std::string_view output, std::string_view api_version);

// Validates an exec section (apiVersion known, command given, interactiveMode
// usable without a terminal).
std::optional<std::string> validate_exec_config(const exec_config& c);

// The KUBERNETES_EXEC_INFO value for `c` (with the cluster when provideClusterInfo).
std::string exec_info(const exec_config& c, const cluster_entry& cluster);

// Runs a program, its stdin /dev/null, and returns its stdout; an error when
// it cannot start or exits non-zero. `env` is added to the process environment.
expected<std::string> run_program(const std::string& command, const std::vector<std::string>& args,
                                  const std::vector<std::pair<std::string, std::string>>& env);

class exec_credential_provider : public k8s::credential_provider {
 public:
  using clock_fn = std::function<k8s::time_point()>;
  exec_credential_provider(exec_config c, cluster_entry cluster, clock_fn now = k8s::clock::now);

  std::optional<std::string> bearer_token(std::string* error) override;
  std::optional<k8s::client_certificate> certificate(std::string* error) override;
  bool invalidate() override;

  // How many times the plugin ran (for tests).
  int runs() const;

 private:
  std::optional<exec_credential> current(std::string* error);

  exec_config config_;
  cluster_entry cluster_;
  clock_fn now_;
  mutable std::mutex mu_;
  std::optional<exec_credential> cached_;
  int runs_ = 0;
};

}  // namespace c5c3::config
