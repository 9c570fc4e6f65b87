// Generated perturbation plans for the KeystoneApplicationCredential order
// (issue 18), on the shared runner (plan_runner.hpp, keystone_scenario.hpp).
// The scenario: a user, a project, the member role assigned, and two
// credential orders (alpha, beta) converged; alpha rotated
// (spec.credentialGeneration 2: the new credential delivered, the old one
// deleted from Keystone when the 4 s grace period ends); beta deleted.
// Oracle: the end state equals the reference's (alpha Ready at generation 2
// with one K-ORC ApplicationCredential, its delivered credential the one in
// its status and authenticating in Keystone scoped to the project; beta gone
// with every child and its credential gone from Keystone; one credential left
// in Keystone) and so do the operator's successful creates and deletes per
// kind (no credential minted twice, none lost, no orphan).
//
// C5C3_FAULT_PLANS picks the plans (plan_runner.hpp); the default is what CI
// runs.
#include "sim/world/memory_identity.hpp"
#include "tests/faults/keystone_scenario.hpp"

namespace c5c3::testing {
namespace {

const std::string credential_resource = "keystoneapplicationcredentials.c5c3.io";
const std::string credential_label = "c5c3.io/keystoneapplicationcredential-name";
const k8s::gvk credential_gvk{"c5c3.io", "v1alpha1", "KeystoneApplicationCredential"};

std::string credential_order(const std::string& name) {
  return testing::credential_order(name, "alice", "team", R"({"interval":"1h","gracePeriod":"4s"})");
}

struct keystoneapplicationcredential_scenario : faults::keystone_scenario {
  explicit keystoneapplicationcredential_scenario(bool start) : keystone_scenario(start) {}

  std::int64_t status_int(const k8s::object& o, const std::string& field) const {
    return o ? k8s::get_int(o.json(), {"status", field}).value_or(0) : 0;
  }
  std::size_t keystone_credentials() const {
    return std::dynamic_pointer_cast<sim::world::memory_identity>(identity)->list("application_credentials").size();
  }
  std::string all_ready() const {
    std::string out;
    for (auto name : {"alpha", "beta"}) out += not_ready(credential_resource, name, {"CredentialReady", "DeliveryReady"});
    return out;
  }

  std::vector<faults::scenario_step> steps() {
    return {create_step("create",
                        {user_order("alice"), project_order("team"), assignment_order("ra1", "alice", "team"),
                         credential_order("alpha"), credential_order("beta")},
                        [this] { return all_ready(); }),
            {"rotate", [this] { patch(credential_gvk, "alpha", R"({"spec":{"credentialGeneration":2}})"); },
             [this] {
               auto o = get(credential_resource, "alpha");
               const bool rotated = status_int(o, "credentialGeneration") == 2 &&
                                    status_int(o, "previousCredentialGeneration") == 0 && ready(o) &&
                                    labelled("applicationcredentials.openstack.k-orc.cloud", credential_label, "alpha") == 1u &&
                                    keystone_credentials() == 2u;
               return rotated ? "" : "alpha(rotation not settled) " + all_ready();
             }},
            {"delete", [this] { remove(credential_gvk, "beta"); },
             [this] { return not_gone(credential_resource, "beta"); }}};
  }

  std::vector<std::string> order_names() const { return {"alpha", "beta"}; }

  std::string order_state(const std::string& name) const {
    auto o = get(credential_resource, name);
    return fmt::format("exists={} ready={} generation={} previous={} {}secrets={} pushsecrets={} delivered={} "
                       "keystone-credentials={}",
                       static_cast<bool>(o), o && ready(o), status_int(o, "credentialGeneration"),
                       status_int(o, "previousCredentialGeneration"),
                       korc_children(credential_label, name, {"applicationcredentials"}),
                       labelled("secrets", credential_label, name),
                       labelled("pushsecrets.external-secrets.io", credential_label, name), credential_delivered(name, o),
                       keystone_credentials());
  }

  // What of the credentials delivered so far Keystone refuses now (asked
  // while the plan runs: plan_runner.hpp). A rotated credential's Secret
  // holds the new one, which must authenticate from the moment it is there;
  // an order being deleted revokes its own.
  std::string credentials_refused() const {
    std::string out;
    for (auto& name : order_names()) {
      auto o = get(credential_resource, name);
      if (!o || o.terminating()) continue;
      auto s = get("secrets", name + "-credentials");  // one read: id and secret of one version
      auto id = k8s::base64_decode(s.get_string({"data", "application_credential_id"}));
      auto key = k8s::base64_decode(s.get_string({"data", "application_credential_secret"}));
      if (!id || id->empty()) continue;  // not delivered yet
      if (auto [status, project] = authenticate(*id, key ? *key : ""); status != 201)
        out += fmt::format("{}: Keystone answered {} ", name, status);
    }
    return out;
  }

  void expect_reference() const {
    BOOST_TEST(order_state("alpha") == "exists=true ready=true generation=2 previous=0 applicationcredentials=1 secrets=3 "
                                       "pushsecrets=1 delivered=201/team keystone-credentials=1");
    BOOST_TEST(order_state("beta") == "exists=false ready=false generation=0 previous=0 applicationcredentials=0 "
                                      "secrets=0 pushsecrets=0 delivered=none keystone-credentials=1");
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans_keystoneapplicationcredential)

BOOST_AUTO_TEST_CASE(every_chosen_plan_ends_as_the_reference_run) {
  faults::every_chosen_plan_ends_as_the_reference_run<keystoneapplicationcredential_scenario>(2, credential_resource);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
