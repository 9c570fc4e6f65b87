// The emulator's calls into its sibling libraries: discovery and tables
// (sim/openapi), server-side apply, managedFields and strategic merge patch
// (sim/ssa). Kept in one place so the HTTP layer stays independent of them.
#pragma once

#include "sim/apiserver/field_validation.hpp"

#include "k8s/api_resource.hpp"
#include "k8s/object.hpp"
#include "k8s/status.hpp"

#include <optional>
#include <string>
#include <vector>

namespace c5c3::sim {

struct discovery_answer {
  int code = 200;
  std::string content_type = "application/json";
  std::string body;
};

// /api, /api/v1, /apis, /apis/g, /apis/g/v, /openapi/...: nullopt when `path`
// is not a discovery path (or nothing is served there).
std::optional<discovery_answer> discovery(const std::string& path, const std::string& accept,
                                          const std::vector<k8s::api_resource>& served,
                                          const std::string& server_address);

// Table rendering (Accept: ...;as=Table) with sim/openapi's render_table;
// throws 400 for an unknown includeObject.
k8s::json_document table_of(const k8s::api_resource& r, const std::vector<k8s::object>& items,
                            const std::string& resource_version, const std::string& continue_token,
                            const std::string& include_object,
                            std::optional<std::int64_t> remaining = std::nullopt);
k8s::json_document table_of(const k8s::api_resource& r, const k8s::object& obj,
                            const std::string& include_object);

struct write_context {
  std::string manager;
  std::string api_version;
  std::string subresource;
  bool status_subresource = false;  // the kind has one
  bool force = false;
  const k8s::api_resource* resource = nullptr;  // the kind written (its schema)
};

// managedFields for a create (old null), update or non-apply patch: the
// object to store. Throws api_failure on malformed managedFields.
k8s::json_document with_managed_fields(const k8s::json_value* old, const k8s::json_value& updated,
                                       const write_context& ctx);

// Server-side apply of `config` onto `live` (null: create). Throws api_failure.
k8s::json_document server_side_apply(const k8s::json_value* live, const k8s::json_value& config,
                                     const write_context& ctx);

// Strategic merge patch for a built-in kind; nullopt when the kind does not
// support it (the server answers 415).
std::optional<k8s::json_document> strategic_merge(const k8s::api_resource& r,
                                                  const k8s::json_value& original,
                                                  const k8s::json_value& patch, std::string* error);

// Custom resources: prune, default and validate `doc` against the kind's
// schema (`old` on update). Throws api_failure (422) with kube's causes.
void validate_custom(const k8s::api_resource& r, k8s::json_document& doc, const k8s::json_value* old);
// Server-side field validation (field_validation.hpp): drops the duplicate and the
// undeclared fields of a write's object from `doc` and answers what they were.
field_findings check_fields(const k8s::api_resource& r, k8s::json_document& doc);
// The fields of a custom resource its structural schema does not declare, dropped.
std::vector<std::string> custom_undeclared(const k8s::api_resource& r, k8s::json_value& obj);
// A CRD's version schemas compile (structural, supported CEL); throws 422.
void validate_crd_schemas(const k8s::json_value& crd);

}  // namespace c5c3::sim
