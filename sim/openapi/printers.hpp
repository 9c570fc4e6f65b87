// The built-in kinds' table printers (internal to sim/openapi): the columns
// kube-apiserver's printers declare, and the cells they compute.
#pragma once

#include "sim/openapi/json_build.hpp"
#include "sim/openapi/table.hpp"

#include <vector>

namespace c5c3::sim::openapi::detail {

using cells_fn = void (*)(const k8s::json_value& obj, k8s::time_point now, json_builder& b,
                          std::vector<k8s::json_value>& out);

struct printer {
  std::vector<column_definition> columns;  // all of them, Name included
  cells_fn cells;                          // appends one cell per column
};

// APIService's (apiservice_printer.cpp).
printer apiservice_printer();

// The printer of a built-in resource, or null for custom resources.
const printer* builtin_printer(std::string_view group, std::string_view plural);

// Descriptions of the Name and Age columns.
extern const char* const name_description;
extern const char* const creation_timestamp_description;

}  // namespace c5c3::sim::openapi::detail
