// std::regex for the validation TUs. GCC 12 reports a false
// -Wmaybe-uninitialized inside <regex>'s std::function at -O1 with the
// sanitizers; that warning is off in the files that include this header.
#pragma once

#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <regex>
#include <string>

namespace c5c3::sim::validation {

// A compiled OpenAPI `pattern` (opaque in schema.hpp).
struct compiled_pattern {
  std::regex re;
};

}  // namespace c5c3::sim::validation
