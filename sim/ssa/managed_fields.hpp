// metadata.managedFields: decoding, encoding and manager identities, as the
// apiserver's fieldmanager does them.
#pragma once

#include "k8s/json.hpp"
#include "sim/ssa/field_set.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::sim::ssa {

// One metav1.ManagedFieldsEntry.
struct managed_fields_entry {
  std::string manager;
  std::string operation;    // "Apply" or "Update"
  std::string api_version;  // "v1", "group/version"
  std::string time;         // RFC 3339; empty when the entry has none
  std::string subresource;  // "" or e.g. "status"
  field_set fields;         // fieldsType FieldsV1

  // The manager identifier (BuildManagerIdentifier): the entry's JSON without
  // time and fields, and without apiVersion for Apply. Entries with the same
  // identifier are one manager.
  std::string identifier() const;
  // How conflict messages name the manager: `"name"`, `"name" using v1`,
  // `"name" with subresource "status" using v1`.
  std::string printed() const;
};

// Decodes metadata.managedFields of `object`; entries of one identifier are
// merged. nullopt (and `error`) when an entry is malformed (unknown
// fieldsType, bad FieldsV1).
std::optional<std::vector<managed_fields_entry>> read_managed_fields(
    const k8s::json_value& object, std::string* error = nullptr);

// The managedFields array in kube-apiserver's order: Apply before Update, then
// by time, manager, apiVersion, subresource. Entries with empty field sets
// are left out.
k8s::json_value write_managed_fields(std::vector<managed_fields_entry> entries,
                                     k8s::json_allocator& alloc);

// kube-apiserver keeps at most `max_update_managers` (10) Update entries: the
// oldest are merged, per apiVersion, into an "ancient-changes" entry.
void cap_update_managers(std::vector<managed_fields_entry>& entries,
                         std::size_t max_update_managers = 10);

// Writes `entries` as metadata.managedFields of `object` (removing the member
// when there is none).
void set_managed_fields(k8s::json_value& object, std::vector<managed_fields_entry> entries,
                        k8s::json_allocator& alloc);

}  // namespace c5c3::sim::ssa
