// Generated perturbation plans for the KeystoneUser order (issue 18): the
// order hosts of tests/keystone_actor against the emulator, the simulated
// K-ORC and its in-memory Keystone; a fault-free reference run, the plans
// generated from its write and watch logs, and each plan run from scratch
// (plan_runner.hpp). The scenario: alice and bob created and converged;
// alice's password rotated (spec.passwordGeneration 2); bob deleted. Oracle:
// the end state equals the reference's (alice Ready at password generation 2,
// one K-ORC User, her Secrets and PushSecret, the user in Keystone with the
// order's userID, the delivered Secret complete and its clouds.yaml
// authenticating against Keystone; bob and everything of his gone, in Keystone
// too) and so do the operator's successful creates and deletes per kind (the
// probe made and deleted once, one password per generation, no orphan); and
// every delivered credential authenticates during the run (credentials_refused),
// but alice's while her rotation is under way: Keystone keeps one password per
// user, so the delivered one is refused from the moment Keystone takes the new
// one until the new one is delivered.
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

  // The order whose rotation is under way (until it is Ready at its new
  // generation): its delivered password may be refused meanwhile.
  std::string rotating;

  std::vector<faults::scenario_step> steps() {
    return {create_step("create", {user_order("alice"), user_order("bob")}, [this] { return not_ready(plan_users); }),
            {"rotate",
             [this] {
               rotating = "alice";
               patch(user_gvk, "alice", R"({"spec":{"passwordGeneration":2}})");
             },
             [this] {
               auto o = get(user_resource, "alice");
               if (k8s::get_int(o.json(), {"status", "passwordGeneration"}).value_or(0) != 2)
                 return "alice(password generation not 2) " + not_ready({"alice"});
               return not_ready({"alice"});
             }},
            {"delete", [this] { remove(user_gvk, "bob"); },
             [this] { return not_gone(user_resource, "bob") + (keystone->user("bob") ? "bob in Keystone " : ""); }}};
  }

  std::vector<std::string> order_names() const { return plan_users; }

  std::string not_ready(const std::vector<std::string>& names) const {
    std::string out;
    for (auto& name : names) out += keystone_scenario::not_ready(user_resource, name, {"UserReady", "DeliveryReady"});
    return out;
  }

  std::string order_state(const std::string& name) const {
    auto o = get(user_resource, name);
    const bool in_keystone = keystone->user(name) && o.get_string({"status", "userID"}) == keystone->id("users", name);
    // The backup delivery: OpenBao holds the delivered password.
    auto pushed = world->pushed("openstack/keystone/openstack/" + name + "-",
                                {{"password", secret(name + "-credentials", "password")}});
    return fmt::format("exists={} ready={} korc-users={} secrets={} pushsecrets={} generation={} in-keystone={} "
                       "delivered-password={} authenticates={} pushed={}",
                       static_cast<bool>(o), ready(user_resource, name),
                       labelled("users.openstack.k-orc.cloud", user_label, name),
                       labelled("secrets", user_label, name), labelled("pushsecrets.external-secrets.io", user_label, name),
                       k8s::get_int(o.json(), {"status", "passwordGeneration"}).value_or(0), in_keystone,
                       secret(name + "-credentials", "password").size(), user_authenticates(name), pushed);
  }

  // What of the credentials delivered so far Keystone refuses now (asked
  // while the plan runs: plan_runner.hpp); not of an order being deleted,
  // nor of alice while her rotation is under way (which ends here once she
  // is Ready at generation 2).
  std::string credentials_refused() {
    std::string out;
    for (auto& name : plan_users) {
      auto o = get(user_resource, name);
      if (!o || o.terminating()) continue;
      if (name == rotating) {
        if (!ready(o) || k8s::get_int(o.json(), {"status", "passwordGeneration"}).value_or(0) != 2) continue;
        rotating.clear();
      }
      if (secret(name + "-credentials", "clouds.yaml").empty()) continue;  // not delivered yet
      if (auto a = user_authenticates(name); a != "yes") out += name + ": " + a + " ";
    }
    return out;
  }
  void expect_reference() const {
    BOOST_TEST_CONTEXT("alice") {
      BOOST_TEST(labelled("users.openstack.k-orc.cloud", user_label, "alice") == 1u);  // the probe is gone
      BOOST_TEST(labelled("pushsecrets.external-secrets.io", user_label, "alice") == 1u);
      BOOST_TEST(k8s::get_int(get(user_resource, "alice").json(), {"status", "passwordGeneration"}).value_or(0) == 2);
      BOOST_TEST(secret("alice-credentials", "password").size() == 43u);
      BOOST_TEST(user_authenticates("alice") == "yes");
      BOOST_TEST(order_state("alice").find("pushed=same") != std::string::npos, order_state("alice"));
    }
    BOOST_TEST_CONTEXT("bob") {
      BOOST_TEST(!get(user_resource, "bob"));
      BOOST_TEST(!keystone->user("bob"));
      BOOST_TEST(labelled("users.openstack.k-orc.cloud", user_label, "bob") == 0u);
      BOOST_TEST(labelled("secrets", user_label, "bob") == 0u);
      BOOST_TEST(labelled("pushsecrets.external-secrets.io", user_label, "bob") == 0u);
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
