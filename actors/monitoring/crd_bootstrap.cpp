#include "actors/monitoring/crd_bootstrap.hpp"

#include "k8s/json.hpp"
#include "k8s/yaml.hpp"

namespace c5c3::monitoring {

std::vector<k8s::object> grafana_crds(std::string* error) {
  std::vector<k8s::object> out;
  for (const auto& m : grafana_crd_manifests()) {
    std::string why;
    auto docs = k8s::yaml_documents_to_json(m.text, &why);
    if (!docs || docs->empty()) {
      if (error) *error = std::string(m.file) + ": " + (why.empty() ? "no document" : why);
      return {};
    }
    for (auto& d : *docs) out.emplace_back(std::move(d));
  }
  return out;
}

crd_check check_crd(const k8s::object& crd) {
  if (!crd) return {crd_state::missing, "not found"};
  auto describe = [](const k8s::condition& c) {
    return c.type + "=" + c.status + (c.reason.empty() ? "" : " (" + c.reason + ")") +
           (c.message.empty() ? "" : ": " + c.message);
  };
  if (auto names = crd.find_condition("NamesAccepted"); names && names->status == "False")
    return {crd_state::failed, describe(*names)};
  auto est = crd.find_condition("Established");
  if (!est) return {crd_state::pending, "no Established condition yet"};
  if (est->status == "True") return {crd_state::established, {}};
  if (est->status == "False" && est->reason != "Installing") return {crd_state::failed, describe(*est)};
  return {crd_state::pending, describe(*est)};
}

k8s::object crd_update(const k8s::object& live, const k8s::object& wanted) {
  auto b = live.edit();
  for (const auto& [k, v] : wanted.labels()) b.set_label(k, v);
  for (const auto& [k, v] : wanted.annotations()) b.set_annotation(k, v);
  if (const auto* spec = wanted.get({"spec"})) b.set({"spec"}, k8s::copy_json(*spec, b.alloc()));
  return std::move(b).freeze();
}

}  // namespace c5c3::monitoring
