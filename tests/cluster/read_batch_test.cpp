// protocol::read_batch: the reads of a pass that do not depend on one another,
// answered together from the caches, each item as the single read would be
// (items, not found) or `uncached` for the caller to send alone.
#include "tests/cluster/cluster_fixture.hpp"

namespace c5c3::testing {

using namespace cluster_tests;

BOOST_AUTO_TEST_SUITE(read_batch)

BOOST_FIXTURE_TEST_CASE(a_batch_answers_each_read_from_the_caches_in_order, cluster_fixture) {
  caf::scoped_actor self{sys};
  for (auto [name, value] : {std::pair{"a", "1"}, std::pair{"b", "2"}})
    BOOST_TEST_REQUIRE(static_cast<bool>(ask<k8s::object>(self, protocol::create_request{configmap(name, value), {}})));
  auto sub = ask<protocol::subscription_id>(
      self, protocol::subscribe_request{configmap_kind, "default", "", caf::actor{self}, false});
  BOOST_TEST_REQUIRE(static_cast<bool>(sub));
  std::vector<note> log;
  BOOST_TEST_REQUIRE(receive_until(self, log, has_synced()));

  // The server refuses every read of ConfigMaps: what answers is the cache.
  sim::fault_rule no_reads;
  no_reads.resource = "configmaps";
  no_reads.status_code = 403;
  server.add_fault(no_reads);
  const k8s::gvk secret_kind{"", "v1", "Secret"};
  auto list = [](k8s::gvk gvk, std::string fields, protocol::read_from from = protocol::read_from::cache) {
    return protocol::list_request{std::move(gvk), "default", "", std::move(fields), from};
  };
  protocol::read_batch batch{{
      {list(configmap_kind, ""), ""},
      {list(configmap_kind, "data.value=2"), ""},
      {list(configmap_kind, ""), "a"},
      {list(configmap_kind, ""), "none"},
      {list(secret_kind, ""), ""},                                 // no informer of Secrets
      {list(configmap_kind, "", protocol::read_from::server), ""},  // the API server's to answer
      {list(configmap_kind, "no such selector"), ""},
  }};
  auto a = ask<protocol::read_batch_answer>(self, batch);
  BOOST_TEST_REQUIRE(static_cast<bool>(a), why(sys, a));
  using protocol::read_outcome;
  BOOST_TEST_REQUIRE(a->results.size() == batch.items.size());
  const auto& r = a->results;
  BOOST_TEST((r[0].outcome == read_outcome::items));
  BOOST_TEST(r[0].list.items.size() == 2u);
  BOOST_TEST((r[1].outcome == read_outcome::items));
  BOOST_TEST_REQUIRE(r[1].list.items.size() == 1u);
  BOOST_TEST(r[1].list.items.front().name() == "b");
  BOOST_TEST((r[2].outcome == read_outcome::items));
  BOOST_TEST_REQUIRE(r[2].list.items.size() == 1u);
  BOOST_TEST(r[2].list.items.front().get_string({"data", "value"}) == "1");
  BOOST_TEST(!has_managed_fields(r[2].list.items.front()));
  BOOST_TEST((r[3].outcome == read_outcome::not_found));
  BOOST_TEST(r[3].list.items.empty());
  BOOST_TEST((r[4].outcome == read_outcome::uncached));
  BOOST_TEST((r[5].outcome == read_outcome::uncached));
  BOOST_TEST((r[6].outcome == read_outcome::uncached));
  server.clear_faults();
  BOOST_TEST(static_cast<bool>(ask<protocol::ok_atom>(self, protocol::unsubscribe_request{*sub})));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
