// Evaluation of a parsed CEL expression with `self` (and `oldSelf` for
// transition rules) bound. Errors are values (CEL semantics: `true || error`
// is true), reported with cel-go's wording ("no such key: x").
#pragma once

#include "sim/validation/cel_ast.hpp"
#include "sim/validation/cel_value.hpp"

#include <string>

namespace c5c3::sim::validation::cel {

value evaluate(const expr& e, const value& self, const value* old_self);

}  // namespace c5c3::sim::validation::cel
