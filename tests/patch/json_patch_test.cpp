// JSON merge patch (RFC 7386 appendix A) and JSON patch (RFC 6902 appendix A).
#include "k8s/patch.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace c5c3::k8s;

namespace {

json_document parse(const std::string& text) {
  std::string err;
  auto d = parse_json(text, &err);
  BOOST_REQUIRE_MESSAGE(d, "bad JSON in test table: " << text << ": " << err);
  return std::move(*d);
}

bool same(const json_value& a, const std::string& expected) {
  return json_equal(a, parse(expected));
}

struct merge_case {
  const char* target;
  const char* patch;
  const char* result;
};

// RFC 7386 appendix A, every row.
const merge_case rfc7386_cases[] = {
    {R"({"a":"b"})", R"({"a":"c"})", R"({"a":"c"})"},
    {R"({"a":"b"})", R"({"b":"c"})", R"({"a":"b","b":"c"})"},
    {R"({"a":"b"})", R"({"a":null})", R"({})"},
    {R"({"a":"b","b":"c"})", R"({"a":null})", R"({"b":"c"})"},
    {R"({"a":["b"]})", R"({"a":"c"})", R"({"a":"c"})"},
    {R"({"a":"c"})", R"({"a":["b"]})", R"({"a":["b"]})"},
    {R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})", R"({"a":{"b":"d"}})"},
    {R"({"a":[{"b":"c"}]})", R"({"a":[1]})", R"({"a":[1]})"},
    {R"(["a","b"])", R"(["c","d"])", R"(["c","d"])"},
    {R"({"a":"b"})", R"(["c"])", R"(["c"])"},
    {R"({"a":"foo"})", R"(null)", R"(null)"},
    {R"({"a":"foo"})", R"("bar")", R"("bar")"},
    {R"({"e":null})", R"({"a":1})", R"({"e":null,"a":1})"},
    {R"([1,2])", R"({"a":"b","c":null})", R"({"a":"b"})"},
    {R"({})", R"({"a":{"bb":{"ccc":null}}})", R"({"a":{"bb":{}}})"},
};

}  // namespace

BOOST_AUTO_TEST_SUITE(merge_patch)

BOOST_AUTO_TEST_CASE(rfc7386_appendix_a) {
  for (const auto& c : rfc7386_cases) {
    auto target = parse(c.target);
    auto patch = parse(c.patch);
    auto out = merge_patched(target, patch);
    BOOST_TEST(same(out, c.result), c.target << " + " << c.patch << " gave " << to_json(out));
  }
}

