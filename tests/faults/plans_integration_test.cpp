// Generated perturbation plans for the RabbitMQVhost order (issue 18): a
// fault-free reference run (two orders created, converged), the plans
// generated from its write and watch logs (tests/faults/plans.hpp), and
// each plan run from scratch against the same scenario (plan_runner.hpp).
// Oracle: the end state equals the reference's (every order Ready with one
// child of each kind, one password Secret, the delivered Secret complete,
// its vhost on the broker, its credential accepted by the broker) and so do
// the operator's successful creates and deletes per kind (no duplicate
// generation, no orphan, no lost credential).
//
// C5C3_FAULT_PLANS picks the plans: a number (8 by default, what CI runs),
// `all`, or a plan's name (C5C3_FAULT_PLANS=crash@7).
#include "tests/faults/plan_runner.hpp"
#include "tests/rabbitmqvhost_faults/fault_fixture.hpp"

namespace c5c3::testing {
namespace {

constexpr int plan_orders = 2;

struct rabbitmqvhost_scenario : fault_fixture {
  explicit rabbitmqvhost_scenario(bool start) : fault_fixture(start) { count = plan_orders; }

  void begin() {
    prepare();
    create_orders("Retain");
  }

  std::vector<std::string> order_names() const {
    std::vector<std::string> out;
    for (int i = 0; i < count; ++i) out.push_back(order_name(i));
    return out;
  }

  std::string order_state(const std::string& name) const {
    auto d = delivered(name);
    std::string auth = "no";
    if (auto u = world->broker->user(d["username"]); u && !d["password"].empty())
      auth = u->password == d["password"] ? "yes" : "wrong password";
    std::string kids;
    for (auto res : {"vhosts.rabbitmq.com", "users.rabbitmq.com", "permissions.rabbitmq.com",
                     "pushsecrets.external-secrets.io"})
      kids += std::to_string(children(res, name));
    return fmt::format("ready={} children={} passwords={} delivered={} vhost={} authenticates={}", ready(name), kids,
                       password_secrets(name).size(), d.size(), world->broker->vhosts().count(d["vhost"]), auth);
  }

  void expect_reference() const { expect_converged_children(); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans_rabbitmqvhost)

BOOST_AUTO_TEST_CASE(every_chosen_plan_ends_as_the_reference_run) {
  faults::every_chosen_plan_ends_as_the_reference_run<rabbitmqvhost_scenario>(8, "rabbitmqvhosts.c5c3.io");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
