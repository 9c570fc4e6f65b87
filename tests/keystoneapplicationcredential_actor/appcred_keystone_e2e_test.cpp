// The KeystoneApplicationCredential host against the emulator and sim/world's
// K-ORC talking to a REAL Keystone (Debian's, on loopback through
// tools/keystone-loopback): the same scenario (appcred_fixture.hpp), with the
// credentials authenticated and listed in that Keystone over HTTP.
#include "tests/keystoneapplicationcredential_actor/appcred_fixture.hpp"
#include "tests/world/loopback.hpp"
#include "tests/require_eventually.hpp"

namespace c5c3::testing {
namespace {

struct real_keystone {
  sim::world::test::loopback_service ks{"C5C3_KEYSTONE_LOOPBACK", "tools/keystone-loopback", "keystone"};
};

struct on_real_keystone : real_keystone, appcred_fixture {
  on_real_keystone()
      : appcred_fixture({ks.var("KEYSTONE_URL"), ks.var("KEYSTONE_ADMIN_PASSWORD"), ks.var("KEYSTONE_AUTH_URL")}) {}
};

}  // namespace

BOOST_AUTO_TEST_SUITE(keystoneapplicationcredential_keystone_e2e)

BOOST_FIXTURE_TEST_CASE(a_credential_in_a_real_keystone, on_real_keystone) { credential_from_order_to_teardown(); }

// The shortest schedule the CRD admits (interval 1m) with no declared change:
// the rotation timer mints generation 2 in Keystone, the delivered clouds.yaml
// authenticates with it scoped to the project, the superseded credential
// still authenticates until previousCredentialDeleteAt and is refused and
// gone from Keystone after it; Keystone's expires_at is credentialExpiresAt.
BOOST_FIXTURE_TEST_CASE(a_rotation_on_schedule_in_a_real_keystone, on_real_keystone) {
  create_scheduled_credential("1m", "15s");
  const auto first_id = std::string(credential_order().get_string({"status", "credentialID"}));
  const auto first_secret = delivered("application_credential_secret");
  const auto first_clouds = delivered("clouds.yaml");
  const auto due = k8s::parse_rfc3339(credential_order().get_string({"status", "nextRotation"}));
  BOOST_TEST_REQUIRE(due.has_value());
  BOOST_TEST(client_token(first_clouds) == "ok team");

  BOOST_TEST_CONTEXT("after the interval, with no declared change: generation 2 minted in Keystone and delivered") {
    C5C3_REQUIRE_EVENTUALLY(eventually([&] { return status_int("credentialGeneration") == 2; }, 120),
                            reason(credential_order(), "CredentialReady"));
    const auto o = credential_order();
    BOOST_TEST(k8s::get_int(o.json(), {"spec", "credentialGeneration"}).value_or(1) == 1,
               "the CRD default stands: no declared change");
    BOOST_TEST(o.generation() == 1);
    const auto rotated = k8s::parse_rfc3339(o.get_string({"status", "lastRotation"}));
    BOOST_TEST_REQUIRE(rotated.has_value());
    BOOST_TEST((*rotated >= *due), "the switch comes at or after nextRotation");
    BOOST_TEST_MESSAGE("rotation lag from nextRotation to the switch: "
                       << std::chrono::duration_cast<std::chrono::seconds>(*rotated - *due).count() << " s");
  }
  const auto second_id = std::string(credential_order().get_string({"status", "credentialID"}));
  BOOST_TEST_REQUIRE(second_id != first_id);
  BOOST_TEST(credential_order().get_string({"status", "previousCredentialID"}) == first_id);
  const auto delete_at = k8s::parse_rfc3339(credential_order().get_string({"status", "previousCredentialDeleteAt"}));
  BOOST_TEST_REQUIRE(delete_at.has_value());
  BOOST_TEST_CONTEXT("during the grace period the superseded credential still authenticates") {
    // The operator deletes it no earlier than previousCredentialDeleteAt: an
    // answer that came before that instant must be a token.
    const auto old = authenticate(first_id, first_secret);
    const bool in_grace = k8s::clock::now() < *delete_at;
    BOOST_TEST_REQUIRE(in_grace, "the 15 s grace period ended before the test could authenticate");
    BOOST_TEST(old.first == 201);
  }
  BOOST_TEST_REQUIRE(eventually([&] { return delivered("application_credential_id") == second_id; }));
  const auto second_clouds = delivered("clouds.yaml");
  BOOST_TEST(second_clouds.find("v3applicationcredential") != std::string::npos);
  BOOST_TEST(second_clouds.find(second_id) != std::string::npos);
  BOOST_TEST(client_token(second_clouds) == "ok team", "the delivered clouds.yaml authenticates, project scoped");
  BOOST_TEST((authenticate(second_id, delivered("application_credential_secret")) ==
              std::pair<int, std::string>{201, "team"}));
  const auto expires = std::string(credential_order().get_string({"status", "credentialExpiresAt"}));
  BOOST_TEST_REQUIRE(!expires.empty());
  BOOST_TEST(keystone_expiry(second_id) == expires.substr(0, 19), "the expiry Keystone reports is credentialExpiresAt");

  BOOST_TEST_CONTEXT("after the grace period: refused and deleted in Keystone") {
    C5C3_REQUIRE_EVENTUALLY(eventually([&] {
      return status_int("previousCredentialGeneration") == 0 && keystone_credential_list().count(first_id) == 0 &&
             children("applicationcredentials.openstack.k-orc.cloud") == 1u;
    }, 90), reason(credential_order(), "CredentialReady"));
    BOOST_TEST((k8s::clock::now() >= *delete_at));
    const auto refused = authenticate(first_id, first_secret).first;
    BOOST_TEST((refused == 401 || refused == 404), refused);
    BOOST_TEST(client_token(first_clouds) == "refused");
    BOOST_TEST(keystone_credential_list().size() == 1u);
    BOOST_TEST(delivered("application_credential_id") == second_id);
    BOOST_TEST(ready(credential_order()));
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
