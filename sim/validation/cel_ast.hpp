// The abstract syntax tree of the CEL subset (github.com/google/cel-spec
// grammar, without protobuf messages, optionals or bytes arithmetic).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::sim::validation::cel {

struct expr;
using expr_ptr = std::shared_ptr<const expr>;

enum class literal_kind { null_, boolean, int_, uint_, double_, string, bytes };

struct literal {
  literal_kind kind = literal_kind::null_;
  bool b = false;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double d = 0;
  std::string s;  // string and bytes
};

enum class expr_kind {
  literal,
  ident,      // name
  select,     // operand.name; has() sets test_only
  index,      // operand[args[0]]
  call,       // name(args) or operand.name(args); operators are calls named "_+_", "!_", ...
  list,       // [args...]
  map,        // {args[0]: args[1], ...}
  cond,       // args[0] ? args[1] : args[2]
  macro,      // operand.name(var, args[0][, args[1]]): all, exists, exists_one, map, filter
};

struct expr {
  expr_kind kind = expr_kind::literal;
  int offset = 0;  // byte offset in the source, for messages
  literal lit;
  std::string name;      // identifier, field, function or macro name
  std::string var;       // macro iteration variable
  bool test_only = false;
  expr_ptr operand;      // select/index/member call/macro target
  std::vector<expr_ptr> args;
};

// Parses `source`; nullptr and `error` ("<offset>: message") on a syntax error.
expr_ptr parse(const std::string& source, std::string* error);

}  // namespace c5c3::sim::validation::cel