BOOST_AUTO_TEST_CASE(create_is_minimal_and_round_trips) {
  struct row {
    const char* from;
    const char* to;
    const char* patch;
  };
  const row rows[] = {
      {R"({"a":1})", R"({"a":1})", R"({})"},
      {R"({"a":1,"b":2})", R"({"a":1})", R"({"b":null})"},
      {R"({"a":1})", R"({"a":2})", R"({"a":2})"},
      {R"({"m":{"x":1,"y":2}})", R"({"m":{"x":1,"y":3}})", R"({"m":{"y":3}})"},
      {R"({"m":{"x":1}})", R"({"m":{}})", R"({"m":{"x":null}})"},
      {R"({"l":[1,2,3]})", R"({"l":[1,2]})", R"({"l":[1,2]})"},
      {R"({"l":[1,2]})", R"({"l":[1,2]})", R"({})"},
      {R"({"a":{"b":1}})", R"({"a":"s"})", R"({"a":"s"})"},
      {R"({"a":"s"})", R"({"a":{"b":1}})", R"({"a":{"b":1}})"},
      {R"({"metadata":{"labels":{"a":"1"},"name":"n"}})",
       R"({"metadata":{"labels":{"b":"2"},"name":"n"}})",
       R"({"metadata":{"labels":{"a":null,"b":"2"}}})"},
      {R"([1])", R"({"a":1})", R"({"a":1})"},
  };
  for (const auto& r : rows) {
    auto from = parse(r.from);
    auto to = parse(r.to);
    auto patch = create_merge_patch(from, to);
    BOOST_TEST(same(patch, r.patch), r.from << " -> " << r.to << " gave " << to_json(patch));
    auto back = merge_patched(from, patch);
    BOOST_TEST(json_equal(back, to), "round trip of " << r.from << " -> " << r.to);
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(json_patch)

namespace {
struct patch_case {
  const char* name;
  const char* doc;
  const char* patch;
  const char* result;  // nullptr: the patch must fail
  const char* error = "";  // a substring of the error text, when failing
};

// RFC 6902 appendix A (A.13, a duplicate "op" member, is a parser matter and
// not representable after parsing), then edge cases.
const patch_case cases[] = {
    {"A.1 add object member", R"({"foo":"bar"})", R"([{"op":"add","path":"/baz","value":"qux"}])",
     R"({"baz":"qux","foo":"bar"})"},
    {"A.2 add array element", R"({"foo":["bar","baz"]})",
     R"([{"op":"add","path":"/foo/1","value":"qux"}])", R"({"foo":["bar","qux","baz"]})"},
    {"A.3 remove object member", R"({"baz":"qux","foo":"bar"})",
     R"([{"op":"remove","path":"/baz"}])", R"({"foo":"bar"})"},
    {"A.4 remove array element", R"({"foo":["bar","qux","baz"]})",
     R"([{"op":"remove","path":"/foo/1"}])", R"({"foo":["bar","baz"]})"},
    {"A.5 replace", R"({"baz":"qux","foo":"bar"})",
     R"([{"op":"replace","path":"/baz","value":"boo"}])", R"({"baz":"boo","foo":"bar"})"},
    {"A.6 move value", R"({"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}})",
     R"([{"op":"move","from":"/foo/waldo","path":"/qux/thud"}])",
     R"({"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}})"},
    {"A.7 move array element", R"({"foo":["all","grass","cows","eat"]})",
     R"([{"op":"move","from":"/foo/1","path":"/foo/3"}])",
     R"({"foo":["all","cows","eat","grass"]})"},
    {"A.8 test success", R"({"baz":"qux","foo":["a",2,"c"]})",
     R"([{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}])",
     R"({"baz":"qux","foo":["a",2,"c"]})"},
    {"A.9 test error", R"({"baz":"qux"})", R"([{"op":"test","path":"/baz","value":"bar"}])",
     nullptr, "testing value /baz failed: test failed"},
    {"A.10 add nested member object", R"({"foo":"bar"})",
     R"([{"op":"add","path":"/child","value":{"grandchild":{}}}])",
     R"({"foo":"bar","child":{"grandchild":{}}})"},
    {"A.11 ignore unrecognized members", R"({"foo":"bar"})",
     R"([{"op":"add","path":"/baz","value":"qux","xyz":123}])", R"({"foo":"bar","baz":"qux"})"},
    {"A.12 add to nonexistent target", R"({"foo":"bar"})",
     R"([{"op":"add","path":"/baz/bat","value":"qux"}])", nullptr, "missing path"},
    {"A.14 ~ escape ordering", R"({"/":9,"~1":10})",
     R"([{"op":"test","path":"/~01","value":10}])", R"({"/":9,"~1":10})"},
    {"A.15 compare strings and numbers", R"({"/":9,"~1":10})",
     R"([{"op":"test","path":"/~01","value":"10"}])", nullptr, "test failed"},
    {"A.16 add array value", R"({"foo":["bar"]})",
     R"([{"op":"add","path":"/foo/-","value":["abc","def"]}])",
     R"({"foo":["bar",["abc","def"]]})"},
    // Edge cases.
    {"escape ~1 in path", R"({"a/b":1})", R"([{"op":"replace","path":"/a~1b","value":2}])",
     R"({"a/b":2})"},
    {"add replaces whole doc", R"({"a":1})", R"([{"op":"add","path":"","value":[1]}])",
     R"([1])"},
    {"add replaces existing member", R"({"a":1})", R"([{"op":"add","path":"/a","value":2}])",
     R"({"a":2})"},
    {"add at array end by index", R"({"l":[1]})", R"([{"op":"add","path":"/l/1","value":2}])",
     R"({"l":[1,2]})"},
    {"add past array end", R"({"l":[1]})", R"([{"op":"add","path":"/l/2","value":2}])",
     nullptr, "Unable to access invalid index: 2"},
    {"leading zero index", R"({"l":[1,2]})", R"([{"op":"remove","path":"/l/01"}])", nullptr,
     "missing path"},
    {"remove missing", R"({"a":1})", R"([{"op":"remove","path":"/b"}])", nullptr,
     "missing path"},
    // As kube-apiserver 1.34 (json-patch v4): a missing key of an existing object is set.
    {"replace missing key", R"({"a":1})", R"([{"op":"replace","path":"/b","value":1}])",
     R"({"a":1,"b":1})"},
    {"replace missing parent", R"({"a":1})", R"([{"op":"replace","path":"/z/b","value":1}])",
     nullptr, "missing key"},
    {"copy", R"({"a":{"x":1}})", R"([{"op":"copy","from":"/a","path":"/b"}])",
     R"({"a":{"x":1},"b":{"x":1}})"},
    {"copy missing from", R"({"a":1})", R"([{"op":"copy","from":"/z","path":"/b"}])", nullptr,
     "missing from path"},
    {"move into own child", R"({"a":{"b":1}})", R"([{"op":"move","from":"/a","path":"/a/c"}])",
     nullptr, "own child"},
    {"test equal numbers across representations", R"({"n":1})",
     R"([{"op":"test","path":"/n","value":1.0}])", R"({"n":1})"},
    {"test object ignores member order", R"({"o":{"a":1,"b":2}})",
     R"([{"op":"test","path":"/o","value":{"b":2,"a":1}}])", R"({"o":{"a":1,"b":2}})"},
    {"unknown op", R"({})", R"([{"op":"frob","path":"/a"}])", nullptr, "Unexpected kind: frob"},
    {"missing value", R"({})", R"([{"op":"add","path":"/a"}])", nullptr, "no \"value\""},
    {"bad pointer", R"({})", R"([{"op":"add","path":"a","value":1}])", nullptr, "invalid path"},
    {"bad escape", R"({})", R"([{"op":"add","path":"/~2","value":1}])", nullptr,
     "invalid path"},
    {"not an array", R"({})", R"({"op":"add"})", nullptr, "cannot unmarshal object"},
    {"failure is atomic", R"({"a":1})",
     R"([{"op":"add","path":"/b","value":2},{"op":"test","path":"/a","value":5}])", nullptr,
     "test failed"},
};
}  // namespace

