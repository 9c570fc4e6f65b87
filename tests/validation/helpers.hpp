// Shared helpers of the sim/validation tests: JSON/YAML literals and a
// compiled-schema shortcut.
#pragma once

#include "k8s/json.hpp"
#include "k8s/yaml.hpp"
#include "sim/validation/go_format.hpp"
#include "sim/validation/validation.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace c5c3::sim::validation::testing {

namespace k8s = c5c3::k8s;

inline k8s::json_document json(const std::string& text) {
  std::string err;
  auto d = k8s::parse_json(text, &err);
  BOOST_REQUIRE_MESSAGE(d, "bad JSON in test: " << err << ": " << text);
  return std::move(*d);
}

inline k8s::json_document yaml(const std::string& text) {
  std::string err;
  auto d = k8s::yaml_to_json(text, &err);
  BOOST_REQUIRE_MESSAGE(d, "bad YAML in test: " << err);
  return std::move(*d);
}

// Compiles a schema given as YAML; the test fails when it does not compile.
inline std::shared_ptr<const compiled_schema> schema_yaml(const std::string& text) {
  auto doc = yaml(text);
  auto r = compile(doc);
  std::string errs;
  for (auto& e : r.errors) errs += e.to_string() + "\n";
  BOOST_REQUIRE_MESSAGE(r.schema, "schema did not compile:\n" << errs);
  return r.schema;
}

inline std::vector<std::string> strings(const std::vector<field_error>& errs) {
  std::vector<std::string> out;
  for (auto& e : errs) out.push_back(e.to_string());
  return out;
}

inline std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (auto& s : v) out += s + "\n";
  return out;
}

}  // namespace c5c3::sim::validation::testing
