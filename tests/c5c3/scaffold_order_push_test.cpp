// stampOrderPush and orderPushFresh (apis.md 1.1 and 4.2).
#include "actors/c5c3/scaffold/order_push.hpp"
#include "tests/c5c3/snapshots.hpp"

#include <boost/test/unit_test.hpp>

#include <fmt/format.h>

using namespace c5c3::test;

namespace {
const orders::push_annotation_keys keys{"c5c3.io/rabbitmqvhost-push-hash", "c5c3.io/rabbitmqvhost-push-synced-before"};
object push(std::string_view hash, std::string_view before, std::string_view synced, bool ready) {
  std::string ann = hash.empty() ? "{}"
                                 : fmt::format(R"({{"{}":"{}","{}":"{}"}})", keys.hash, hash, keys.synced_before,
                                               before);
  return parse(fmt::format(R"({{"apiVersion":"external-secrets.io/v1alpha1","kind":"PushSecret",
    "metadata":{{"name":"b","namespace":"openstack","annotations":{}}},
    "status":{{"syncedResourceVersion":"{}","conditions":[{{"type":"Ready","status":"{}"}}]}}}})",
                           ann, synced, ready ? "True" : "False"));
}
}  // namespace

BOOST_AUTO_TEST_SUITE(scaffold_order_push)

BOOST_AUTO_TEST_CASE(stamp_order_push_table) {
  struct row {
    const char* sentence;
    std::optional<object> live;
    bool changed;
    std::string before;
  };
  const row rows[] = {
      {"a new PushSecret is stamped with the hash and an empty synced-before", std::nullopt, true, ""},
      {"a changed hash records syncedResourceVersion as it was before the stamp", push("old", "0-a", "1-b", true), true,
       "1-b"},
      {"the same hash keeps the stamp, so a push is not waited for twice", push("h", "1-b", "2-c", true), false, "1-b"},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      auto s = orders::stamp_order_push(r.live ? &*r.live : nullptr, keys, "h");
      BOOST_TEST(s.hash == "h");
      BOOST_TEST(s.changed == r.changed);
      BOOST_TEST(s.synced_before == r.before);
    }
  }
}

BOOST_AUTO_TEST_CASE(order_push_fresh_table) {
  struct row {
    const char* sentence;
    object live;
    bool fresh;
  };
  const row rows[] = {
      {"Ready, the hash, and a push since the stamp: fresh", push("h", "1-b", "2-c", true), true},
      {"no push since the stamp is not fresh", push("h", "1-b", "1-b", true), false},
      {"a PushSecret that is not Ready is not fresh", push("h", "1-b", "2-c", false), false},
      {"another document's hash is not fresh", push("other", "1-b", "2-c", true), false},
      {"an unstamped PushSecret is not fresh", push("", "", "2-c", true), false},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) { BOOST_TEST(orders::order_push_fresh(r.live, keys, "h") == r.fresh); }
  }
}

BOOST_AUTO_TEST_SUITE_END()
