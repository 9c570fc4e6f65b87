// kubeconfig files as client-go reads them: parsing (YAML or JSON), merging
// several files (KUBECONFIG) by client-go's rules, relative paths resolved
// against the file that names them, and context selection.
#pragma once

#include "k8s/client/result.hpp"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace c5c3::config {

template <class T>
using expected = k8s::result<T, std::string>;

struct exec_config {
  std::string api_version;  // client.authentication.k8s.io/v1 or /v1beta1
  std::string command;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  std::string interactive_mode;  // Never, IfAvailable, Always ("" in v1beta1: IfAvailable)
  bool provide_cluster_info = false;
  std::string install_hint;
};

struct cluster_entry {
  std::string server;
  std::string certificate_authority;       // a path (resolved)
  std::string certificate_authority_data;  // PEM (decoded)
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;
  std::string proxy_url;
};

struct user_entry {
  std::string token;
  std::string token_file;          // a path (resolved)
  std::string client_certificate;  // a path (resolved)
  std::string client_certificate_data;
  std::string client_key;  // a path (resolved)
  std::string client_key_data;
  std::string username;
  std::string password;
  std::optional<exec_config> exec;
  bool auth_provider = false;  // legacy auth-provider plugins (refused)
};

struct context_entry {
  std::string cluster;
  std::string user;
  std::string namespace_;
};

struct kubeconfig {
  std::map<std::string, cluster_entry> clusters;
  std::map<std::string, user_entry> users;
  std::map<std::string, context_entry> contexts;
  std::string current_context;
};

// Parses one file's text; relative paths are resolved against `base_dir`.
expected<kubeconfig> parse_kubeconfig(std::string_view text, const std::string& base_dir = {});
expected<kubeconfig> load_kubeconfig_file(const std::string& path);

// Merges `later` into `into` the way client-go merges KUBECONFIG files: the
// first file to define a cluster, user or context name wins, and the first
// non-empty current-context wins.
void merge_into(kubeconfig& into, const kubeconfig& later);

// The paths of a KUBECONFIG value (':'-separated, empties dropped, duplicates
// kept once).
std::vector<std::string> split_kubeconfig_paths(std::string_view value);

// Loads and merges the files of a KUBECONFIG list; missing files are skipped
// (as client-go does), a malformed one is an error naming it.
expected<kubeconfig> load_kubeconfig_list(const std::vector<std::string>& paths);

// The context to use: `override_context` when given, else current-context.
// Checks the context, its cluster and its user exist.
struct selected_context {
  std::string name;
  context_entry context;
  cluster_entry cluster;
  user_entry user;
};
expected<selected_context> select_context(const kubeconfig& kc, const std::string& override_context);

}  // namespace c5c3::config
