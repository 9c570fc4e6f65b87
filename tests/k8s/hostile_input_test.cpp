// Regression tests for what fuzzing (tests/fuzz, tools/fuzz) found in the
// object model's parsers, each with the input that showed it.
#include "k8s/json.hpp"
#include "k8s/json_answer.hpp"
#include "k8s/object.hpp"
#include "k8s/selector.hpp"
#include "k8s/time.hpp"
#include "k8s/yaml.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::k8s;

BOOST_AUTO_TEST_SUITE(hostile_input)

// json_object: RapidJSON keeps duplicate keys and finds the first; Go keeps the last.
BOOST_AUTO_TEST_CASE(duplicate_keys_keep_the_last_as_go_does) {
  auto o = object::parse(R"({"metadata":{"name":"first","labels":{"a":"1","a":"2"},"name":"last"}})");
  BOOST_REQUIRE(o.has_value());
  BOOST_TEST(o->name() == "last");
  BOOST_TEST(o->labels().at("a") == "2");
  BOOST_TEST(o->to_json() == R"({"metadata":{"labels":{"a":"2"},"name":"last"}})");
  BOOST_TEST(json_equal(o->json(), o->json()));
}

// json_object: 2e308 parsed to infinity, and to_json() then wrote a truncated document.
BOOST_AUTO_TEST_CASE(numbers_beyond_a_double_are_refused) {
  std::string err;
  BOOST_TEST(!parse_json(R"({"n":[2e308]})", &err).has_value());
  BOOST_TEST(err == "invalid JSON: a number is out of the range of a double");
  BOOST_TEST(parse_json(R"({"n":[1.7e308,-0,18446744073709551615]})").has_value());
  BOOST_TEST(!yaml_to_json("n: .inf\n", &err).has_value());
  BOOST_TEST(err == "invalid YAML: json: unsupported value: +Inf");
  BOOST_TEST(!yaml_to_json("n: -1e999\n", &err).has_value());
}

// An answer holding invalid UTF-8 (the emulator's nonUtf8 hostile body): the
// client's decoding refuses it with the offset; valid multi-byte text and
// escapes pass, and parse_json (what the emulator parses requests with) keeps
// its bytes as they came.
BOOST_AUTO_TEST_CASE(answers_with_invalid_utf8_are_refused) {
  std::string err;
  BOOST_TEST(parse_answer_json(R"({"reason":"Grüße \u00fc \ud83d\ude00 😀"})", &err).has_value(), err);
  for (std::string bad : {"\xc3(", "\xff", "\xe2\x82", "\xed\xa0\x80" /* a surrogate */, "\xf8\x88\x80\x80\x80"}) {
    const std::string text = R"({"status":{"reason":"VhostReady)" + bad + R"("}})";
    BOOST_TEST_CONTEXT("bytes of " << text.size()) {
      err.clear();
      BOOST_TEST(!parse_answer_json(text, &err).has_value());
      BOOST_TEST(err.rfind("invalid JSON at offset ", 0) == 0u, err);
      BOOST_TEST(err.find("Invalid encoding in string.") != std::string::npos, err);
      BOOST_TEST(parse_json(text).has_value());
    }
  }
}

