#include "config/exec_credential.hpp"

#include "config/base64.hpp"
#include "k8s/json.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

extern char** environ;

namespace c5c3::config {

namespace {
constexpr std::string_view v1 = "client.authentication.k8s.io/v1";
constexpr std::string_view v1beta1 = "client.authentication.k8s.io/v1beta1";
}  // namespace

std::optional<std::string> validate_exec_config(const exec_config& c) {
  if (c.api_version != v1 && c.api_version != v1beta1)
    return "exec plugin: unsupported apiVersion \"" + c.api_version + "\" (use " + std::string(v1) + " or " +
           std::string(v1beta1) + ")";
  if (c.command.empty()) return std::string("exec plugin: no command given");
  if (c.api_version == v1 && c.interactive_mode.empty())
    return std::string("exec plugin: interactiveMode must be specified for ") + std::string(v1);
  if (!c.interactive_mode.empty() && c.interactive_mode != "Never" && c.interactive_mode != "IfAvailable" &&
      c.interactive_mode != "Always")
    return "exec plugin: invalid interactiveMode \"" + c.interactive_mode + "\"";
  if (c.interactive_mode == "Always")
    return std::string("exec plugin: interactiveMode Always needs a terminal, and the operator has none");
  return std::nullopt;
}

std::string exec_info(const exec_config& c, const cluster_entry& cluster) {
  k8s::json_document d;
  d.SetObject();
  auto& a = d.GetAllocator();
  k8s::set_member(d, "apiVersion", k8s::make_string(c.api_version, a), a);
  k8s::set_member(d, "kind", k8s::make_string("ExecCredential", a), a);
  k8s::json_value spec(rapidjson::kObjectType);
  spec.AddMember("interactive", false, a);
  if (c.provide_cluster_info) {
    k8s::json_value cl(rapidjson::kObjectType);
    k8s::set_member(cl, "server", k8s::make_string(cluster.server, a), a);
    if (!cluster.tls_server_name.empty())
      k8s::set_member(cl, "tls-server-name", k8s::make_string(cluster.tls_server_name, a), a);
    if (cluster.insecure_skip_tls_verify) cl.AddMember("insecure-skip-tls-verify", true, a);
    if (!cluster.certificate_authority_data.empty())
      k8s::set_member(cl, "certificate-authority-data",
                      k8s::make_string(base64_encode(cluster.certificate_authority_data), a), a);
    k8s::set_member(spec, "cluster", std::move(cl), a);
  }
  k8s::set_member(d, "spec", std::move(spec), a);
  return k8s::to_json(d);
}

expected<exec_credential> parse_exec_credential(std::string_view output, std::string_view api_version) {
  std::string err;
  auto doc = k8s::parse_json(output, &err);
  if (!doc || !doc->IsObject()) return "exec plugin: its output is not an ExecCredential: " + err;
  auto got = k8s::get_string(*doc, {"apiVersion"});
  if (got != api_version)
    return "exec plugin: configured to use API version " + std::string(api_version) +
           ", plugin returned version " + std::string(got);
  if (k8s::get_string(*doc, {"kind"}) != "ExecCredential")
    return std::string("exec plugin: its output is not an ExecCredential");
  const k8s::json_value* status = k8s::member(*doc, "status");
  if (!status || !status->IsObject()) return std::string("exec plugin: didn't return a status field");
  exec_credential c;
  c.token = std::string(k8s::get_string(*status, {"token"}));
  c.client_certificate_data = std::string(k8s::get_string(*status, {"clientCertificateData"}));
  c.client_key_data = std::string(k8s::get_string(*status, {"clientKeyData"}));
  if (c.client_certificate_data.empty() != c.client_key_data.empty())
    return std::string("exec plugin: returned only one of clientCertificateData and clientKeyData");
  if (c.token.empty() && c.client_certificate_data.empty())
    return std::string("exec plugin: didn't return a token or cert/key pair");
  if (auto exp = k8s::get_string(*status, {"expirationTimestamp"}); !exp.empty()) {
    auto t = k8s::parse_rfc3339(exp);
    if (!t) return "exec plugin: invalid expirationTimestamp \"" + std::string(exp) + "\"";
    c.expiration = *t;
  }
  return c;
}

expected<std::string> run_program(const std::string& command, const std::vector<std::string>& args,
                                  const std::vector<std::pair<std::string, std::string>>& env) {
  // Environment: ours, overridden by `env`.
  std::map<std::string, std::string> vars;
  for (char** e = environ; e && *e; ++e) {
    std::string_view kv(*e);
    auto eq = kv.find('=');
    if (eq != std::string_view::npos) vars[std::string(kv.substr(0, eq))] = std::string(kv.substr(eq + 1));
  }
  for (const auto& [k, v] : env) vars[k] = v;
  std::vector<std::string> env_strings;
  for (const auto& [k, v] : vars) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_strings{command};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return k8s::fail("exec plugin: cannot create a pipe: " + std::string(std::strerror(errno)));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, command.c_str(), &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  close(out[1]);
  if (rc != 0) {
    close(out[0]);
    return k8s::fail("exec plugin: cannot run \"" + command + "\": " + std::strerror(rc));
  }
  std::string output;
  char buf[4096];
  while (true) {
    ssize_t n = read(out[0], buf, sizeof buf);
    if (n > 0) output.append(buf, static_cast<std::size_t>(n));
    else if (n < 0 && errno == EINTR) continue;
    else break;
  }
  close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return output;
  if (WIFEXITED(status))
    return k8s::fail("exec plugin: \"" + command + "\" failed with exit code " + std::to_string(WEXITSTATUS(status)));
  return k8s::fail("exec plugin: \"" + command + "\" was killed by signal " + std::to_string(WTERMSIG(status)));
}

exec_credential_provider::exec_credential_provider(exec_config c, cluster_entry cluster, clock_fn now)
    : config_(std::move(c)), cluster_(std::move(cluster)), now_(std::move(now)) {}

std::optional<exec_credential> exec_credential_provider::current(std::string* error) {
  std::lock_guard lock(mu_);
  if (cached_ && (!cached_->expiration || now_() < *cached_->expiration)) return cached_;
  cached_.reset();
  auto env = config_.env;
  env.emplace_back("KUBERNETES_EXEC_INFO", exec_info(config_, cluster_));
  ++runs_;
  auto out = run_program(config_.command, config_.args, env);
  if (!out.ok()) {
    if (error) {
      *error = out.error();
      if (!config_.install_hint.empty()) *error += "\n" + config_.install_hint;
    }
    return std::nullopt;
  }
  auto cred = parse_exec_credential(out.value(), config_.api_version);
  if (!cred.ok()) {
    if (error) *error = cred.error();
    return std::nullopt;
  }
  cached_ = std::move(cred.value());
  return cached_;
}

std::optional<std::string> exec_credential_provider::bearer_token(std::string* error) {
  auto c = current(error);
  if (!c) return std::nullopt;
  return c->token;
}

std::optional<k8s::client_certificate> exec_credential_provider::certificate(std::string* error) {
  auto c = current(error);
  if (!c || c->client_certificate_data.empty()) return std::nullopt;
  return k8s::client_certificate{c->client_certificate_data, c->client_key_data};
}

bool exec_credential_provider::invalidate() {
  std::lock_guard lock(mu_);
  cached_.reset();
  return true;
}

int exec_credential_provider::runs() const {
  std::lock_guard lock(mu_);
  return runs_;
}

}  // namespace c5c3::config
