// The KeystoneApplicationCredential host against the emulator and sim/world's
// K-ORC talking to a REAL Keystone (Debian's, on loopback through
// tools/keystone-loopback): the same scenario (appcred_fixture.hpp), with the
// credentials authenticated and listed in that Keystone over HTTP.
#include "tests/keystoneapplicationcredential_actor/appcred_fixture.hpp"
#include "tests/world/loopback.hpp"

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

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
