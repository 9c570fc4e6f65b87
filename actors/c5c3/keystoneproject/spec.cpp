#include "actors/c5c3/keystoneproject/spec.hpp"

namespace c5c3::c5c3::keystoneproject {

order_label_keys label_keys() {
  return {std::string(label_name), std::string(label_namespace), std::string(label_cluster)};
}

project_status read_status(const k8s::object& order) {
  project_status s;
  if (const auto* v = order.get({"status", "observedGeneration"}); v && v->IsInt64()) s.observed_generation = v->GetInt64();
  s.project_id = order.get_string({"status", "projectID"});
  s.project_name = order.get_string({"status", "projectName"});
  s.domain_name = order.get_string({"status", "domainName"});
  return s;
}

void write_status(k8s::object_builder& b, const project_status& s) {
  if (s.observed_generation == 0)
    b.remove({"status", "observedGeneration"});
  else
    b.set_int({"status", "observedGeneration"}, s.observed_generation);
  for (auto [field, v] : {std::pair<std::string_view, const std::string&>{"projectID", s.project_id},
                          {"projectName", s.project_name},
                          {"domainName", s.domain_name}}) {
    if (v.empty())
      b.remove({"status", field});
    else
      b.set_string({"status", field}, v);
  }
}

project_order make_project_order(const k8s::object& order, std::string_view cluster) {
  project_order o;
  o.id = korc::identity_of(order, cluster, segment, label_keys());
  auto name = order.get_string({"spec", "projectName"});
  o.project_name = std::string(name.empty() ? order.name() : name);
  o.status = read_status(order);
  return o;
}

}  // namespace c5c3::c5c3::keystoneproject
