// One table row per CEL construct of the subset: parse, evaluate against a
// `self`, compare with the expected outcome.
#include "sim/validation/cel_ast.hpp"
#include "sim/validation/cel_eval.hpp"
#include "sim/validation/cel_value.hpp"

#include "helpers.hpp"

using namespace c5c3::sim::validation;
using namespace c5c3::sim::validation::testing;

namespace {

// "true", "false" or "error: <substring of the message>".
std::string outcome(const std::string& source, const std::string& self_json, const std::string& old_json = "") {
  std::string err;
  auto e = cel::parse(source, &err);
  if (!e) return "syntax: " + err;
  auto self_doc = json(self_json);
  auto self = cel::from_json(self_doc, nullptr);
  std::optional<cel::value> old;
  k8s::json_document old_doc;
  if (!old_json.empty()) {
    old_doc = json(old_json);
    old = cel::from_json(old_doc, nullptr);
  }
  auto v = cel::evaluate(*e, self, old ? &*old : nullptr);
  if (v.is_error()) return "error: " + v.s;
  if (v.kind != cel::value_kind::boolean) return "non-bool " + cel::type_name(v);
  return v.b ? "true" : "false";
}

struct cel_case {
  const char* expr;
  const char* self;
  const char* want;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(cel_subset)

BOOST_AUTO_TEST_CASE(constructs) {
  const char* obj = R"({"name":"web-1","n":3,"d":2.5,"flag":true,"list":[1,2,3],"strs":["a","b"],
                       "m":{"k":"v"},"nested":{"inner":{"x":1}},"empty":"","namespace":"ns","a-b":1})";
  const cel_case cases[] = {
      // literals and comparisons
      {"1 == 1", "{}", "true"},
      {"1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 3 && 1 != 2", "{}", "true"},
      {"1u == 1u && 2u > 1u", "{}", "true"},
      {"1.5 < 2.0", "{}", "true"},
      {"1 == 1.0", "{}", "true"},
      {"'abc' < 'abd'", "{}", "true"},
      {"\"dq\" == 'dq'", "{}", "true"},
      {"r'\\d' == '\\\\d'", "{}", "true"},
      {"'''tri''' == 'tri'", "{}", "true"},
      {"0x10 == 16", "{}", "true"},
      {"-9223372036854775808 < 0", "{}", "true"},
      {"true != false", "{}", "true"},
      {"null == null", "{}", "true"},
      // logic, with CEL's error absorption
      {"!false", "{}", "true"},
      {"true || self.missing", "{}", "true"},
      {"self.missing || true", "{}", "true"},
      {"false && self.missing", "{}", "false"},
      {"self.missing && true", "{}", "error: no such key: missing"},
      {"self.n > 2 ? 'big' == 'big' : false", obj, "true"},
      // arithmetic
      {"1 + 2 * 3 - 4 / 2 == 5", "{}", "true"},
      {"7 % 3 == 1", "{}", "true"},
      {"-self.n == -3", obj, "true"},
      {"9223372036854775807 + 1 == 0", "{}", "error: integer overflow"},
      {"1 / 0 == 0", "{}", "error: division by zero"},
      {"'a' + 'b' == 'ab'", "{}", "true"},
      {"[1] + [2] == [1, 2]", "{}", "true"},
      // self, field selection, escaping, has()
      {"self.name == 'web-1'", obj, "true"},
      {"self.nested.inner.x == 1", obj, "true"},
      {"has(self.name) && !has(self.nope)", obj, "true"},
      {"has(self.nested.inner)", obj, "true"},
      {"self.nope == 1", obj, "error: no such key: nope"},
      {"self.m['k'] == 'v' && self.m.k == 'v'", obj, "true"},
      {"self.list[1] == 2", obj, "true"},
      {"self.list[5] == 2", obj, "error: index out of bounds: 5"},
      // size()
      {"size(self.name) == 5 && self.name.size() == 5", obj, "true"},
      {"size(self.list) == 3 && size(self.m) == 1", obj, "true"},
      {"size('\xc3\xa9') == 1", "{}", "true"},
      // in
      {"2 in self.list && !(7 in self.list)", obj, "true"},
      {"'k' in self.m", obj, "true"},
      // string functions
      {"self.name.startsWith('web') && self.name.endsWith('-1') && self.name.contains('b-')", obj, "true"},
      {"self.name.matches('^[a-z]+-[0-9]$')", obj, "true"},
      {"self.name.matches('^[0-9]+$')", obj, "false"},
      {"matches(self.name, 'web')", obj, "true"},
      {"'AbC'.lowerAscii() == 'abc' && 'AbC'.upperAscii() == 'ABC'", "{}", "true"},
      {"'  x '.trim() == 'x'", "{}", "true"},
      {"self.strs.join(',') == 'a,b'", obj, "true"},
      // list and map literals
      {"[1, 2, 3].size() == 3", "{}", "true"},
      {"{'a': 1, 'b': 2}['b'] == 2", "{}", "true"},
      {"{'a': 1}.a == 1", "{}", "true"},
      // macros
      {"self.list.all(x, x > 0)", obj, "true"},
      {"self.list.all(x, x > 1)", obj, "false"},
      {"self.list.exists(x, x == 2)", obj, "true"},
      {"self.list.exists_one(x, x > 2)", obj, "true"},
      {"self.list.exists_one(x, x > 1)", obj, "false"},
      {"self.list.map(x, x * 2) == [2, 4, 6]", obj, "true"},
      {"self.list.map(x, x > 1, x * 10) == [20, 30]", obj, "true"},
      {"self.list.filter(x, x % 2 == 1) == [1, 3]", obj, "true"},
      {"self.m.all(k, k == 'k')", obj, "true"},
      {"self.list.exists(x, x == 3 || self.missing)", obj, "true"},
      {"self.list.all(x, self.missing)", obj, "error: no such key: missing"},
      // conversions, durations and timestamps
      {"duration('1h') > duration('59m')", "{}", "true"},
      {"duration('720h') == duration('30h') * 1", "{}", "error: no such overload"},
      {"duration('1m30s') == duration('90s')", "{}", "true"},
      {"duration('-1h') < duration('0s')", "{}", "true"},
      {"duration('nope') == duration('0s')", "{}", "error: invalid duration: nope"},
      {"duration('1h') + duration('1h') == duration('2h')", "{}", "true"},
      {"duration('90m').getHours() == 1 && duration('90m').getMinutes() == 90", "{}", "true"},
      {"timestamp('2026-12-01T00:00:00Z') < timestamp('2026-12-02T00:00:00Z')", "{}", "true"},
      {"timestamp('2026-12-02T00:00:00Z') - timestamp('2026-12-01T00:00:00Z') == duration('24h')", "{}", "true"},
      {"int('42') == 42 && string(42) == '42' && double(1) == 1.0 && uint(3) == 3u", "{}", "true"},
      {"string(duration('90s')) == '90s'", "{}", "true"},
      {"type(1) == type(2)", "{}", "true"},
      {"dyn(1) == 1", "{}", "true"},
      {"'a' + 1 == 'a1'", "{}", "error: no such overload"},
  };
  for (auto& c : cases) {
    auto got = outcome(c.expr, c.self);
    BOOST_TEST(got == c.want, c.expr << " -> " << got);
  }
}

