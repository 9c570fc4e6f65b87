#include "k8s/yaml.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::k8s;

BOOST_AUTO_TEST_SUITE(yaml_json)

BOOST_AUTO_TEST_CASE(scalars_resolve_as_kubernetes_reads_them) {
  auto d = yaml_to_json(R"(
a: 1
b: "1"
c: true
d: yes
e: 'on'
f: ~
g: 1.5
h: 0x10
i: hello world
j: ""
k: 720h
l: -3
m:
n: [1, two]
)");
  BOOST_REQUIRE(d);
  BOOST_TEST(to_json(*d) ==
             R"({"a":1,"b":"1","c":true,"d":true,"e":"on","f":null,"g":1.5,"h":16,)"
             R"("i":"hello world","j":"","k":"720h","l":-3,"m":null,"n":[1,"two"]})");
}

BOOST_AUTO_TEST_CASE(documents_and_errors) {
  auto docs = yaml_documents_to_json("a: 1\n---\n---\nb: 2\n");
  BOOST_REQUIRE(docs);
  BOOST_TEST(docs->size() == 2u);
  std::string err;
  BOOST_TEST(!yaml_documents_to_json("a: [1\n", &err));
  BOOST_TEST(err.find("invalid YAML at line") == 0);
}

BOOST_AUTO_TEST_CASE(json_to_yaml_round_trips) {
  auto src = parse_json(
      R"({"s":"true","t":"plain","n":5,"b":false,"e":"","z":null,"l":[1,"a: b"],"o":{},"x":[]})");
  std::string y = json_to_yaml(*src);
  auto back = yaml_to_json(y);
  BOOST_REQUIRE(back);
  BOOST_TEST(json_equal(*src, *back), y);
}

BOOST_AUTO_TEST_SUITE_END()
