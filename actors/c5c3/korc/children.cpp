#include "actors/c5c3/korc/children.hpp"

namespace c5c3::c5c3::korc {

void set_cloud_credentials(k8s::object_builder& b, const cloud_credentials& creds) {
  b.set_string({"spec", "cloudCredentialsRef", "secretName"}, creds.secret_name);
  b.set_string({"spec", "cloudCredentialsRef", "cloudName"}, creds.cloud_name);
}

namespace {

k8s::object_builder managed(std::string_view kind, std::string_view name, std::string_view namespace_,
                            const cloud_credentials& creds) {
  k8s::object_builder b(api_version, kind, namespace_, name);
  b.set_string({"spec", "managementPolicy"}, "managed");
  set_cloud_credentials(b, creds);
  return b;
}

}  // namespace

k8s::object unmanaged_import_filtered(std::string_view kind, std::string_view name, std::string_view namespace_,
                                      const import_filter& filter, const cloud_credentials& creds) {
  k8s::object_builder b(api_version, kind, namespace_, name);
  b.set_string({"spec", "managementPolicy"}, "unmanaged");
  set_cloud_credentials(b, creds);
  for (const auto& [field, value] : filter) b.set_string({"spec", "import", "filter", field}, value);
  return std::move(b).freeze();
}

k8s::object unmanaged_import(std::string_view kind, std::string_view name, std::string_view namespace_,
                             std::string_view openstack_name, std::string_view domain_ref,
                             const cloud_credentials& creds) {
  return unmanaged_import_filtered(kind, name, namespace_, {{"name", openstack_name}, {"domainRef", domain_ref}},
                                   creds);
}

k8s::object managed_user(std::string_view name, std::string_view namespace_, std::string_view user_name,
                         std::string_view domain_ref, std::string_view password_ref,
                         const cloud_credentials& creds) {
  auto b = managed("User", name, namespace_, creds);
  b.set_string({"spec", "resource", "name"}, user_name);
  b.set_string({"spec", "resource", "domainRef"}, domain_ref);
  b.set_string({"spec", "resource", "passwordRef"}, password_ref);
  return std::move(b).freeze();
}

k8s::object managed_project(std::string_view name, std::string_view namespace_, std::string_view project_name,
                            std::string_view domain_ref, const cloud_credentials& creds) {
  auto b = managed("Project", name, namespace_, creds);
  b.set_string({"spec", "resource", "name"}, project_name);
  b.set_string({"spec", "resource", "domainRef"}, domain_ref);
  return std::move(b).freeze();
}

k8s::object managed_application_credential(std::string_view name, std::string_view namespace_,
                                           std::string_view description, std::string_view user_ref,
                                           std::string_view secret_ref, std::optional<k8s::time_point> expires_at,
                                           const cloud_credentials& creds) {
  auto b = managed("ApplicationCredential", name, namespace_, creds);
  b.set_string({"spec", "resource", "description"}, description);
  b.set_string({"spec", "resource", "userRef"}, user_ref);
  b.set_bool({"spec", "resource", "unrestricted"}, false);
  b.set_string({"spec", "resource", "secretRef"}, secret_ref);
  if (expires_at) b.set_string({"spec", "resource", "expiresAt"}, k8s::format_rfc3339(*expires_at));
  return std::move(b).freeze();
}

k8s::object managed_role_assignment(std::string_view name, std::string_view namespace_, std::string_view role_ref,
                                    std::string_view user_ref, std::string_view project_ref,
                                    const cloud_credentials& creds) {
  auto b = managed("RoleAssignment", name, namespace_, creds);
  b.set_string({"spec", "resource", "roleRef"}, role_ref);
  b.set_string({"spec", "resource", "userRef"}, user_ref);
  b.set_string({"spec", "resource", "projectRef"}, project_ref);
  return std::move(b).freeze();
}

k8s::object managed_service(std::string_view name, std::string_view namespace_, std::string_view service_name,
                            std::string_view type, const cloud_credentials& creds) {
  auto b = managed("Service", name, namespace_, creds);
  b.set_string({"spec", "resource", "name"}, service_name);
  b.set_string({"spec", "resource", "type"}, type);
  b.set_bool({"spec", "resource", "enabled"}, true);
  return std::move(b).freeze();
}

k8s::object managed_endpoint(std::string_view name, std::string_view namespace_, std::string_view interface,
                             std::string_view url, std::string_view service_ref, std::string_view region_ref,
                             const cloud_credentials& creds) {
  auto b = managed("Endpoint", name, namespace_, creds);
  b.set_string({"spec", "resource", "interface"}, interface);
  b.set_string({"spec", "resource", "url"}, url);
  b.set_string({"spec", "resource", "serviceRef"}, service_ref);
  b.set_string({"spec", "resource", "regionRef"}, region_ref);
  b.set_bool({"spec", "resource", "enabled"}, true);
  return std::move(b).freeze();
}

std::string status_id(const k8s::object& obj) { return std::string(obj.get_string({"status", "id"})); }

std::string status_resource(const k8s::object& obj, std::string_view field) {
  return std::string(obj.get_string({"status", "resource", field}));
}

}  // namespace c5c3::c5c3::korc
