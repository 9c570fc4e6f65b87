// The subset of Kubernetes JSONPath (k8s.io/client-go/util/jsonpath) that
// CRD additionalPrinterColumns use, evaluated with missing keys allowed:
//   .a.b        fields ("$" and the "{...}" wrapper are accepted)
//   ['a.b']     quoted field names
//   [n] [-n]    array index (negative counts from the end)
//   [*] .*      every element of an array or value of an object
//   [?(@.x.y == 'v')]  filters with ==, !=, <, >, <=, >= against string,
//                      number, true/false literals; [?(@.x)] tests presence
#pragma once

#include "k8s/json.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim::openapi {

class jsonpath {
 public:
  // nullopt (and `error`) when `expr` is outside the subset or malformed.
  static std::optional<jsonpath> parse(std::string_view expr, std::string* error = nullptr);

  // The values `expr` selects in `root`, in document order. A missing key or
  // out-of-range index selects nothing; a type error (indexing a non-array,
  // comparing a string with a number) selects nothing at all, as the kube
  // table convertor turns such errors into an empty cell.
  std::vector<const k8s::json_value*> find(const k8s::json_value& root) const;

  struct step;  // one parsed segment (defined in jsonpath.cpp)

 private:
  explicit jsonpath(std::shared_ptr<const std::vector<step>> steps) : steps_(std::move(steps)) {}
  std::shared_ptr<const std::vector<step>> steps_;
};

}  // namespace c5c3::sim::openapi
