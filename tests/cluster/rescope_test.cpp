// rescope.hpp: the selector a scoped informer watches, and exactly the
// difference a subscriber hears when its subscription moves to another scope.
#include "actors/cluster/rescope.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

namespace {

using c5c3::cluster::scope_change;
using c5c3::cluster::scope_difference;
using c5c3::cluster::scoped_selector;
using c5c3::k8s::object;
using c5c3::k8s::object_key;
using c5c3::protocol::event_type;

object order(const std::string& name, const std::string& rv, const std::string& holder) {
  return *object::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"a","name":")" + name +
                        R"(","resourceVersion":")" + rv + R"(","labels":{"c5c3.io/shard":")" + holder + R"("}}})");
}

std::vector<object> store(std::initializer_list<object> objs) { return objs; }

c5c3::cluster::informer_cache cache_of(const std::vector<object>& objs) {
  c5c3::cluster::informer_cache out;
  for (const auto& o : objs) out.put(o);
  return out;
}

std::string told(const std::vector<scope_change>& changes) {
  std::string out;
  for (const auto& c : changes) {
    out += c.type == event_type::added ? "+" : c.type == event_type::modified ? "~" : "-";
    out += std::string(c.obj.name()) + "@" + std::string(c.obj.resource_version());
    if (c.type == event_type::modified) out += "<" + std::string(c.old.resource_version());
    out += " ";
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rescope)

BOOST_AUTO_TEST_CASE(the_watched_selector_is_the_base_narrowed_by_the_scope) {
  struct row {
    std::string base, scope, watched;
  };
  for (const auto& r : {row{"", "", ""}, row{"app", "", "app"}, row{"", "c5c3.io/shard in (a)", "c5c3.io/shard in (a)"},
                        row{"app", "c5c3.io/shard notin (b,c)", "app,c5c3.io/shard notin (b,c)"}})
    BOOST_TEST(scoped_selector(r.base, r.scope) == r.watched, r.base << " / " << r.scope);
}

BOOST_AUTO_TEST_CASE(a_subscriber_hears_exactly_the_difference) {
  struct row {
    std::string what;
    std::vector<object> seen, now;
    std::string told;
  };
  const std::vector<row> rows{
      {"nothing changed", store({order("x", "1", "a"), order("y", "2", "")}),
       store({order("x", "1", "a"), order("y", "2", "")}), ""},
      {"one entered (a member went: its orders are in scope)", store({order("x", "1", "a")}),
       store({order("x", "1", "a"), order("z", "5", "c")}), "+z@5 "},
      {"one left (a member came: its orders are out of scope)", store({order("x", "1", "a"), order("z", "5", "c")}),
       store({order("x", "1", "a")}), "-z@5 "},
      {"one changed while the new watch listed", store({order("x", "1", "a")}), store({order("x", "3", "a")}),
       "~x@3<1 "},
      {"everything at once, in key order", store({order("a", "1", ""), order("b", "1", "b"), order("c", "1", "")}),
       store({order("a", "1", ""), order("c", "2", ""), order("d", "1", "d")}), "-b@1 ~c@2<1 +d@1 "},
      {"from nothing (the first view: only its own)", {}, store({order("x", "1", "a")}), "+x@1 "},
      {"to nothing", store({order("x", "1", "a")}), {}, "-x@1 "},
  };
  for (const auto& r : rows) BOOST_TEST(told(scope_difference(cache_of(r.seen), cache_of(r.now))) == r.told, r.what);
}

BOOST_AUTO_TEST_SUITE_END()
