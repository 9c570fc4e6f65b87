#include "actors/operator/embedded.hpp"

namespace c5c3::operator_ {

std::unique_ptr<embedded_stack> start_embedded(const config::operator_options&, const config::env_lookup&,
                                               const k8s::log::logger&, std::string& error) {
  error = "--embedded is not implemented yet: run against a cluster with --kubeconfig or in-cluster";
  return nullptr;
}

}  // namespace c5c3::operator_
