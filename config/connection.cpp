#include "config/connection.hpp"

#include "config/exec_credential.hpp"
#include "config/token_file.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace c5c3::config {

namespace fs = std::filesystem;

env_lookup process_env() {
  return [](const std::string& name) -> std::optional<std::string> {
    if (const char* v = std::getenv(name.c_str())) return std::string(v);
    return std::nullopt;
  };
}

namespace {

expected<std::string> read_file(const std::string& path, std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return k8s::fail("cannot read " + std::string(what) + " " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

expected<connection> connection_from_context(const selected_context& s) {
  connection c;
  c.source = "kubeconfig context \"" + s.name + "\"";
  c.namespace_ = s.context.namespace_.empty() ? "default" : s.context.namespace_;
  const cluster_entry& cl = s.cluster;
  const user_entry& u = s.user;
  if (cl.server.empty()) return "cluster \"" + s.context.cluster + "\" has no server defined";
  if (!cl.proxy_url.empty())
    return "cluster \"" + s.context.cluster + "\": proxy-url is not supported by this operator; reach the API server directly";
  if (u.auth_provider) return "user \"" + s.context.user + "\": auth-provider plugins are not supported; use an exec plugin";
  if (!u.username.empty() || !u.password.empty())
    return "user \"" + s.context.user + "\": basic authentication (username/password) is not supported";
  c.client.server = cl.server;
  c.client.tls.insecure_skip_verify = cl.insecure_skip_tls_verify;
  c.client.tls.server_name = cl.tls_server_name;
  if (!cl.certificate_authority_data.empty()) {
    c.client.tls.ca_pem = cl.certificate_authority_data;
  } else if (!cl.certificate_authority.empty()) {
    auto ca = read_file(cl.certificate_authority, "certificate-authority");
    if (!ca.ok()) return ca.error();
    c.client.tls.ca_pem = std::move(ca.value());
  }
  if (cl.insecure_skip_tls_verify && !c.client.tls.ca_pem.empty())
    return "cluster \"" + s.context.cluster +
           "\": specifying a root certificates file with the insecure flag is not allowed";
  if (!u.client_certificate_data.empty()) c.client.tls.client_cert_pem = u.client_certificate_data;
  else if (!u.client_certificate.empty()) {
    auto v = read_file(u.client_certificate, "client-certificate");
    if (!v.ok()) return v.error();
    c.client.tls.client_cert_pem = std::move(v.value());
  }
  if (!u.client_key_data.empty()) c.client.tls.client_key_pem = u.client_key_data;
  else if (!u.client_key.empty()) {
    auto v = read_file(u.client_key, "client-key");
    if (!v.ok()) return v.error();
    c.client.tls.client_key_pem = std::move(v.value());
  }
  if (c.client.tls.client_cert_pem.empty() != c.client.tls.client_key_pem.empty())
    return "user \"" + s.context.user + "\": a client certificate needs both the certificate and its key";
  if (!u.token_file.empty()) {
    c.client.credentials = std::make_shared<token_file_provider>(u.token_file, u.token);
  } else if (!u.token.empty()) {
    c.client.credentials = std::make_shared<k8s::static_token>(u.token);
  } else if (u.exec) {
    if (auto err = validate_exec_config(*u.exec)) return "user \"" + s.context.user + "\": " + *err;
    c.client.credentials = std::make_shared<exec_credential_provider>(*u.exec, cl);
  }
  return c;
}

expected<connection> in_cluster_connection(const env_lookup& env, const std::string& dir) {
  auto host = env("KUBERNETES_SERVICE_HOST");
  auto port = env("KUBERNETES_SERVICE_PORT");
  if (!host || !port || host->empty() || port->empty())
    return std::string(
        "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined");
  connection c;
  c.source = "in-cluster";
  std::string h = host->find(':') != std::string::npos ? "[" + *host + "]" : *host;
  c.client.server = "https://" + h + ":" + *port;
  auto token_path = (fs::path(dir) / "token").string();
  auto provider = std::make_shared<token_file_provider>(token_path);
  std::string err;
  if (!provider->bearer_token(&err)) return "in-cluster configuration: " + err;
  c.client.credentials = std::move(provider);
  auto ca = read_file((fs::path(dir) / "ca.crt").string(), "the service account CA");
  if (!ca.ok()) return "in-cluster configuration: " + ca.error();
  c.client.tls.ca_pem = std::move(ca.value());
  auto ns = read_file((fs::path(dir) / "namespace").string(), "the service account namespace");
  c.namespace_ = ns.ok() ? ns.value() : std::string();
  while (!c.namespace_.empty() && (c.namespace_.back() == '\n' || c.namespace_.back() == ' '))
    c.namespace_.pop_back();
  if (c.namespace_.empty()) c.namespace_ = "default";
  return c;
}

expected<connection> load_connection(const load_options& o, const env_lookup& env) {
  auto from_kubeconfig = [&](expected<kubeconfig> kc) -> expected<connection> {
    if (!kc.ok()) return kc.error();
    auto s = select_context(kc.value(), o.context);
    if (!s.ok()) return s.error();
    return connection_from_context(s.value());
  };
  if (!o.kubeconfig.empty()) {
    std::error_code ec;
    if (!fs::exists(o.kubeconfig, ec)) return "the kubeconfig file " + o.kubeconfig + " does not exist";
    return from_kubeconfig(load_kubeconfig_file(o.kubeconfig));
  }
  if (auto list = env("KUBECONFIG"); list && !list->empty()) {
    auto paths = split_kubeconfig_paths(*list);
    return from_kubeconfig(load_kubeconfig_list(paths));
  }
  if (env("KUBERNETES_SERVICE_HOST") && env("KUBERNETES_SERVICE_PORT")) {
    auto c = in_cluster_connection(env, o.service_account_dir);
    if (!c.ok() || !o.context.empty()) {
      if (!o.context.empty()) return std::string("--context needs a kubeconfig; none was given");
    }
    return c;
  }
  if (auto home = env("HOME"); home && !home->empty()) {
    auto path = (fs::path(*home) / ".kube" / "config").string();
    std::error_code ec;
    if (fs::exists(path, ec)) return from_kubeconfig(load_kubeconfig_file(path));
  }
  return std::string(
      "no cluster configuration: give --kubeconfig, set KUBECONFIG, run in a pod, or create ~/.kube/config");
}

}  // namespace c5c3::config