BOOST_AUTO_TEST_CASE(rfc6902_appendix_a_and_edges) {
  for (const auto& c : cases) {
    BOOST_TEST_CONTEXT(c.name) {
      auto doc = parse(c.doc);
      auto patch = parse(c.patch);
      auto err = apply_json_patch(doc, patch);
      if (c.result) {
        BOOST_TEST(!err, (err ? *err : std::string()));
        BOOST_TEST(same(doc, c.result), "got " << to_json(doc));
      } else {
        BOOST_TEST_REQUIRE(err.has_value());
        BOOST_TEST(err->find(c.error) != std::string::npos, *err);
        BOOST_TEST(same(doc, c.doc), "document changed on failure: " << to_json(doc));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(json_pointer_tokens) {
  auto t = parse_json_pointer("/a~1b/~0c/~01/");
  BOOST_TEST_REQUIRE(t.has_value());
  BOOST_TEST(t->size() == 4u);
  BOOST_TEST((*t)[0] == "a/b");
  BOOST_TEST((*t)[1] == "~c");
  BOOST_TEST((*t)[2] == "~1");
  BOOST_TEST((*t)[3] == "");
  BOOST_TEST(parse_json_pointer("")->empty());
  BOOST_TEST(!parse_json_pointer("x"));
  BOOST_TEST(!parse_json_pointer("/~"));
  auto doc = parse(R"({"foo":["bar","baz"],"":0,"a/b":1,"m~n":8})");
  BOOST_TEST(resolve_json_pointer(doc, "/foo/0")->GetString() == std::string("bar"));
  BOOST_TEST(resolve_json_pointer(doc, "/")->GetInt() == 0);
  BOOST_TEST(resolve_json_pointer(doc, "/a~1b")->GetInt() == 1);
  BOOST_TEST(resolve_json_pointer(doc, "/m~0n")->GetInt() == 8);
  BOOST_TEST(!resolve_json_pointer(doc, "/foo/2"));
  BOOST_TEST(!resolve_json_pointer(doc, "/foo/-"));
}

BOOST_AUTO_TEST_SUITE_END()
