// k8s::diff_list, what a list changed against what its reader knew: the
// informer's store and the cluster actor's cache both turn a relist into
// events with it.
#include "k8s/client/informer.hpp"

#include <boost/test/unit_test.hpp>

#include <fmt/format.h>

using namespace c5c3;

namespace {

k8s::object cm(const std::string& name, const std::string& rv) {
  auto o = k8s::object::parse(fmt::format(
      R"({{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"{}","namespace":"ns","resourceVersion":"{}"}}}})",
      name, rv));
  BOOST_TEST_REQUIRE(o.has_value());
  return *o;
}

k8s::object_map by_key(std::initializer_list<k8s::object> objects) {
  k8s::object_map m;
  for (const auto& o : objects) m.put(o);
  return m;
}

std::string names(const std::vector<k8s::object>& v) {
  std::string out;
  for (const auto& o : v) out += std::string(o.name()) + "@" + std::string(o.resource_version()) + " ";
  return out;
}

std::string names(const std::vector<std::pair<k8s::object, k8s::object>>& v) {
  std::string out;
  for (const auto& [a, b] : v)
    out += fmt::format("{}@{}->{} ", a.name(), a.resource_version(), b.resource_version());
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(client_diff_list)

BOOST_AUTO_TEST_CASE(gone_new_and_changed_by_resource_version) {
  struct row {
    const char* what;
    k8s::object_map known, listed;
    std::string deleted, added, updated;
  };
  const row rows[] = {
      {"nothing known", {}, by_key({cm("a", "1"), cm("b", "2")}), "", "a@1 b@2 ", ""},
      {"nothing listed", by_key({cm("a", "1")}), {}, "a@1 ", "", ""},
      {"the same versions", by_key({cm("a", "1")}), by_key({cm("a", "1")}), "", "", ""},
      {"each kind of change", by_key({cm("a", "1"), cm("b", "2"), cm("c", "3")}),
       by_key({cm("a", "1"), cm("c", "9"), cm("d", "4")}), "b@2 ", "d@4 ", "c@3->9 "},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      auto d = k8s::diff_list(r.known, r.listed);
      BOOST_TEST(names(d.deleted) == r.deleted);
      BOOST_TEST(names(d.added) == r.added);
      BOOST_TEST(names(d.updated) == r.updated);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
