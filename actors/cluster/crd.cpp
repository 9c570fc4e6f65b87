#include "actors/cluster/crd.hpp"

#include "k8s/json.hpp"

namespace c5c3::cluster {

bool crd_defines(const k8s::object& crd, const k8s::gvk& k) {
  if (!crd) return false;
  return crd.get_string({"spec", "group"}) == k.group && crd.get_string({"spec", "names", "kind"}) == k.kind;
}

bool crd_serves(const k8s::object& crd, const k8s::gvk& k) {
  if (!crd_defines(crd, k) || crd.terminating()) return false;
  auto established = crd.find_condition("Established");
  if (!established || !established->is_true()) return false;
  const auto* versions = crd.get({"spec", "versions"});
  if (versions == nullptr || !versions->IsArray()) return false;
  for (const auto& v : versions->GetArray()) {
    if (k8s::get_string(v, {"name"}) == k.version && k8s::get_bool(v, {"served"}).value_or(false)) return true;
  }
  return false;
}

}  // namespace c5c3::cluster
