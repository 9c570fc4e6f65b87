// k8s::object_map: objects by key, the key as views into each object's own
// document. What a cache and its indexes rely on: an entry replaced keeps its
// place and takes the new document's views; order is the object key's. A map
// of packed objects keeps each alone in its node, its key read from it.
#include "k8s/object_map.hpp"

#include "k8s/packed_object.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using namespace c5c3::k8s;

namespace {

object cm(const std::string& ns, const std::string& name, const std::string& rv) {
  auto o = object::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":")" + ns +
                         R"(","name":")" + name + R"(","resourceVersion":")" + rv + R"("}})");
  BOOST_TEST_REQUIRE(o.has_value());
  return *o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(k8s_object_map)

BOOST_AUTO_TEST_CASE(a_replaced_entry_keeps_its_place_and_takes_the_new_documents_key) {
  object_map m;
  const auto& first = m.put(cm("a", "a-name-longer-than-a-string-buffer", "1"));
  const void* where = &first;
  {
    object replaced;
    const auto& again = m.put(cm("a", "a-name-longer-than-a-string-buffer", "2"), &replaced);
    BOOST_TEST(static_cast<const void*>(&again) == where);
    BOOST_TEST(replaced.resource_version() == "1");  // handed out, then dropped here
  }
  // The first document is gone now (nothing else held it): the key must be
  // the second's, or ASan sees the read below.
  const object* o = m.find({"a", "a-name-longer-than-a-string-buffer"});
  BOOST_TEST_REQUIRE(o);
  BOOST_TEST(o->resource_version() == "2");
  BOOST_TEST(first.first.name.data() == o->name().data());
  BOOST_TEST(std::string(first.first.name) == "a-name-longer-than-a-string-buffer");
  BOOST_TEST(m.size() == 1u);
}

BOOST_AUTO_TEST_CASE(entries_in_key_order_and_erased_by_key) {
  object_map m;
  for (auto [ns, name] : {std::pair{"b", "x"}, {"a", "y"}, {"a", "x"}, {"", "z"}}) {
    object replaced;
    m.put(cm(ns, name, "1"), &replaced);
    BOOST_TEST(!replaced);  // an insert replaces nothing
  }
  std::string order;
  for (const auto& [k, o] : m) order += std::string(k.namespace_) + "/" + std::string(k.name) + " ";
  BOOST_TEST(order == "/z a/x a/y b/x ");
  BOOST_TEST(m.contains({"a", "y"}));
  BOOST_TEST(object_map::key(*m.lower_bound({"a", ""})).name == "x");
  BOOST_TEST(m.erase({"a", "y"}));
  BOOST_TEST(!m.erase({"a", "y"}));
  BOOST_TEST(!m.find({"a", "y"}));
  BOOST_TEST(m.size() == 3u);
}

BOOST_AUTO_TEST_CASE(a_packed_map_keeps_the_object_alone_and_its_entry_through_a_replace) {
  using packed_map = basic_object_map<packed_object>;
  static_assert(std::is_same_v<packed_map::entry, packed_object>);
  object_packer packer;
  packed_map m;
  const auto& first = m.put(packer.pack(cm("a", "a-name-longer-than-a-string-buffer", "1")));
  m.put(packer.pack(cm("", "z", "1")));
  m.put(packer.pack(cm("b", "x", "1")));
  packed_object replaced;
  const auto& again = m.put(packer.pack(cm("a", "a-name-longer-than-a-string-buffer", "2")), &replaced);
  BOOST_TEST(&again == &first);
  BOOST_TEST(replaced.resource_version() == "1");
  BOOST_TEST(packed_map::key(first).name == "a-name-longer-than-a-string-buffer");
  BOOST_TEST(packer.unpack(packed_map::value(first)).resource_version() == "2");
  std::string order;
  for (const auto& e : m) {
    auto k = packed_map::key(e);
    order += std::string(k.namespace_) + "/" + std::string(k.name) + " ";
  }
  BOOST_TEST(order == "/z a/a-name-longer-than-a-string-buffer b/x ");
  BOOST_TEST(m.find({"b", "x"}));
  BOOST_TEST(m.erase({"b", "x"}));
  BOOST_TEST(!m.find({"b", "x"}));
  BOOST_TEST(m.size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
