// crd_serves / crd_defines: which CRD states make an optional kind served.
#include "actors/cluster/crd.hpp"

#include <boost/test/unit_test.hpp>

using c5c3::k8s::gvk;
using c5c3::k8s::object;

namespace {

object crd(const std::string& established, bool served, bool deleting = false) {
  std::string j = R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
    "metadata":{"name":"widgets.example.c5c3.io")";
  if (deleting) j += R"(,"deletionTimestamp":"2026-01-01T00:00:00Z")";
  j += R"(},"spec":{"group":"example.c5c3.io","names":{"kind":"Widget","plural":"widgets"},
    "versions":[{"name":"v1","served":)";
  j += served ? "true" : "false";
  j += R"(,"storage":true}]})";
  if (!established.empty()) {
    j += R"(,"status":{"conditions":[{"type":"Established","status":")" + established + R"("}]})";
  }
  j += "}";
  auto o = object::parse(j);
  BOOST_TEST_REQUIRE(o.has_value());
  return *o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cluster_crd)

BOOST_AUTO_TEST_CASE(serves_table) {
  const gvk widget{"example.c5c3.io", "v1", "Widget"};
  struct row {
    const char* what;
    object o;
    gvk k;
    bool defines;
    bool serves;
  };
  const row rows[] = {
      {"established and served", crd("True", true), widget, true, true},
      {"not yet established", crd("", true), widget, true, false},
      {"established False", crd("False", true), widget, true, false},
      {"version not served", crd("True", false), widget, true, false},
      {"terminating", crd("True", true, true), widget, true, false},
      {"other version", crd("True", true), gvk{"example.c5c3.io", "v2", "Widget"}, true, false},
      {"other kind", crd("True", true), gvk{"example.c5c3.io", "v1", "Gadget"}, false, false},
      {"other group", crd("True", true), gvk{"other.io", "v1", "Widget"}, false, false},
      {"empty object", object{}, widget, false, false},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      BOOST_TEST(c5c3::cluster::crd_defines(r.o, r.k) == r.defines);
      BOOST_TEST(c5c3::cluster::crd_serves(r.o, r.k) == r.serves);
    }
  }
}

BOOST_AUTO_TEST_CASE(informer_key_orders_by_every_field) {
  using c5c3::cluster::informer_key;
  informer_key a{gvk{"", "v1", "ConfigMap"}, "a", ""};
  informer_key b{gvk{"", "v1", "ConfigMap"}, "a", "x=y"};
  informer_key c{gvk{"", "v1", "ConfigMap"}, "b", ""};
  BOOST_TEST((a < b));
  BOOST_TEST(!(b < a));
  BOOST_TEST((a < c));
  BOOST_TEST(!(a < a));
}

BOOST_AUTO_TEST_SUITE_END()
