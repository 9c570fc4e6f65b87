#include "actors/c5c3/keystoneapplicationcredential/spec.hpp"

#include "actors/c5c3/keystoneuser/spec.hpp"
#include "actors/c5c3/scaffold/status_fields.hpp"

#include <algorithm>

namespace c5c3::c5c3::keystoneapplicationcredential {

order_label_keys label_keys() {
  return {std::string(label_name), std::string(label_namespace), std::string(label_cluster)};
}

push_annotation_keys push_keys() {
  return {std::string(annotation_push_hash), std::string(annotation_push_synced_before)};
}

credential_status read_status(const k8s::object& order) {
  credential_status s;
  s.observed_generation = status_int(order, "observedGeneration");
  s.credential_id = status_string(order, "credentialID");
  s.credential_generation = status_int(order, "credentialGeneration");
  s.credential_expires_at = status_time(order, "credentialExpiresAt");
  s.last_rotation = status_time(order, "lastRotation");
  s.next_rotation = status_time(order, "nextRotation");
  s.previous_credential_id = status_string(order, "previousCredentialID");
  s.previous_credential_generation = status_int(order, "previousCredentialGeneration");
  s.previous_credential_delete_at = status_time(order, "previousCredentialDeleteAt");
  s.secret_name = status_string(order, "secretName");
  s.secret_keys = status_strings(order, "secretKeys");
  return s;
}

void write_status(k8s::object_builder& b, const credential_status& s) {
  put_status_int(b, "observedGeneration", s.observed_generation);
  put_status_string(b, "credentialID", s.credential_id);
  put_status_int(b, "credentialGeneration", s.credential_generation);
  put_status_time(b, "credentialExpiresAt", s.credential_expires_at);
  put_status_time(b, "lastRotation", s.last_rotation);
  put_status_time(b, "nextRotation", s.next_rotation);
  put_status_string(b, "previousCredentialID", s.previous_credential_id);
  put_status_int(b, "previousCredentialGeneration", s.previous_credential_generation);
  put_status_time(b, "previousCredentialDeleteAt", s.previous_credential_delete_at);
  put_status_string(b, "secretName", s.secret_name);
  put_status_strings(b, "secretKeys", s.secret_keys);
}

credential_order make_credential_order(const k8s::object& order, std::string_view cluster) {
  credential_order o;
  o.id = korc::identity_of(order, cluster, segment, label_keys());
  o.user_ref = std::string(order.get_string({"spec", "userRef", "name"}));
  o.project_ref = std::string(order.get_string({"spec", "projectRef", "name"}));
  const auto* g = order.get({"spec", "credentialGeneration"});
  o.declared_generation = std::max<std::int64_t>(g && g->IsInt64() ? g->GetInt64() : 0, 1);
  o.rotation = rotation_of(order);
  o.status = read_status(order);
  return o;
}

credential_names::credential_names(const order_ref& ref) : prefix(ref.child_prefix()), order_name(ref.name) {}

std::string credential_names::remote_key(std::string_view control_plane_namespace) const {
  return "openstack/keystone/" + std::string(control_plane_namespace) + "/" + prefix.substr(0, prefix.size() - 1) +
         "/service-accounts/application-credential";
}

user_children user_children_of(std::string_view user_name, std::string_view namespace_, std::string_view cluster,
                               std::int64_t password_generation) {
  const order_ref user{std::string(user_name), std::string(namespace_), std::string(cluster),
                       std::string(keystoneuser::segment), keystoneuser::label_keys()};
  const keystoneuser::user_names n(user);
  return {n.user(), n.password(password_generation)};
}

}  // namespace c5c3::c5c3::keystoneapplicationcredential
