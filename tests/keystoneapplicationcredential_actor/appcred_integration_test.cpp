// The KeystoneApplicationCredential host against the emulator and sim/world
// with its in-memory Keystone: the scenario (appcred_fixture.hpp), and a
// rotation on schedule with no declared change, fired by the order's own
// timer (not the 10 min refresh), its lag from nextRotation reported.
#include "tests/keystoneapplicationcredential_actor/appcred_fixture.hpp"

namespace c5c3::testing {

BOOST_AUTO_TEST_SUITE(keystoneapplicationcredential_actor_integration)

BOOST_FIXTURE_TEST_CASE(a_credential_from_order_to_teardown, appcred_fixture) { credential_from_order_to_teardown(); }

// The shortest schedule the CRD admits: interval 1m, grace 5s.
BOOST_FIXTURE_TEST_CASE(a_rotation_on_schedule, appcred_fixture) {
  BOOST_TEST_REQUIRE(eventually([&] { return synced(); }));
  create(user_order);
  create(project_order);
  assign_member_role();
  auto order = parse(credential);
  {
    auto b = order.edit();
    b.set_string({"spec", "rotation", "interval"}, "1m");
    b.set_string({"spec", "rotation", "gracePeriod"}, "5s");
    order = std::move(b).freeze();
  }
  BOOST_TEST_REQUIRE(world->create(order).ok());
  BOOST_TEST_REQUIRE(eventually([&] { return ready(credential_order()); }, 90),
                     reason(credential_order(), "CredentialReady"));
  BOOST_TEST(status_int("credentialGeneration") == 1);
  const auto due = k8s::parse_rfc3339(credential_order().get_string({"status", "nextRotation"}));
  BOOST_TEST_REQUIRE(due.has_value());
  BOOST_TEST_REQUIRE(eventually([&] { return status_int("credentialGeneration") == 2; }, 120),
                     reason(credential_order(), "CredentialReady"));
  // No declared change: the CRD default (1) stands.
  BOOST_TEST(k8s::get_int(credential_order().json(), {"spec", "credentialGeneration"}).value_or(1) == 1);
  const auto rotated = k8s::parse_rfc3339(credential_order().get_string({"status", "lastRotation"}));
  BOOST_TEST_REQUIRE(rotated.has_value());
  BOOST_TEST((*rotated >= *due));
  BOOST_TEST_MESSAGE("rotation lag from nextRotation to the switch: "
                     << std::chrono::duration_cast<std::chrono::seconds>(*rotated - *due).count() << " s");
  BOOST_TEST_REQUIRE(eventually([&] { return delivered("application_credential_id") ==
                                             credential_order().get_string({"status", "credentialID"}); }));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
