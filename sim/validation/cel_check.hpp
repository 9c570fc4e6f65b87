// Compile-time checks of a CEL rule against the subset and the schema it sits
// on: every name, function and macro must be one the evaluator implements,
// field selections must name properties the schema declares, operands must
// have types some overload accepts (types come from the schema; what cannot
// be known statically is dyn and checked at run time), and oldSelf is only
// allowed where an old value can be correlated.
#pragma once

#include "sim/validation/cel_ast.hpp"

#include <string>

namespace c5c3::sim::validation {
struct schema_node;
}

namespace c5c3::sim::validation::cel {

struct check_result {
  std::string error;  // empty when the expression is accepted
  bool uses_old_self = false;
};

// `want_string`: the expression is a messageExpression (a string), not a rule (a bool).
check_result check(const expr& e, const schema_node& self, bool resource_root, bool old_self_allowed,
                   bool want_string = false);

// The schema of `metadata` as CEL sees it at a resource root (name, generateName).
const schema_node& root_metadata_schema();
const schema_node& string_schema();

}  // namespace c5c3::sim::validation::cel
