// The K-ORC kinds the world simulates (apis.md 3.3; openstack.k-orc.cloud/v1alpha1)
// as data: what each references, how it reads, creates, updates and deletes its
// Keystone resource, and what status.resource shows. Pure; korc_step.hpp runs
// the generic reconcile over it.
#pragma once

#include "k8s/object.hpp"
#include "sim/world/identity.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace c5c3::sim::world {

enum class korc_kind { domain, project, role, user, role_assignment, application_credential, service, endpoint, region };

inline constexpr std::string_view korc_group = "openstack.k-orc.cloud";
inline constexpr std::string_view korc_version = "v1alpha1";

struct korc_kind_info {
  korc_kind kind;
  std::string_view k8s_kind;    // "RoleAssignment"
  std::string_view controller;  // "roleassignment": the finalizer is openstack.k-orc.cloud/<controller>
  std::string_view collection;  // Keystone's "role_assignments"
  std::string_view singular;    // Keystone's "role_assignment"
  bool has_id = true;           // a RoleAssignment has no id in Keystone
};

const std::vector<korc_kind_info>& korc_kinds();
std::optional<korc_kind_info> korc_kind_of(std::string_view k8s_kind);
const korc_kind_info& korc_info(korc_kind k);
k8s::gvk korc_gvk(korc_kind k);

// "openstack.k-orc.cloud/<controller>": a K-ORC object's own finalizer, and the
// deletion guard its controller puts on what it references.
std::string korc_finalizer(korc_kind k);

// An object a K-ORC object names.
struct korc_ref {
  std::string kind;   // "Domain", "Project", "Role", "User", "Service", "Region", "Group" or "Secret"
  std::string name;
  std::string field;  // "domainRef", "roleRefs", "cloudCredentialsRef", "passwordRef", ...
  bool guard = false; // K-ORC holds it with a deletion-guard finalizer
  friend bool operator==(const korc_ref&, const korc_ref&) = default;
};

// spec.resource refs (guards, except passwordRef and secretRef) and the
// cloudCredentialsRef Secret (a guard).
std::vector<korc_ref> resource_refs(const k8s::object& o);
// spec.import.filter refs (no guard).
std::vector<korc_ref> filter_refs(const k8s::object& o);
// Both, and cloudCredentialsRef: everything a reconcile reads.
std::vector<korc_ref> all_refs(const k8s::object& o);
// Whether `o` holds `guarded` (kind and name) with a deletion guard.
bool guards(const k8s::object& o, std::string_view kind, std::string_view name);

// spec.resource.name, or metadata.name.
std::string korc_resource_name(const k8s::object& o);

// What the referenced objects resolve to: "domainRef" -> its status.id, and for
// lists one entry per item ("roleRefs" -> ids; "accessRules" -> service types).
using korc_resolved = std::map<std::string, std::vector<std::string>>;

// A Keystone lookup: the list call, and the record fields each match must have
// ("scope.project.id" -> id), checked again on the answer.
struct korc_lookup {
  identity_call call;
  std::vector<std::pair<std::string, std::string>> equal;
};

// GET of the resource by id; for a RoleAssignment the list of its components.
identity_call korc_get_call(korc_kind k, std::string_view id, const korc_resolved& r);
// The import filter's lookup (spec.import.filter).
korc_lookup korc_import_lookup(const k8s::object& o, const korc_resolved& r);
// The adoption lookup of a managed object without status.id (by name).
std::optional<korc_lookup> korc_adoption_lookup(const k8s::object& o, const korc_resolved& r);
// The records of a list answer that satisfy `l`.
std::vector<k8s::object> korc_matches(korc_kind k, const k8s::object& answer, const korc_lookup& l);
// The resource record of a GET answer ({"user": {...}}), or the record itself
// for a RoleAssignment list answer with exactly one item.
k8s::object korc_record(korc_kind k, const k8s::object& answer);

// Create: the call, given the resolved references and the secret value
// (User password, ApplicationCredential secret; "" for none).
identity_call korc_create_call(const k8s::object& o, const korc_resolved& r, std::string_view secret);
// The record a create answered (a RoleAssignment: rebuilt from its parts).
k8s::object korc_created_record(const k8s::object& o, const korc_resolved& r, const k8s::object& answer);
// Update of the mutable attributes that differ from `record` (none: nullopt).
std::optional<identity_call> korc_update_call(const k8s::object& o, const k8s::object& record);
// Delete (a Domain is disabled first: Keystone refuses to delete an enabled one).
std::vector<identity_call> korc_delete_calls(korc_kind k, const k8s::object& record, const korc_resolved& r);

// The Keystone id of a record ("" for a RoleAssignment).
std::string korc_record_id(korc_kind k, const k8s::object& record);
// status.resource of a record, in `b`'s allocator.
k8s::json_value korc_resource_status(korc_kind k, const k8s::object& record, k8s::json_allocator& a);

}  // namespace c5c3::sim::world
