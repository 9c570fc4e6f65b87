// Generated perturbation plans for the KeystoneUser order (issue 18): the
// order hosts of tests/keystone_actor against the emulator, the simulated
// K-ORC and its in-memory Keystone; a fault-free reference run (two users
// created, converged), the plans generated from its write and watch logs,
// and each plan run from scratch (plan_runner.hpp). Oracle: the end state
// equals the reference's (every order Ready, one K-ORC User, the password
// and source Secrets, one PushSecret, the user in Keystone with the order's
// userID, the delivered Secret complete and its clouds.yaml authenticating
// against Keystone) and so do the operator's successful creates and deletes
// per kind (the probe made and deleted once, no second password, no orphan).
//
// C5C3_FAULT_PLANS picks the plans: a number (6 by default, what CI runs),
// `all`, or a plan's name (C5C3_FAULT_PLANS=crash@3).
#include "tests/faults/keystone_scenario.hpp"

namespace c5c3::testing {
namespace {

const std::vector<std::string> plan_users{"alice", "bob"};
const std::string user_resource = "keystoneusers.c5c3.io";

struct keystoneuser_scenario : faults::keystone_scenario {
  explicit keystoneuser_scenario(bool start) : keystone_scenario(start) {}

  void begin() {
    await_synced();
    for (auto& name : plan_users) create(user_order(name));
  }

  std::vector<std::string> order_names() const { return plan_users; }

  std::string not_ready() const {
    std::string out;
    for (auto& name : plan_users) out += keystone_scenario::not_ready(user_resource, name, {"UserReady", "DeliveryReady"});
    return out;
  }

  std::string order_state(const std::string& name) const {
    auto o = get(user_resource, name);
    const bool in_keystone = keystone->user(name) && o.get_string({"status", "userID"}) == keystone->id("users", name);
    return fmt::format("ready={} korc-users={} secrets={} pushsecrets={} generation={} in-keystone={} "
                       "delivered-password={} authenticates={}",
                       ready(user_resource, name), labelled("users.openstack.k-orc.cloud", user_label, name),
                       labelled("secrets", user_label, name), labelled("pushsecrets.external-secrets.io", user_label, name),
                       k8s::get_int(o.json(), {"status", "passwordGeneration"}).value_or(0), in_keystone,
                       secret(name + "-credentials", "password").size(), user_authenticates(name));
  }

  void expect_reference() const {
    for (auto& name : plan_users) {
      BOOST_TEST_CONTEXT(name) {
        BOOST_TEST(labelled("users.openstack.k-orc.cloud", user_label, name) == 1u);  // the probe is gone
        BOOST_TEST(labelled("secrets", user_label, name) == 2u);                      // password-v1 and the source
        BOOST_TEST(labelled("pushsecrets.external-secrets.io", user_label, name) == 1u);
        BOOST_TEST(secret(name + "-credentials", "password").size() == 43u);
        BOOST_TEST(user_authenticates(name) == "yes");
      }
    }
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans_keystoneuser)

BOOST_AUTO_TEST_CASE(every_chosen_plan_ends_as_the_reference_run) {
  faults::every_chosen_plan_ends_as_the_reference_run<keystoneuser_scenario>(6, user_resource);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