BOOST_AUTO_TEST_CASE(old_self) {
  BOOST_TEST(outcome("self.n >= oldSelf.n", R"({"n":2})", R"({"n":1})") == "true");
  BOOST_TEST(outcome("self.n >= oldSelf.n", R"({"n":1})", R"({"n":2})") == "false");
  BOOST_TEST(outcome("self == oldSelf", R"({"a":[1,{"b":2}]})", R"({"a":[1,{"b":2}]})") == "true");
}

BOOST_AUTO_TEST_CASE(syntax_errors) {
  for (const char* bad : {"self.", "1 +", "(1", "self.namespace", "'unterminated", "a ? b", "has(self)", "1 2",
                          "self.x.all(1, true)"}) {
    std::string err;
    BOOST_TEST(!cel::parse(bad, &err), bad);
    BOOST_TEST(!err.empty(), bad);
  }
  std::string err;
  // Nested n deep (built by append: g++ 12 at -O2 warns, wrongly, of operator+ here, -Warray-bounds).
  auto nested = [](std::size_t n) { return std::string(n, '(').append("1").append(n, ')'); };
  BOOST_TEST(!cel::parse(nested(200), &err));
  BOOST_TEST(err.find("recursion limit") != std::string::npos, err);
  BOOST_TEST(cel::parse(nested(50), &err) != nullptr);
  BOOST_TEST(!cel::parse("self.namespace == 'x'", &err));
  BOOST_TEST(err.find("reserved identifier: namespace") != std::string::npos, err);
}

BOOST_AUTO_TEST_CASE(field_escaping) {
  BOOST_TEST(cel::unescape_field("__namespace__") == "namespace");
  BOOST_TEST(cel::unescape_field("a__dash__b") == "a-b");
  BOOST_TEST(cel::unescape_field("a__dot__b__slash__c") == "a.b/c");
  BOOST_TEST(cel::unescape_field("x__underscores__y") == "x__y");
  BOOST_TEST(cel::escape_field("namespace") == "__namespace__");
  BOOST_TEST(cel::escape_field("a-b.c/d") == "a__dash__b__dot__c__slash__d");
  BOOST_TEST(cel::escape_field("9lives").empty());
  BOOST_TEST(cel::escape_field("plain") == "plain");
}

BOOST_AUTO_TEST_SUITE_END()
