// Server-side field validation (sim/apiserver/field_validation.hpp), table-driven on the
// pure part, and over HTTP for the three modes. The wording is kube-apiserver 1.34's, as
// tests/real (api_semantics_real.py) compares it with a real server.
#include "k8s/json.hpp"
#include "sim/apiserver/field_validation.hpp"
#include "tests/sim/fixture.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3;
using namespace c5c3::sim;
using namespace c5c3::sim::test;

namespace {

const char* cm_path = "/api/v1/namespaces/default/configmaps";

k8s::api_resource configmaps() {
  k8s::api_resource r;
  r.version = "v1";
  r.kind = "ConfigMap";
  r.plural = "configmaps";
  r.namespaced = true;
  return r;
}

std::string message(const http_result& r) { return std::string(k8s::get_string(r.json(), {"message"})); }

}  // namespace

BOOST_AUTO_TEST_SUITE(field_validation_rules)

BOOST_AUTO_TEST_CASE(modes) {
  BOOST_TEST((parse_field_validation("") == field_validation::warn));
  BOOST_TEST((parse_field_validation("Strict") == field_validation::strict));
  BOOST_TEST((parse_field_validation("Ignore") == field_validation::ignore));
  BOOST_TEST(!parse_field_validation("strict").has_value());
}

BOOST_AUTO_TEST_CASE(duplicates_later_wins_or_merges) {
  struct row {
    const char* in;
    bool merge;
    const char* out;
    std::vector<std::string> paths;
  } rows[] = {
      {R"({"spec":{"a":2,"a":3}})", false, R"({"spec":{"a":3}})", {"spec.a"}},
      {R"({"data":{"a":"1"},"data":{"b":"2"}})", true, R"({"data":{"a":"1","b":"2"}})", {"data"}},
      {R"({"data":{"a":"1"},"data":{"b":"2"}})", false, R"({"data":{"b":"2"}})", {"data"}},
      {R"({"l":[{"x":1,"x":2}]})", false, R"({"l":[{"x":2}]})", {"l[0].x"}},
      {R"({"a":1})", false, R"({"a":1})", {}},
  };
  for (const auto& r : rows) {
    auto d = k8s::parse_json(r.in, nullptr, k8s::duplicate_keys::keep);
    BOOST_REQUIRE(d);
    BOOST_TEST(drop_duplicate_fields(*d, d->GetAllocator(), r.merge) == r.paths, r.in);
    BOOST_TEST(k8s::to_json(*d) == r.out, r.in);
  }
}

BOOST_AUTO_TEST_CASE(unknown_fields_of_a_builtin_kind_in_document_order) {
  auto d = k8s::parse_json(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","bogusMeta":1},
                                "bogus":2,"data":{"a":"1"},"immutable":true})");
  BOOST_REQUIRE(d);
  auto unknown = drop_unknown_fields(configmaps(), *d, true, nullptr);
  BOOST_TEST(unknown == (std::vector<std::string>{"metadata.bogusMeta", "bogus"}));
  BOOST_TEST(k8s::to_json(*d) ==
             R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"a":"1"},"immutable":true})");
}

BOOST_AUTO_TEST_CASE(messages_in_kube_order) {
  field_findings builtin{{"data"}, {"metadata.bogusMeta", "bogus"}, false};
  BOOST_TEST(builtin.strict_error() ==
             R"(strict decoding error: unknown field "metadata.bogusMeta", unknown field "bogus", duplicate field "data")");
  field_findings custom{{"spec.a"}, {"metadata.m", "spec.x"}, true};
  BOOST_TEST(custom.strict_error() ==
             R"(strict decoding error: duplicate field "spec.a", unknown field "metadata.m", unknown field "spec.x")");
  BOOST_TEST(custom.warning_headers().front() == R"(299 - "duplicate field \"spec.a\"")");
}

BOOST_AUTO_TEST_CASE(strict_warn_ignore_over_http) {
  server_fixture f(plain());
  auto c = f.client();
  const std::string body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"NAME"},"bogus":1})";
  auto named = [&](const char* n) { return std::string(body).replace(body.find("NAME"), 4, n); };

  auto strict = c.post(std::string(cm_path) + "?fieldValidation=Strict", named("s"));
  BOOST_TEST(strict.status == 400);
  BOOST_TEST(message(strict) ==
             R"(ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus")");

  auto warn = c.post(cm_path, named("w"));  // Warn is the default
  BOOST_TEST(warn.status == 201);
  BOOST_TEST(warn.headers["warning"] == R"(299 - "unknown field \"bogus\"")");
  BOOST_TEST(k8s::member(warn.json(), "bogus") == nullptr);

  auto ignore = c.post(std::string(cm_path) + "?fieldValidation=Ignore", named("i"));
  BOOST_TEST(ignore.status == 201);
  BOOST_TEST(ignore.headers.count("warning") == 0u);
  BOOST_TEST(k8s::member(ignore.json(), "bogus") == nullptr);

  auto patch = c.patch(std::string(cm_path) + "/w?fieldValidation=Strict", R"({"bogus":1})",
                       "application/merge-patch+json");
  BOOST_TEST(patch.status == 422);
  BOOST_TEST(message(patch).find(R"(: strict decoding error: unknown field "bogus")") != std::string::npos,
             message(patch));
  BOOST_TEST(message(patch).rfind(R"( "" is invalid: patch: Invalid value: )", 0) == 0u, message(patch));

  auto apply = c.patch(std::string(cm_path) + "/a?fieldManager=t", R"({"apiVersion":"v1","kind":"ConfigMap",
                       "metadata":{"name":"a"},"bogus":1})", "application/apply-patch+yaml");
  BOOST_TEST(apply.status == 500);
  BOOST_TEST(message(apply) ==
             "failed to create typed patch object (/a; /v1, Kind=ConfigMap): .bogus: field not declared in schema");
}

BOOST_AUTO_TEST_SUITE_END()
