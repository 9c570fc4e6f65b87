// k8s::strip_managed_fields, the informer transform the cluster actor uses:
// metadata.managedFields goes, everything else stays, and an object without
// them is handed back as it is (no copy).
#include "k8s/client/informer.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3;

namespace {

k8s::object parse(std::string_view text) {
  auto o = k8s::object::parse(text);
  BOOST_TEST_REQUIRE(o.has_value());
  return *o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(client_strip_managed_fields)

BOOST_AUTO_TEST_CASE(managed_fields_go_the_rest_stays) {
  auto o = parse(R"({"apiVersion":"v1","kind":"Secret",
    "metadata":{"name":"s","namespace":"ns","resourceVersion":"7","labels":{"a":"b"},
      "managedFields":[{"manager":"c5c3","operation":"Apply","apiVersion":"v1",
        "fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:password":{}}}}]},
    "data":{"password":"cGFzcw=="}})");
  auto s = k8s::strip_managed_fields(o);
  BOOST_TEST(!s.get({"metadata", "managedFields"}));
  BOOST_TEST(s.name() == "s");
  BOOST_TEST(s.namespace_() == "ns");
  BOOST_TEST(s.resource_version() == "7");
  BOOST_TEST(s.label("a").value_or("") == "b");
  BOOST_TEST(s.get_string({"data", "password"}) == "cGFzcw==");
  BOOST_TEST(s.kind() == "Secret");
  // The original is shared and immutable: untouched.
  BOOST_TEST(o.get({"metadata", "managedFields"}) != nullptr);
  BOOST_TEST(!s.same_document(o));
}

BOOST_AUTO_TEST_CASE(without_managed_fields_the_same_document) {
  auto o = parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"k":"v"}})");
  BOOST_TEST(k8s::strip_managed_fields(o).same_document(o));
  auto no_meta = parse(R"({"apiVersion":"v1","kind":"ConfigMap"})");
  BOOST_TEST(k8s::strip_managed_fields(no_meta).same_document(no_meta));
  BOOST_TEST(!k8s::strip_managed_fields(k8s::object{}));
}

BOOST_AUTO_TEST_SUITE_END()
