#include "actors/runtime/shard/claim.hpp"
#include "actors/runtime/shard/lease_state.hpp"

#include "k8s/json.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>

using namespace c5c3::runtime::shard;
using namespace std::chrono_literals;
namespace k8s = c5c3::k8s;

namespace {

// A key the ring {a, b, c} gives to `want`.
std::string key_owned_by(const ring& r, const std::string& want) {
  for (int i = 0;; ++i) {
    auto k = order_ring_key("", "c5c3.io", "RabbitMQVhost", "ns", "v" + std::to_string(i));
    if (r.owner(k) == want) return k;
  }
}

// An order held by `holder` ("" none) with the claims count `claims`
// (nullptr: none recorded).
k8s::object order(const std::string& holder, const char* claims, const char* previous = nullptr) {
  k8s::object_builder b("c5c3.io/v1alpha1", "RabbitMQVhost", "ns", "v");
  if (!holder.empty()) b.set_label(claim_label, holder);
  if (claims) b.set_annotation(claims_annotation, claims);
  if (previous) b.set_annotation(previous_annotation, previous);
  return std::move(b).freeze();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(claim_decision)

BOOST_AUTO_TEST_CASE(each_claim_counts_one_more_and_an_unreadable_count_is_never_the_first) {
  struct row {
    const char* holder;
    const char* recorded;
    int after;
  };
  for (auto [holder, recorded, after] :
       {row{"", nullptr, 1}, row{"", "0", 1}, row{"", "1", 2}, row{"", "41", 42}, row{"", "", 2}, row{"", "x", 2},
        row{"", "-3", 2}, row{"", "2x", 2}, row{"", "99999999999999", 2},
        row{"c", nullptr, 2},  // held before claims were counted
        row{"c", "0", 2}, row{"c", "3", 4}}) {
    BOOST_TEST_CONTEXT("holder " << holder << ", recorded " << (recorded ? recorded : "(none)")) {
      BOOST_TEST(claims_after(order(holder, recorded)) == after);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_only_holder_is_the_holder_of_the_first_claim) {
  struct row {
    const char* holder;
    const char* claims;
    bool only;
  };
  for (auto [holder, claims, only] : {row{"a", "1", true}, row{"a", "2", false}, row{"a", nullptr, false},
                                      row{"a", "x", false}, row{"b", "1", false}, row{"", "1", false}}) {
    BOOST_TEST_CONTEXT("holder " << holder << ", claims " << (claims ? claims : "(none)")) {
      BOOST_TEST(only_holder(order(holder, claims), "a") == only);
    }
  }
  BOOST_TEST(!only_holder(order("", "1"), ""));  // unsharded
  BOOST_TEST(!only_holder(k8s::object{}, "a"));  // no order
}

// The second holder knows whose stamps its children may carry: the holder it
// took the order over from, the first. Any other holder does not.
BOOST_AUTO_TEST_CASE(the_second_holder_knows_whom_it_took_the_order_over_from) {
  struct row {
    const char* holder;
    const char* claims;
    const char* previous;
    std::string from;
  };
  for (auto [holder, claims, previous, from] :
       {row{"a", "2", "b", "b"},
        row{"a", "2", nullptr, ""},  // claimed after a release: the first holder may be ready
        row{"a", "2", "", ""}, row{"a", "2", "a", ""},
        row{"a", "3", "b", ""},  // a third holder: the first one's stamps may be there too
        row{"a", "1", "b", ""}, row{"a", nullptr, "b", ""}, row{"a", "x", "b", ""},
        row{"b", "2", "c", ""},  // somebody else holds it
        row{"", "2", "b", ""}}) {
    BOOST_TEST_CONTEXT("holder " << holder << ", claims " << (claims ? claims : "(none)") << ", previous "
                                 << (previous ? previous : "(none)")) {
      BOOST_TEST(taken_over_from(order(holder, claims, previous), "a") == from);
    }
  }
  BOOST_TEST(taken_over_from(order("", "2", "b"), "").empty());  // unsharded
  BOOST_TEST(taken_over_from(k8s::object{}, "a").empty());
}

BOOST_AUTO_TEST_CASE(a_failed_claim_backs_off_to_thirty_seconds) {
  BOOST_TEST(claim_retry_delay(1).count() == 250);
  BOOST_TEST(claim_retry_delay(2).count() == 500);
  BOOST_TEST(claim_retry_delay(5).count() == 4000);
  BOOST_TEST(claim_retry_delay(8).count() == 30000);  // 32 s capped
  BOOST_TEST(claim_retry_delay(1000).count() == 30000);
}

BOOST_AUTO_TEST_CASE(the_table) {
  const ring abc({"a", "b", "c"});
  const ring ab({"a", "b"});  // c's Lease expired
  const ring none;
  const auto ka = key_owned_by(abc, "a");
  const auto kb = key_owned_by(abc, "b");
  const auto kc_ab = key_owned_by(ab, "a");
  struct row {
    const char* what;
    const ring& members;
    const std::string& key;
    std::string claim;
    bool running;
    decision want;
  };
  const row rows[] = {
      {"mine, held by me", abc, ka, "a", true, decision::keep},
      {"mine, held by me, actor not yet started", abc, ka, "a", false, decision::keep},
      {"mine, unclaimed", abc, ka, "", false, decision::claim},
      {"mine, held by a ready member: it drains first", abc, ka, "b", false, decision::ignore},
      {"mine, held by a member whose Lease expired", ab, kc_ab, "c", false, decision::claim},
      {"mine, held by an unknown replica (no Lease)", abc, ka, "gone", false, decision::claim},
      {"not mine, held by me, actor running", abc, kb, "a", true, decision::drain},
      {"not mine, held by me, actor gone", abc, kb, "a", false, decision::release},
      {"not mine, unclaimed", abc, kb, "", false, decision::ignore},
      {"not mine, held by its owner", abc, kb, "b", false, decision::ignore},
      {"someone else holds it but my actor runs", abc, ka, "b", true, decision::drain},
      {"no members yet, held by me, not running", none, ka, "a", false, decision::ignore},
      {"no members (my Lease lapsed), running", none, ka, "a", true, decision::drain},
      {"no members, unclaimed", none, ka, "", false, decision::ignore},
  };
  const std::string me = "a";
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      BOOST_TEST(std::string(to_string(decide({me, r.members, r.key, r.claim, r.running}))) == to_string(r.want));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_dead_members_orders_are_taken_over_only_after_its_lease_expired) {
  auto t = *k8s::parse_rfc3339("2026-12-01T19:00:00Z");
  // c renewed last at t - 5s and died: its Lease runs out at t + 10s.
  std::vector<lease_info> leases{{"a", "a", t, 15s}, {"c", "c", t - 5s, 15s}};
  const auto k = key_owned_by(ring({"a", "c"}), "c");
  struct row {
    std::chrono::seconds after;
    decision want;
  };
  for (auto [after, want] : {row{0s, decision::ignore}, row{9s, decision::ignore}, row{10s, decision::claim},
                             row{11s, decision::claim}}) {
    ring r(members_of(leases, t + after).ready);
    BOOST_TEST_CONTEXT("at t+" << after.count() << "s") {
      BOOST_TEST(std::string(to_string(decide({"a", r, k, "c", false}))) == to_string(want));
    }
  }
}

BOOST_AUTO_TEST_CASE(patches_carry_the_resource_version_precondition) {
  auto c = k8s::parse_json(claim_patch("op-\"1", "42", 3));
  BOOST_REQUIRE(c);
  BOOST_TEST(k8s::get_string(*c, {"metadata", "resourceVersion"}) == "42");
  BOOST_TEST(k8s::get_string(*c, {"metadata", "labels", claim_label}) == "op-\"1");
  BOOST_TEST(k8s::get_string(*c, {"metadata", "annotations", claims_annotation}) == "3");
  // An unclaimed order: no previous holder (a merge patch's null removes one).
  const auto* none = k8s::find(*c, {"metadata", "annotations", previous_annotation});
  BOOST_TEST((none && none->IsNull()));
  auto t = k8s::parse_json(claim_patch("a", "42", 2, "b"));
  BOOST_REQUIRE(t);
  BOOST_TEST(k8s::get_string(*t, {"metadata", "annotations", previous_annotation}) == "b");
  auto r = k8s::parse_json(release_patch("43"));
  BOOST_REQUIRE(r);
  BOOST_TEST(k8s::get_string(*r, {"metadata", "resourceVersion"}) == "43");
  const auto* v = k8s::find(*r, {"metadata", "labels", claim_label});
  BOOST_TEST((v && v->IsNull()));
}

BOOST_AUTO_TEST_SUITE_END()
