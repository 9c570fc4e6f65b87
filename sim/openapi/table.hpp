// meta.k8s.io/v1 Table rendering, as kube-apiserver answers
// `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`: the kind's columns
// (a CRD's additionalPrinterColumns, evaluated with JSONPath, or the
// built-in printers' columns) and one row per object.
#pragma once

#include "k8s/api_resource.hpp"
#include "k8s/json.hpp"
#include "k8s/object.hpp"
#include "k8s/time.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim::openapi {

// ?includeObject=: what each row carries in `object`.
enum class include_object { none, metadata, object };

// "" and "Metadata" -> metadata, "None", "Object"; nullopt for anything else
// (the server answers 400 BadRequest: unrecognized includeObject value: "x").
std::optional<include_object> parse_include_object(std::string_view value);

struct table_options {
  include_object include = include_object::metadata;
  bool no_headers = false;  // TableOptions.noHeaders (watch events after the first): columnDefinitions null
  k8s::time_point now;      // ages and date columns are relative to this
};

// ListMeta of the list a table renders.
struct list_meta {
  std::string resource_version;
  std::string continue_token;
  std::optional<std::int64_t> remaining_item_count;
};

struct column_definition {
  std::string name;
  std::string type;
  std::string format;
  std::string description;
  int priority = 0;
};

// The columns a kind's tables have: Name first, then the printer's columns.
std::vector<column_definition> table_columns(const k8s::api_resource& resource);

// One row's cells, in table_columns order, written into `alloc`.
std::vector<k8s::json_value> table_cells(const k8s::api_resource& resource, const k8s::object& obj,
                                         k8s::time_point now, k8s::json_allocator& alloc);

// A Table for one object (GET of a single resource).
k8s::json_document render_table(const k8s::api_resource& resource, const k8s::object& obj,
                                const table_options& options);
// A Table for a list.
k8s::json_document render_table(const k8s::api_resource& resource,
                                const std::vector<k8s::object>& items, const list_meta& meta,
                                const table_options& options);

// apimachinery's duration.HumanDuration ("45s", "3m20s", "5h", "12d", "2y30d").
std::string human_duration(std::chrono::nanoseconds d);
// translateTimestampSince: "<unknown>" for an empty or unparsable time.
std::string age_since(std::string_view rfc3339, k8s::time_point now);

}  // namespace c5c3::sim::openapi
