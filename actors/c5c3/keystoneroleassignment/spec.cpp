#include "actors/c5c3/keystoneroleassignment/spec.hpp"

#include "actors/c5c3/keystoneproject/spec.hpp"
#include "actors/c5c3/keystoneuser/spec.hpp"

namespace c5c3::c5c3::keystoneroleassignment {

order_label_keys label_keys() {
  return {std::string(label_name), std::string(label_namespace), std::string(label_cluster)};
}

assignment_status read_status(const k8s::object& order) {
  assignment_status s;
  if (const auto* v = order.get({"status", "observedGeneration"}); v && v->IsInt64()) s.observed_generation = v->GetInt64();
  s.role_id = order.get_string({"status", "roleID"});
  s.user_id = order.get_string({"status", "userID"});
  s.project_id = order.get_string({"status", "projectID"});
  return s;
}

void write_status(k8s::object_builder& b, const assignment_status& s) {
  if (s.observed_generation == 0)
    b.remove({"status", "observedGeneration"});
  else
    b.set_int({"status", "observedGeneration"}, s.observed_generation);
  for (auto [field, v] : {std::pair<std::string_view, const std::string&>{"roleID", s.role_id},
                          {"userID", s.user_id},
                          {"projectID", s.project_id}}) {
    if (v.empty())
      b.remove({"status", field});
    else
      b.set_string({"status", field}, v);
  }
}

assignment_order make_assignment_order(const k8s::object& order, std::string_view cluster) {
  assignment_order o;
  o.id = korc::identity_of(order, cluster, segment, label_keys());
  o.user = order.get_string({"spec", "userRef", "name"});
  o.project = order.get_string({"spec", "projectRef", "name"});
  o.role = order.get_string({"spec", "role"});
  o.status = read_status(order);
  return o;
}

assignment_names::assignment_names(const assignment_order& o) : prefix(o.id.ref.child_prefix()) {
  const order_ref user{o.user, o.id.ref.namespace_, o.id.ref.cluster, std::string(keystoneuser::segment),
                       keystoneuser::label_keys()};
  const order_ref project{o.project, o.id.ref.namespace_, o.id.ref.cluster, std::string(keystoneproject::segment),
                          keystoneproject::label_keys()};
  user_child = keystoneuser::user_names(user).user();
  project_child = keystoneproject::project_names(project).project();
}

}  // namespace c5c3::c5c3::keystoneroleassignment
