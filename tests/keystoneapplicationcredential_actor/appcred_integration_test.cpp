// The KeystoneApplicationCredential host against the emulator and sim/world
// with its in-memory Keystone: the scenario (appcred_fixture.hpp), and a
// rotation on schedule with no declared change, fired by the order's own
// timer (not the 10 min refresh), its lag from nextRotation reported; an
// assignment waking exactly the credential orders of its user and project.
#include "tests/keystoneapplicationcredential_actor/appcred_fixture.hpp"
#include "tests/require_eventually.hpp"

namespace c5c3::testing {

BOOST_AUTO_TEST_SUITE(keystoneapplicationcredential_actor_integration)

BOOST_FIXTURE_TEST_CASE(a_credential_from_order_to_teardown, appcred_fixture) { credential_from_order_to_teardown(); }

// The shortest schedule the CRD admits: interval 1m, grace 5s.
BOOST_FIXTURE_TEST_CASE(a_rotation_on_schedule, appcred_fixture) {
  create_scheduled_credential("1m", "5s");
  const auto due = k8s::parse_rfc3339(credential_order().get_string({"status", "nextRotation"}));
  BOOST_TEST_REQUIRE(due.has_value());
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return status_int("credentialGeneration") == 2; }, 120),
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

// NoRoleOnProject has no re-check of its own: the assignment of the user and
// project reporting its role wakes the credential order at once (through the
// host's index of "same user and project"), and wakes no credential order of
// the same user on another project.
BOOST_FIXTURE_TEST_CASE(an_assignment_wakes_its_credential_orders_only, appcred_fixture) {
  BOOST_TEST_REQUIRE(eventually([&] { return synced(); }));
  create(user_order("alice"));
  create(project_order("team"));
  create(project_order("elsewhere"));
  create(credential);
  auto other = parse(credential);
  {
    auto b = other.edit();
    b.set_string({"metadata", "name"}, "other");
    b.set_string({"spec", "projectRef", "name"}, "elsewhere");
    other = std::move(b).freeze();
  }
  BOOST_TEST_REQUIRE(world->create(other).ok());
  auto refused = [&](const std::string& name) {
    return reason(get("keystoneapplicationcredentials.c5c3.io", name), "CredentialReady").starts_with("NoRoleOnProject");
  };
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return refused("creds") && refused("other"); }, 90),
                          reason(credential_order(), "CredentialReady"));
  quiet();
  const auto other_passes = passes(credentials, "other");
  const auto wakes = probe(credentials).referenced_wakes;
  assign_member_role();
  // Without the wake the order would wait for the 10-minute refresh.
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return ready(credential_order()); }, 60),
                          reason(credential_order(), "CredentialReady"));
  BOOST_TEST(probe(credentials).referenced_wakes > wakes);
  quiet();
  BOOST_TEST(passes(credentials, "other") == other_passes);
  BOOST_TEST(refused("other"));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
