#include "tests/c5c3/keystone_world.hpp"

#include <fmt/format.h>

namespace c5c3::test {
namespace {

object with_conditions(const object& obj, std::int64_t generation, std::string_view conditions_json) {
  auto b = obj.edit();
  b.set_int({"metadata", "generation"}, generation);
  auto doc = parse(fmt::format(R"({{"c":{}}})", conditions_json));
  b.set({"status", "conditions"}, k8s::copy_json(*doc.get({"c"}), b.alloc()));
  return std::move(b).freeze();
}

std::string cond(std::string_view type, std::string_view status, std::string_view reason, std::string_view message,
                 std::int64_t observed) {
  return fmt::format(R"({{"type":"{}","status":"{}","reason":"{}","message":"{}","observedGeneration":{},)"
                     R"("lastTransitionTime":"2026-12-01T00:00:00Z"}})",
                     type, status, reason, message, observed);
}

object order_object(std::string_view kind, std::string_view finalizer_name, std::string_view name,
                    std::string_view spec_json, std::string_view status_json, bool finalizer,
                    std::int64_t generation) {
  std::string spec = spec_json.empty() ? R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"}})"
                                       : std::string(spec_json);
  std::string fin = finalizer ? fmt::format(R"(,"finalizers":["{}"])", finalizer_name) : "";
  return parse(fmt::format(R"({{"apiVersion":"c5c3.io/v1alpha1","kind":"{}",
    "metadata":{{"name":"{}","namespace":"tenant-a","uid":"uid-order","generation":{}{}}},
    "spec":{},"status":{}}})",
                           kind, name, generation, fin, spec, status_json));
}

object reference_object(std::string_view kind, std::string_view name, std::string_view user,
                        std::string_view project) {
  return parse(fmt::format(R"({{"apiVersion":"c5c3.io/v1alpha1","kind":"{}",
    "metadata":{{"name":"{}","namespace":"tenant-a"}},
    "spec":{{"controlPlaneRef":{{"name":"cp","namespace":"openstack"}},"userRef":{{"name":"{}"}},
             "projectRef":{{"name":"{}"}}}}}})",
                           kind, name, user, project));
}

}  // namespace

object keystone_control_plane(bool admin_ready, std::string_view keystone_json) {
  return parse(fmt::format(R"({{"apiVersion":"c5c3.io/v1alpha1","kind":"ControlPlane",
    "metadata":{{"name":"cp","namespace":"openstack","generation":1}},
    "spec":{{"region":"RegionOne","secretStoreRef":{{"kind":"SecretStore","name":"openbao-tenant-store"}},
             "services":{{"keystone":{}}},
             "korc":{{"adminCredential":{{"domainName":"Default","cloudCredentialsRef":{{"secretName":"k-orc-clouds-yaml","cloudName":"admin"}}}}}},
             "namespaceAssignments":[{{"namespace":"tenant-a","allowedRoles":["member","reader"],"allowCatalogEntries":true}},
                                     {{"namespace":"tenant-a","targetClusterRef":{{"name":"edge-1"}}}}]}},
    "status":{{"conditions":[{{"type":"AdminCredentialReady","status":"{}","reason":"R","message":"",
                               "lastTransitionTime":"2026-12-01T00:00:00Z"}}]}}}})",
                           keystone_json, admin_ready ? "True" : "False"));
}

object keystone_user_object(std::string_view name, std::string_view spec_json, std::string_view status_json,
                            bool finalizer, std::int64_t generation) {
  return order_object("KeystoneUser", "c5c3.io/keystoneuser-teardown", name, spec_json, status_json, finalizer,
                      generation);
}

object keystone_project_object(std::string_view name, std::string_view spec_json, std::string_view status_json,
                               bool finalizer, std::int64_t generation) {
  return order_object("KeystoneProject", "c5c3.io/keystoneproject-teardown", name, spec_json, status_json,
                      finalizer, generation);
}

object keystone_application_credential_object(std::string_view name, std::string_view user, std::string_view project,
                                              std::string_view spec_json, std::string_view status_json,
                                              bool finalizer, std::int64_t generation) {
  auto spec = fmt::format(R"({{"controlPlaneRef":{{"name":"cp","namespace":"openstack"}},"userRef":{{"name":"{}"}},)"
                          R"("projectRef":{{"name":"{}"}}{}{}}})",
                          user, project, spec_json.empty() ? "" : ",", spec_json);
  return order_object("KeystoneApplicationCredential", "c5c3.io/keystoneapplicationcredential-teardown", name, spec,
                      status_json, finalizer, generation);
}

