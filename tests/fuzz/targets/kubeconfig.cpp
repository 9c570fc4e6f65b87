// kubeconfig files and exec credential plugin output (config/): the same
// bytes as a kubeconfig (YAML or JSON) and as an ExecCredential of both
// versions. Nothing runs a program here.
#include "config/exec_credential.hpp"
#include "config/kubeconfig.hpp"
#include "tests/fuzz/targets/fuzz_targets.hpp"

namespace c5c3::fuzz {

int kubeconfig(const std::uint8_t* data, std::size_t size) {
  auto text = as_text(data, size);
  auto k = config::parse_kubeconfig(text, "/base");
  if (k) {
    config::kubeconfig merged;
    config::merge_into(merged, *k);
    check(merged.clusters.size() == k->clusters.size(), "merging into nothing keeps every cluster");
    for (const auto& [name, user] : k->users)
      if (user.exec) (void)config::validate_exec_config(*user.exec);
  }
  for (const char* v : {"client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"}) {
    auto c = config::parse_exec_credential(text, v);
    if (c) check(!c->token.empty() || !c->client_certificate_data.empty(), "a credential carries something");
  }
  (void)config::split_kubeconfig_paths(text);
  return 0;
}

}  // namespace c5c3::fuzz
