#include "actors/runtime/shard/lease_state.hpp"

#include "k8s/time.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::runtime::shard;
using namespace std::chrono_literals;
namespace k8s = c5c3::k8s;

namespace {
k8s::time_point at(const char* s) { return *k8s::parse_rfc3339(s); }
}  // namespace

BOOST_AUTO_TEST_SUITE(lease_states)

BOOST_AUTO_TEST_CASE(a_lease_written_and_read_back) {
  auto t = at("2026-12-01T19:00:00.250000Z");
  auto o = make_lease("c5c3-system", "op-0-orders", "op-0", "orders", 15s, t);
  BOOST_TEST(o.kind() == "Lease");
  BOOST_TEST(o.api_version() == "coordination.k8s.io/v1");
  BOOST_TEST(o.label(ring_label).value_or("") == "orders");
  BOOST_TEST(o.get_string({"spec", "renewTime"}) == "2026-12-01T19:00:00.250000Z");
  auto l = lease_of(o);
  BOOST_TEST(l.name == "op-0-orders");
  BOOST_TEST(l.holder == "op-0");
  BOOST_TEST(l.duration.count() == 15);
  BOOST_TEST((l.renew_time && *l.renew_time == t));
  // Released on a clean stop: the holder emptied.
  auto released = lease_of(make_lease("c5c3-system", "op-0-orders", "", "orders", 15s, t));
  BOOST_TEST(std::string(to_string(state_of(released, t))) == "released");
}

BOOST_AUTO_TEST_CASE(ready_until_renew_plus_duration_then_expired) {
  auto t = at("2026-12-01T19:00:00Z");
  lease_info l{"op-0", "op-0", t, 15s};
  struct row {
    k8s::time_point now;
    member_state want;
  };
  const row rows[] = {
      {t, member_state::ready},
      {t + 14s, member_state::ready},
      {t + 15s - 1ms, member_state::ready},
      {t + 15s, member_state::expired},
      {t + 1h, member_state::expired},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(k8s::format_rfc3339(r.now)) { BOOST_TEST(std::string(to_string(state_of(l, r.now))) == to_string(r.want)); }
  }
  BOOST_TEST(std::string(to_string(state_of({"op-0", "", t, 15s}, t))) == "released");
  BOOST_TEST(std::string(to_string(state_of({"op-0", "op-0", std::nullopt, 15s}, t))) == "expired");
  BOOST_TEST(std::string(to_string(state_of({"op-0", "op-0", t, 0s}, t))) == "expired");
}

BOOST_AUTO_TEST_CASE(members_are_the_ready_holders_with_the_next_expiry) {
  auto t = at("2026-12-01T19:00:00Z");
  std::vector<lease_info> leases{
      {"c", "c", t - 20s, 15s},  // expired: a dead replica
      {"a", "a", t - 5s, 15s},   // ready until t + 10s, fading from t + 5s
      {"b", "b", t - 1s, 15s},   // ready until t + 14s, fading from t + 9s
      {"d", "", t, 15s},         // released on SIGTERM
  };
  auto v = members_of(leases, t);
  BOOST_TEST((v.ready == std::vector<std::string>{"a", "b"}));
  BOOST_TEST(v.fading.empty());
  BOOST_TEST((v.next_expiry && *v.next_expiry == t + 5s));  // a fades first
  BOOST_TEST(members_of({}, t).ready.empty());
  BOOST_TEST(!members_of({}, t).next_expiry);
}

// A member not renewed for two thirds of its Lease's duration has stopped
// writing by its own rule (membership.hpp): it is still on the ring until
// the Lease runs out, and listed as fading from then; a renewal ends it.
BOOST_AUTO_TEST_CASE(a_member_fades_two_thirds_into_its_lease_and_a_renewal_ends_it) {
  auto t = at("2026-12-01T19:00:00Z");
  struct row {
    std::chrono::milliseconds since_renewal;
    std::vector<std::string> ready, fading;
    std::optional<std::chrono::milliseconds> look_again_in;
  };
  const row rows[] = {
      {0ms, {"a", "b"}, {}, 10000ms},
      {9999ms, {"a", "b"}, {}, 1ms},
      {10000ms, {"a", "b"}, {"a"}, 5000ms},  // faded: look again at its expiry
      {14999ms, {"a", "b"}, {"a"}, 1ms},
      {15000ms, {"b"}, {}, std::nullopt},  // expired: off the ring (b never fades: renewed now)
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.since_renewal.count() << " ms since a's renewal") {
      auto now = t + r.since_renewal;
      // b renews as it should (now); a last renewed at t.
      auto v = members_of({{"a", "a", t, 15s}, {"b", "b", now, 15s}}, now);
      BOOST_TEST((v.ready == r.ready));
      BOOST_TEST((v.fading == r.fading));
      if (r.look_again_in) {
        BOOST_TEST_REQUIRE(v.next_expiry.has_value());
        BOOST_TEST((*v.next_expiry - now == *r.look_again_in));
      }
    }
  }
  // The same holder with a fresh Lease besides the fading one is not fading.
  auto v = members_of({{"a-1", "a", t, 15s}, {"a-2", "a", t + 11s, 15s}}, t + 11s);
  BOOST_TEST((v.ready == std::vector<std::string>{"a"}));
  BOOST_TEST(v.fading.empty());
}

BOOST_AUTO_TEST_SUITE_END()
