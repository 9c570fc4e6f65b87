#include "sim/openapi/jsonpath.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3;
using namespace c5c3::sim::openapi;

namespace {

const char* const document = R"({
  "metadata": {"name": "orders", "labels": {"app.kubernetes.io/name": "vhost"}},
  "spec": {"n": 3, "f": 1.5, "b": true, "nothing": null,
           "ports": [{"name": "amqp", "port": 5672}, {"name": "http", "port": 15672}, {"name": "tls", "port": 5671}],
           "nested": {"x": {"y": "deep"}}},
  "status": {"conditions": [{"type": "VhostReady", "status": "True"},
                            {"type": "Ready", "status": "False", "observedGeneration": 2}]}})";

std::vector<std::string> run(std::string_view expr) {
  auto doc = k8s::parse_json(document);
  BOOST_REQUIRE(doc);
  std::string error;
  auto path = jsonpath::parse(expr, &error);
  BOOST_REQUIRE_MESSAGE(path, "parse failed: " << expr << ": " << error);
  std::vector<std::string> out;
  for (const auto* v : path->find(*doc)) out.push_back(k8s::to_json(*v));
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(openapi_jsonpath)

BOOST_AUTO_TEST_CASE(selects_values) {
  struct row {
    std::string expr;
    std::vector<std::string> want;  // compact JSON of each selected value
  };
  const std::vector<row> rows = {
      {".metadata.name", {R"("orders")"}},
      {"{.metadata.name}", {R"("orders")"}},
      {"$.metadata.name", {R"("orders")"}},
      {".spec.n", {"3"}},
      {".spec.f", {"1.5"}},
      {".spec.b", {"true"}},
      {".spec.nothing", {"null"}},
      {".spec.nested.x.y", {R"("deep")"}},
      {".spec.missing", {}},
      {".spec.missing.deeper", {}},
      {".metadata.labels['app.kubernetes.io/name']", {R"("vhost")"}},
      {".metadata.labels[\"app.kubernetes.io/name\"]", {R"("vhost")"}},
      {".spec.ports[0].port", {"5672"}},
      {".spec.ports[2].name", {R"("tls")"}},
      {".spec.ports[-1].name", {R"("tls")"}},
      {".spec.ports[3].name", {}},
      {".spec.ports[*].port", {"5672", "15672", "5671"}},
      {".spec.ports.*.name", {R"("amqp")", R"("http")", R"("tls")"}},
      {".spec.nested.*.y", {R"("deep")"}},
      {".spec.ports.port", {}},  // a field of an array selects nothing
      {".status.conditions[?(@.type=='Ready')].status", {R"("False")"}},
      {".status.conditions[?(@.type==\"VhostReady\")].status", {R"("True")"}},
      {".status.conditions[?(@.type == 'Ready')].status", {R"("False")"}},
      {".status.conditions[?(@.type!='Ready')].type", {R"("VhostReady")"}},
      {".status.conditions[?(@.type=='Missing')].status", {}},
      {".status.conditions[?(@.observedGeneration)].type", {R"("Ready")"}},
      {".status.conditions[?(@.observedGeneration==2)].type", {R"("Ready")"}},
      {".status.conditions[?(@.observedGeneration>1)].type", {R"("Ready")"}},
      {".status.conditions[?(@.observedGeneration<2)].type", {}},
      {".spec.ports[?(@.port>=5672)].name", {R"("amqp")", R"("http")"}},
      {".spec.ports[?(@.port<=5671)].name", {R"("tls")"}},
      {".spec.ports[?(@.port!=5672)].name", {R"("http")", R"("tls")"}},
      // Type errors make the whole expression select nothing, as in kube.
      {".spec.ports[?(@.port=='5672')].name", {}},
      {".spec.ports[?(@.port==5672.0)].name", {}},
      {".spec.nested[0]", {}},
      {".spec.n[?(@.a=='b')]", {}},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.expr) { BOOST_TEST(run(r.expr) == r.want, boost::test_tools::per_element()); }
  }
}

BOOST_AUTO_TEST_CASE(rejects_what_is_outside_the_subset) {
  for (std::string_view expr : {"", "{}", "metadata.name", ".a..b", "..a", ".a[", ".a[1:2]", ".a[x]",
                                ".a[?(@.b=='c')", ".a[?(b=='c')]", ".a[?(@.b=='c)]", ".a.", ".a[?(@.b=~'c')]"}) {
    BOOST_TEST_CONTEXT(expr) {
      std::string error;
      BOOST_TEST(!jsonpath::parse(expr, &error));
      BOOST_TEST(!error.empty());
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
