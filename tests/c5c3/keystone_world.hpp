// Builders of what a Keystone order sees, for the step tests: the
// ControlPlane, the orders, K-ORC objects in each state of apis.md 3.2.
#pragma once

#include "tests/c5c3/snapshots.hpp"

#include <string>
#include <string_view>

namespace c5c3::test {

// The ControlPlane openstack/cp: tenant-a assigned on the management cluster
// (allowedRoles member and reader, allowCatalogEntries) and on edge-1 (no
// roles, no catalog entries), AdminCredentialReady `admin_ready`, a Managed Keystone
// published as https://keystone.example.test (so orders on edge-1 get it).
object keystone_control_plane(bool admin_ready = true, std::string_view keystone_json =
                                                           R"({"publicEndpoint":"https://keystone.example.test"})");

// A KeystoneUser / KeystoneProject tenant-a/<name> (uid "uid-order") with
// `spec` (defaults to controlPlaneRef openstack/cp), `status`, and the
// kind's finalizer when `finalizer`.
object keystone_user_object(std::string_view name = "alice", std::string_view spec_json = "",
                            std::string_view status_json = "{}", bool finalizer = true, std::int64_t generation = 1);
object keystone_project_object(std::string_view name = "team", std::string_view spec_json = "",
                               std::string_view status_json = "{}", bool finalizer = true,
                               std::int64_t generation = 1);

// A KeystoneApplicationCredential tenant-a/<name> naming `user` and `project`
// (spec_json: the rest of its spec, e.g. "rotation":{...}).
object keystone_application_credential_object(std::string_view name = "creds", std::string_view user = "alice",
                                              std::string_view project = "team", std::string_view spec_json = "",
                                              std::string_view status_json = "{}", bool finalizer = true,
                                              std::int64_t generation = 1);
// A KeystoneRoleAssignment tenant-a/<name> (uid "uid-order", the kind's
// finalizer when `finalizer`) assigning `role` to user alice on project team
// unless `spec_json` is given, created at `created`.
object keystone_role_assignment_object(std::string_view name = "ra", std::string_view spec_json = "",
                                       std::string_view status_json = "{}", bool finalizer = true,
                                       std::string_view created = "2026-12-01T00:00:00Z");
// A KeystoneCatalogEntry tenant-a/<name> (serviceType dns, serviceName
// designate, a public endpoint unless `spec_json` is given).
object keystone_catalog_entry_object(std::string_view name = "dns", std::string_view spec_json = "",
                                     std::string_view status_json = "{}", bool finalizer = true,
                                     std::int64_t generation = 1);
// `cp` with spec.namespaceAssignments replaced by `assignments_json`.
object with_assignments(const object& cp, std::string_view assignments_json);
// A KeystoneUser or KeystoneProject as the assignment reads it: `ready`
// (UserReady / ProjectReady and Ready True, or False with WaitingForX), of
// ControlPlane `cp_name` in openstack.
object referenced_user(std::string_view name, bool ready = true, std::string_view cp_name = "cp");
object referenced_project(std::string_view name, bool ready = true, std::string_view cp_name = "cp");

// K-ORC states (generation 1 unless given): Available at its generation
// with status.id; pending (Progressing True/Progressing); an import that
// matched nothing; a terminal error; a transient error.
object korc_available(const object& obj, std::string_view id, std::int64_t generation = 1);
object korc_pending(const object& obj, std::string_view message = "creating");
object korc_created_externally(const object& obj);
object korc_terminal(const object& obj, std::string_view reason, std::string_view message,
                     std::int64_t generation = 1, std::int64_t observed = 1);
// status.resource.<field> = value.
object korc_resource(const object& obj, std::string_view field, std::string_view value);
// metadata.uid, metadata.resourceVersion.
object with_uid(const object& obj, std::string_view uid, std::string_view rv = "7");
// An annotation.
object annotated(const object& obj, std::string_view key, std::string_view value);

// A KeystoneRoleAssignment / KeystoneApplicationCredential in tenant-a naming
// user and project.
object role_assignment(std::string_view name, std::string_view user, std::string_view project);
object application_credential(std::string_view name, std::string_view user, std::string_view project);

// A PushSecret ESO has pushed since it was stamped with `hash`.
object pushed(const object& push, std::string_view hash_key, std::string_view before_key, std::string_view hash);

}  // namespace c5c3::test
