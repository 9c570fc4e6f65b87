// A small RE2-syntax regular expression engine (boolean matching only), as Go's
// regexp package reads OpenAPI `pattern`s and CEL `matches()`: linear time, no
// backtracking and no recursion over the input, so long values cannot blow the
// stack (libstdc++'s std::regex recurses once per character).
//
// Supported: literals, ., [classes] with ranges, negation, \d\w\s and [:posix:]
// names, (groups), (?:...), (?P<name>...), (?flags) and (?flags:...) with i and s,
// alternation, * + ? {n} {n,} {n,m} (and their lazy forms), ^ $ \A \z \b \B,
// escapes \t \n \r \f \v \a \xHH \x{H...}. Not supported (refused at compile):
// \p{...} Unicode classes and backreferences.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim::validation {

class re2_pattern {
 public:
  // nullopt and `error` when the pattern does not compile.
  static std::optional<re2_pattern> compile(std::string_view pattern, std::string* error = nullptr);

  // Whether the pattern matches anywhere in `text` (Go's MatchString).
  bool search(std::string_view text) const;

  struct inst {
    enum op_t { ranges, any, any_nl, split, jmp, match, bol, eol, word_b, not_word_b } op = match;
    std::vector<std::pair<char32_t, char32_t>> set;  // sorted ranges for `ranges`
    bool negated = false;
    int x = 0, y = 0;
  };

 private:
  std::vector<inst> prog_;
};

// A compiled OpenAPI `pattern` (opaque in schema.hpp).
struct compiled_pattern {
  re2_pattern re;
};

}  // namespace c5c3::sim::validation
