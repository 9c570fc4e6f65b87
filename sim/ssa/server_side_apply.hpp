// Server-side apply and managedFields bookkeeping as kube-apiserver does them
// (structured-merge-diff's Updater behind the apiserver's fieldmanager).
//
// The emulator calls:
//   - apply() for PATCH with Content-Type application/apply-patch+yaml (the
//     body converted to JSON; `live` null when the object does not exist);
//   - update_managed_fields() for every create, update (PUT) and non-apply
//     patch, with the object before and after the change.
// Both answer the object to store with metadata.managedFields rewritten.
#pragma once

#include "k8s/json.hpp"
#include "sim/ssa/field_set.hpp"
#include "sim/ssa/managed_fields.hpp"
#include "sim/ssa/schema.hpp"

#include <string>
#include <vector>

namespace c5c3::sim::ssa {

struct apply_options {
  std::string manager;      // fieldManager (required for apply)
  bool force = false;       // force=true: take ownership from the others
  std::string api_version;  // of the request, e.g. "v1" or "c5c3.io/v1alpha1"
  std::string subresource;  // "" or "status"
  std::string now;          // RFC 3339 time written into the manager's entry
  // Top-level fields this endpoint resets (the strategy's reset fields):
  // "status" on the main resource of a kind with a status subresource,
  // "spec" (and "metadata" changes are the caller's) on /status. They are
  // neither merged from the request nor owned.
  std::vector<std::string> ignored_fields;
  type_schema schema;  // schema.root null: deduced
};

struct apply_conflict {
  std::string manager;  // managed_fields_entry::printed()
  path field;
};

struct apply_result {
  // Set when the apply (or update) succeeded: the new object with its
  // managedFields.
  k8s::json_document object;
  bool ok = false;
  // Whether the object changed apart from metadata.managedFields.
  bool changed = false;
  // 409: the fields another manager owns with a different value.
  std::vector<apply_conflict> conflicts;
  // The Status message: for 409 "Apply failed with 1 conflict: conflict with
  // "m" using v1: .data.key", or the reason of a bad request (a list item
  // without its key, duplicate keys, malformed managedFields).
  std::string message;
  // Non-zero on failure: 409 for conflicts, 400 for bad input (no
  // fieldManager, managedFields in the configuration, malformed managedFields
  // in an update), 500 for a configuration the schema cannot type (a list
  // item without its key, duplicate keys), which kube-apiserver answers as
  // `failed to create typed patch object (ns/name; /v1, Kind=K): ...`.
  int code = 0;

  // The metav1.Status body of a failure (kind Status, reason Conflict,
  // details.causes of type FieldManagerConflict for conflicts; no reason for
  // 500).
  k8s::json_document status() const;
};

// Applies `config` as `options.manager` onto `live` (null: create).
apply_result apply(const k8s::json_value* live, const k8s::json_value& config,
                   const apply_options& options);

struct update_options {
  std::string manager;      // fieldManager (from the query, else the user agent's)
  std::string api_version;  // of the request
  std::string subresource;  // "" or "status"
  std::string now;          // RFC 3339
  std::vector<std::string> ignored_fields;
  type_schema schema;
};

// What a create (`old` null), update or non-apply patch does to managedFields:
// the fields that changed from `old` to `updated` move to `options.manager`
// (operation Update), other managers lose them, empty entries are dropped.
// A request that carries managedFields sets them (an empty list resets them);
// without them the old object's are kept. Never conflicts.
apply_result update_managed_fields(const k8s::json_value* old, const k8s::json_value& updated,
                                   const update_options& options);

// The message kube-apiserver gives for these conflicts (already sorted as
// apply() returns them).
std::string conflict_message(const std::vector<apply_conflict>& conflicts);

// Fields no manager ever owns: apiVersion, kind, metadata itself and
// metadata.{name, namespace, uid, resourceVersion, generation,
// creationTimestamp, selfLink, managedFields, clusterName}.
field_set strip_unowned_fields(const field_set& s);

}  // namespace c5c3::sim::ssa