// Deep nesting overflowed the stack of RapidJSON's recursive parser.
BOOST_AUTO_TEST_CASE(nesting_is_bounded) {
  auto nested = [](std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  BOOST_TEST(parse_json(nested(max_json_depth)).has_value());
  std::string err;
  BOOST_TEST(!parse_json(nested(max_json_depth + 1), &err).has_value());
  BOOST_TEST(err == "invalid JSON: nested deeper than 1000 levels");
  BOOST_TEST(!parse_json(std::string(200000, '{'), &err).has_value());
  // Brackets inside strings do not count.
  BOOST_TEST(parse_json("[\"" + std::string(5000, '[') + "\"]").has_value());
  BOOST_TEST(!yaml_to_json(nested(max_json_depth + 1), &err).has_value());
}

// kubeconfig: an alias inside the node it names recursed until the stack overflowed.
BOOST_AUTO_TEST_CASE(yaml_aliases_cannot_loop_or_explode) {
  std::string err;
  BOOST_TEST(!yaml_to_json("a: &x {b: [1, 2, *x]}\n", &err).has_value());
  BOOST_TEST(err == "invalid YAML: an anchor's value contains itself");
  std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  // Each level names the one before ten times (appended piece by piece: g++ 12 at -O2 warns, wrongly, of a
  // long chain of operator+ on chars, -Warray-bounds).
  for (char c = 'b'; c <= 'j'; ++c) {
    laughs.append(1, c).append(": &").append(1, c).append(" [");
    for (int i = 0; i < 10; ++i) laughs.append(i ? ", *" : "*").append(1, char(c - 1));
    laughs.append("]\n");
  }
  BOOST_TEST(!yaml_to_json(laughs, &err).has_value());
  BOOST_TEST(err == "invalid YAML: the document contains excessive aliasing");
  // Aliases that are merely reused are fine.
  auto ok = yaml_to_json("a: &x {k: v}\nb: *x\nc: [*x, *x]\n");
  BOOST_REQUIRE(ok.has_value());
  BOOST_TEST(to_json(*ok) == R"({"a":{"k":"v"},"b":{"k":"v"},"c":[{"k":"v"},{"k":"v"}]})");
}

// kubeconfig: yaml-cpp 0.7's LoadAll never returned on "!," (and ",", ",a",
// "\"x\",", a tag then a quoted scalar then ',', a flow collection then ',',
// at any indentation, after "---" or on the next line).
BOOST_AUTO_TEST_CASE(yaml_that_would_hang_yaml_cpp_is_refused) {
  for (const char* text : {",", "!,", "!a,", "! ,", ",a", "\"x\",", "!t: \"x\", y", "&a \"x\",", "'x',", "  \"x\",",
                           "--- \"x\",", "\"x\"\n  ,", "[a], b", "{a: 1}, b", "[a,\n b], c", "a: 1\n---\n\"x\","}) {
    std::string err;
    BOOST_TEST_CONTEXT(text) {
      BOOST_TEST(!yaml_to_json(text, &err).has_value());
      BOOST_TEST(err.find("unexpected ','") != std::string::npos);
    }
  }
  // Refused by yaml-cpp itself (no hang), and what is fine.
  std::string err;
  BOOST_TEST(!yaml_to_json("a: b\n,c\n", &err).has_value());
  BOOST_TEST(!yaml_to_json("- [1],", &err).has_value(), "LoadAll used to answer no document at all");
  BOOST_TEST(yaml_to_json("c: [x, y]\nd: 'a,b'\ne: \"p, q\"\n").has_value());
  auto two = yaml_documents_to_json("a: 1\n---\n---\nb: 2\n", &err);
  BOOST_TEST_REQUIRE(two.has_value(), err);
  BOOST_TEST(two->size() == 2u);
}

// kubeconfig (exec credential expirationTimestamp): a year past 2262
// overflowed the nanosecond time_point (signed overflow).
BOOST_AUTO_TEST_CASE(far_timestamps_clamp) {
  BOOST_TEST((parse_rfc3339("6333-01-01T00:00:00Z") == time_point::max()));
  BOOST_TEST((parse_rfc3339("9999-12-31T23:59:59Z") == time_point::max()));
  BOOST_TEST((parse_rfc3339("0001-01-01T00:00:00Z") == time_point::min()));
  BOOST_TEST(format_rfc3339(*parse_rfc3339("2261-12-31T23:59:59Z")) == "2261-12-31T23:59:59Z");
}

// selectors: "not\0\0\0\t=-==" split at the later "==" instead of the first
// operator, so printing and parsing again changed what the selector matched.
BOOST_AUTO_TEST_CASE(field_selectors_split_and_escape_as_apimachinery) {
  struct row {
    std::string text;
    std::string field;
    bool negated;
    std::string value;
  };
  for (const auto& r : std::vector<row>{{"a=b!=c", "a", false, ""},
                                         {"a!=b", "a", true, "b"},
                                         {"a==b", "a", false, "b"},
                                         {"a=x\\,y\\=z\\\\", "a", false, "x,y=z\\"},
                                         {"a=-=", "", false, ""}}) {
    std::string err;
    auto s = field_selector::parse(r.text, &err);
    BOOST_TEST_CONTEXT(r.text) {
      if (r.field.empty()) {
        BOOST_TEST(!s.has_value());
        BOOST_TEST(err == "invalid field selector: unescaped character in value: 61");
        continue;
      }
      if (r.text == "a=b!=c") {
        BOOST_TEST(!s.has_value());  // the value holds a bare '='
        continue;
      }
      BOOST_REQUIRE(s.has_value());
      BOOST_REQUIRE(s->requirements().size() == 1u);
      BOOST_TEST(s->requirements()[0].field == r.field);
      BOOST_TEST(s->requirements()[0].negated == r.negated);
      BOOST_TEST(s->requirements()[0].value == r.value);
      auto again = field_selector::parse(s->to_string());
      BOOST_REQUIRE(again.has_value());
      BOOST_TEST(again->requirements()[0].value == r.value);
    }
  }
  auto s = field_selector::parse(std::string("not\0\0\0\t=-==", 12));
  BOOST_TEST(!s.has_value());
  // An escaped comma does not split terms; terms are sorted.
  s = field_selector::parse("b=2,a=x\\,y");
  BOOST_REQUIRE(s.has_value());
  BOOST_TEST(s->to_string() == "a=x\\,y,b=2");
}

BOOST_AUTO_TEST_SUITE_END()
