// The RE2-syntax matcher used for OpenAPI patterns and CEL matches().
#include "sim/validation/re2.hpp"

#include "helpers.hpp"

using namespace c5c3::sim::validation;

BOOST_AUTO_TEST_SUITE(re2_matcher)

BOOST_AUTO_TEST_CASE(matches_like_go_regexp) {
  struct {
    const char* pattern;
    std::string text;
    bool want;
  } cases[] = {
      {"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "tenant-a", true},
      {"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "Bad_NS", false},
      {"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "a-", false},
      {"^[^,]+$", "a,b", false},
      {"^[^,]+$", "ab", true},
      {"^https?://[^\\s/]+", "https://keystone.example.com/v3", true},
      {"^https?://[^\\s/]+", "ftp://x", false},
      {"^([a-zA-Z0-9._-]+|\\[[0-9a-fA-F:.]+\\]):[0-9]{1,5}$", "broker.example.com:5671", true},
      {"^([a-zA-Z0-9._-]+|\\[[0-9a-fA-F:.]+\\]):[0-9]{1,5}$", "[fd00::1]:5672", true},
      {"^([a-zA-Z0-9._-]+|\\[[0-9a-fA-F:.]+\\]):[0-9]{1,5}$", "broker.example.com", false},
      {"^([a-zA-Z0-9._-]+|\\[[0-9a-fA-F:.]+\\]):[0-9]{1,5}$", "h:123456", false},
      {"b", "abc", true},  // unanchored search
      {"^b", "abc", false},
      {"c$", "abc", true},
      {"a$", "a\n", false},  // $ is end of text without (?m)
      {"\\Aab\\z", "ab", true},
      {"(?i)^abc$", "AbC", true},
      {"^(?i:ab)c$", "ABc", true},
      {"^(?i:ab)c$", "ABC", false},
      {"^a{2,3}$", "aaa", true},
      {"^a{2,3}$", "aaaa", false},
      {"^a{2}$", "aa", true},
      {"^a{2,}$", "aaaaa", true},
      {"^x{1,2}?y$", "xxy", true},
      {"^(ab|cd)+$", "abcdab", true},
      {"^(ab|cd)+$", "abc", false},
      {"^\\d+\\.\\d+$", "1.25", true},
      {"^\\w+$", "snake_case9", true},
      {"^\\S+$", "no space", false},
      {"^[[:alpha:]]+$", "Abc", true},
      {"^[^[:digit:]]+$", "a1", false},
      {"\\bword\\b", "a word here", true},
      {"\\bword\\b", "swordfish", false},
      {"^.$", "\xc3\xa9", true},  // . is one code point
      {"^.$", "\n", false},
      {"(?s)^.$", "\n", true},
      {"^caf\xc3\xa9$", "caf\xc3\xa9", true},
      {"^\\x41\\x{42}$", "AB", true},
      {"^(?P<name>a)(?:b)$", "ab", true},
      {"a{,2}", "a{,2}", true},  // not a repetition: literal text
      {"", "anything", true},
  };
  for (auto& c : cases) {
    std::string err;
    auto re = re2_pattern::compile(c.pattern, &err);
    BOOST_TEST_REQUIRE(re.has_value(), c.pattern << ": " << err);
    BOOST_TEST(re->search(c.text) == c.want, c.pattern << " on " << c.text);
  }
}

BOOST_AUTO_TEST_CASE(long_input_runs_in_linear_time_without_recursion) {
  auto re = re2_pattern::compile("^[^,]+$");
  BOOST_TEST_REQUIRE(re.has_value());
  BOOST_TEST(re->search(std::string(1000000, 'a')));
  // Built by append: g++ 12 at -O2 warns, wrongly, of operator+ here (-Warray-bounds).
  BOOST_TEST(!re->search(std::string(500000, 'a').append(",").append(500000, 'a')));
  // A pattern that backtracks exponentially in a backtracking engine.
  auto evil = re2_pattern::compile("^(a+)+$");
  BOOST_TEST_REQUIRE(evil.has_value());
  BOOST_TEST(!evil->search(std::string(5000, 'a').append("!")));
}

BOOST_AUTO_TEST_CASE(invalid_patterns_are_refused) {
  for (const char* bad : {"(", "a)", "[a", "*a", "a**", "\\", "[z-a]", "\\p{L}", "\\1", "(?<", "x{1001}"}) {
    std::string err;
    BOOST_TEST(!re2_pattern::compile(bad, &err).has_value(), bad);
    BOOST_TEST(err.rfind("error parsing regexp: ", 0) == 0u, bad << ": " << err);
  }
}

BOOST_AUTO_TEST_SUITE_END()