object keystone_role_assignment_object(std::string_view name, std::string_view spec_json,
                                       std::string_view status_json, bool finalizer, std::string_view created) {
  std::string spec = spec_json.empty() ? R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"},)"
                                         R"("userRef":{"name":"alice"},"projectRef":{"name":"team"},"role":"member"})"
                                       : std::string(spec_json);
  auto o = order_object("KeystoneRoleAssignment", "c5c3.io/keystoneroleassignment-teardown", name, spec, status_json,
                        finalizer, 1);
  auto b = o.edit();
  b.set_string({"metadata", "creationTimestamp"}, created);
  return std::move(b).freeze();
}

object keystone_catalog_entry_object(std::string_view name, std::string_view spec_json, std::string_view status_json,
                                     bool finalizer, std::int64_t generation) {
  std::string spec = spec_json.empty() ? R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"},)"
                                         R"("serviceType":"dns","serviceName":"designate",)"
                                         R"("endpoints":[{"interface":"public","url":"https://dns.example.test/v2"}]})"
                                       : std::string(spec_json);
  return order_object("KeystoneCatalogEntry", "c5c3.io/keystonecatalogentry-teardown", name, spec, status_json,
                      finalizer, generation);
}

object with_assignments(const object& cp, std::string_view assignments_json) {
  auto b = cp.edit();
  auto doc = parse(fmt::format(R"({{"a":{}}})", assignments_json));
  b.set({"spec", "namespaceAssignments"}, k8s::copy_json(*doc.get({"a"}), b.alloc()));
  return std::move(b).freeze();
}

namespace {

object referenced(std::string_view kind, std::string_view type, std::string_view name, bool ready,
                  std::string_view cp_name) {
  const auto status = ready ? "True" : "False";
  const auto reason = ready ? "Provisioned" : (kind == "KeystoneUser" ? "WaitingForUser" : "WaitingForProject");
  return parse(fmt::format(R"({{"apiVersion":"c5c3.io/v1alpha1","kind":"{}",
    "metadata":{{"name":"{}","namespace":"tenant-a","generation":1}},
    "spec":{{"controlPlaneRef":{{"name":"{}","namespace":"openstack"}}}},
    "status":{{"conditions":[{},{}]}}}})",
                           kind, name, cp_name, cond(type, status, reason, "m", 1),
                           cond("Ready", status, ready ? "AllReady" : "NotAllReady", "m", 1)));
}

}  // namespace

object referenced_user(std::string_view name, bool ready, std::string_view cp_name) {
  return referenced("KeystoneUser", "UserReady", name, ready, cp_name);
}

object referenced_project(std::string_view name, bool ready, std::string_view cp_name) {
  return referenced("KeystoneProject", "ProjectReady", name, ready, cp_name);
}

object korc_available(const object& obj, std::string_view id, std::int64_t generation) {
  auto o = with_conditions(obj, generation,
                           "[" + cond("Available", "True", "Success", "OpenStack resource is available", generation) +
                               "," +
                               cond("Progressing", "False", "Success", "OpenStack resource is up to date", generation) +
                               "]");
  auto b = o.edit();
  b.set_string({"status", "id"}, id);
  return std::move(b).freeze();
}

object korc_pending(const object& obj, std::string_view message) {
  return with_conditions(obj, 1,
                         "[" + cond("Available", "False", "Progressing", message, 1) + "," +
                             cond("Progressing", "True", "Progressing", message, 1) + "]");
}

object korc_created_externally(const object& obj) {
  return korc_pending(obj, "Waiting for OpenStack resource to be created externally");
}

object korc_terminal(const object& obj, std::string_view reason, std::string_view message, std::int64_t generation,
                     std::int64_t observed) {
  return with_conditions(obj, generation,
                         "[" + cond("Available", "False", reason, message, observed) + "," +
                             cond("Progressing", "False", reason, message, observed) + "]");
}

object korc_resource(const object& obj, std::string_view field, std::string_view value) {
  auto b = obj.edit();
  b.set_string({"status", "resource", field}, value);
  return std::move(b).freeze();
}

object with_uid(const object& obj, std::string_view uid, std::string_view rv) {
  auto b = obj.edit();
  b.set_string({"metadata", "uid"}, uid);
  b.set_resource_version(rv);
  return std::move(b).freeze();
}

object annotated(const object& obj, std::string_view key, std::string_view value) {
  auto b = obj.edit();
  b.set_annotation(key, value);
  return std::move(b).freeze();
}

object role_assignment(std::string_view name, std::string_view user, std::string_view project) {
  return reference_object("KeystoneRoleAssignment", name, user, project);
}

object application_credential(std::string_view name, std::string_view user, std::string_view project) {
  return reference_object("KeystoneApplicationCredential", name, user, project);
}

object pushed(const object& push, std::string_view hash_key, std::string_view before_key, std::string_view hash) {
  auto b = with_condition(push, "Ready", true).edit();
  b.set_annotation(hash_key, hash);
  b.set_annotation(before_key, "");
  b.set_string({"status", "syncedResourceVersion"}, "1-abc");
  return std::move(b).freeze();
}

}  // namespace c5c3::test
