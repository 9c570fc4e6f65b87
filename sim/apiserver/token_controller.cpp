// kube-controller-manager's tokens controller, as far as clients see it: a
// Secret of type kubernetes.io/service-account-token naming an existing
// ServiceAccount (annotation kubernetes.io/service-account.name) gets its
// token, ca.crt and namespace, and the ServiceAccount's uid annotation, in a
// write of its own. (The token is opaque: the emulator does not accept it as
// a credential; give test clients a --token-file token instead.)
#include "k8s/base64.hpp"
#include "sim/apiserver/apiserver_impl.hpp"

namespace c5c3::sim {

void apiserver::impl::populate_token_secret_locked(const k8s::object& secret) {
  if (secret.get_string({"type"}) != "kubernetes.io/service-account-token" || secret.terminating()) return;
  auto sa_name = secret.annotation("kubernetes.io/service-account.name");
  if (!sa_name || sa_name->empty() || !secret.get_string({"data", "token"}).empty()) return;
  auto sas = resources_.find("serviceaccounts");
  if (sas == resources_.end()) return;
  auto sa = sas->second.objects.find({std::string(secret.namespace_()), std::string(*sa_name)});
  if (sa == sas->second.objects.end()) return;  // kube deletes such a Secret; left alone here
  auto& sr = resources_["secrets"];
  auto b = secret.edit();
  b.set_string({"data", "token"}, k8s::base64_encode("c5c3sim-sa-" + random_hex(32)));
  b.set_string({"data", "ca.crt"}, k8s::base64_encode(ca_.cert_pem));
  b.set_string({"data", "namespace"}, k8s::base64_encode(secret.namespace_()));
  b.set_annotation("kubernetes.io/service-account.uid", sa->second.uid());
  b.set_resource_version(std::to_string(next_rv_locked()));
  k8s::object stored = std::move(b).freeze();
  k8s::object prev = sr.objects[stored.key()];
  sr.objects[stored.key()] = stored;
  record_event_locked("MODIFIED", sr.storage.qualified(), stored, &prev);
}

}  // namespace c5c3::sim
