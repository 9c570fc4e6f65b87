// Go's fmt renderings that kube-apiserver's messages depend on: %q of a
// string and %v of a float64 / JSON value.
#pragma once

#include "k8s/go_quote.hpp"
#include "k8s/json.hpp"

#include <string>
#include <string_view>

namespace c5c3::sim::validation {

// strconv.Quote: a double-quoted Go string literal (k8s/go_quote.hpp).
using k8s::go_quote;
// fmt's %v of a float64 ("1", "1.5", "1e+21", "1e-05").
std::string go_float(double d);
// %v of a number as kube decodes JSON: integers as int64, others as float64.
std::string go_number(const k8s::json_value& v);
// encoding/json's rendering of a value (object keys sorted, as Go maps are).
std::string go_json(const k8s::json_value& v);

}  // namespace c5c3::sim::validation
