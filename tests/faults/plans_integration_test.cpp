// Generated perturbation plans for the RabbitMQVhost order (issue 18): a
// fault-free reference run, the plans generated from its write and watch logs
// (tests/faults/plans.hpp), and each plan run from scratch against the same
// scenario (plan_runner.hpp). The scenario: o0 (deletionPolicy Retain) and o1
// (Delete) created and converged; o1 deleted, its teardown done (children,
// delivered Secret and broker vhost gone). Oracle: the end state equals the
// reference's (o0 Ready with one child of each kind, one password Secret, the
// delivered Secret complete, its vhost on the broker, its credential accepted
// by the broker; o1 and everything of it gone) and so do the operator's
// successful creates and deletes per kind (no duplicate generation, no orphan,
// no lost credential); and every credential delivered authenticates at the
// broker during the run, not only at its end (credentials_refused).
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

  // The broker vhost of the order deleted, as delivered before its deletion.
  std::string deleted_vhost;

  std::vector<faults::scenario_step> steps() {
    return {{"create",
             [this] {
               prepare();
               create(vhost_order(order_name(0), "Retain"));
               create(vhost_order(order_name(1), "Delete"));
             },
             [this] { return not_ready(); }},
            {"delete",
             [this] {
               deleted_vhost = key(delivered(order_name(1)), "vhost");
               auto r = world->remove(order_gvk, "tenant-a", order_name(1));
               BOOST_TEST_REQUIRE(r.ok());
             },
             [this] { return not_torn_down(order_name(1)); }}};
  }

  // What of a deleted order's teardown is still to happen ("" once done).
  std::string not_torn_down(const std::string& name) const {
    std::string out;
    if (order(name)) out += name + " exists; ";
    for (auto res : {"vhosts.rabbitmq.com", "users.rabbitmq.com", "permissions.rabbitmq.com",
                     "pushsecrets.external-secrets.io", "secrets"})
      if (auto n = children(res, name)) out += fmt::format("{} {} left; ", n, res);
    if (server.get_object("secrets", "tenant-a", name + "-credentials")) out += "the delivered Secret left; ";
    if (world->broker->vhosts().count(deleted_vhost)) out += "the broker vhost left; ";
    return out;
  }

  std::vector<std::string> order_names() const {
    std::vector<std::string> out;
    for (int i = 0; i < count; ++i) out.push_back(order_name(i));
    return out;
  }
  // A key of the delivered Secret, "" when absent (no insertion: the count
  // of keys is part of the state).
  static std::string key(const std::map<std::string, std::string>& d, const char* k) {
    auto it = d.find(k);
    return it == d.end() ? std::string() : it->second;
  }
  std::string order_state(const std::string& name) const {
    const auto d = delivered(name);
    const auto username = key(d, "username"), password = key(d, "password");
    std::string auth = "no";
    if (auto u = world->broker->user(username); u && !password.empty())
      auth = u->password == password ? "yes" : "wrong password";
    std::string kids;
    for (auto res : {"vhosts.rabbitmq.com", "users.rabbitmq.com", "permissions.rabbitmq.com",
                     "pushsecrets.external-secrets.io"})
      kids += std::to_string(children(res, name));
    // The backup delivery: OpenBao holds the delivered credential.
    auto pushed =
        world->pushed("openstack/rabbitmq/openstack/" + name + "-", {{"username", username}, {"password", password}});
    return fmt::format("exists={} ready={} children={} passwords={} delivered={} vhost={} authenticates={} pushed={}",
                       static_cast<bool>(order(name)), ready(name), kids, password_secrets(name).size(), d.size(),
                       world->broker->vhosts().count(key(d, "vhost")), auth, pushed);
  }
  void expect_reference() const {
    expect_converged_children(1);
    BOOST_TEST(order_state(order_name(1)) ==
               "exists=false ready=false children=0000 passwords=0 delivered=0 vhost=0 authenticates=no pushed=none");
    BOOST_TEST(order_state(order_name(0)).find("pushed=same") != std::string::npos, order_state(order_name(0)));
    BOOST_TEST(not_torn_down(order_name(1)) == "");
  }
  // What of the credentials delivered so far the broker refuses now (asked
  // while the plan runs: plan_runner.hpp); an order being deleted takes its
  // user away.
  std::string credentials_refused() const {
    std::string out;
    for (auto& name : order_names()) {
      if (auto o = order(name); !o || o.terminating()) continue;
      const auto d = delivered(name);
      const auto username = key(d, "username"), password = key(d, "password");
      if (username.empty() || password.empty()) continue;  // not delivered yet
      auto u = world->broker->user(username);
      if (!u)
        out += name + ": no broker user " + username + " ";
      else if (u->password != password)
        out += name + ": the broker refuses the password ";
    }
    return out;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans_rabbitmqvhost)

BOOST_AUTO_TEST_CASE(every_chosen_plan_ends_as_the_reference_run) {
  faults::every_chosen_plan_ends_as_the_reference_run<rabbitmqvhost_scenario>(8, "rabbitmqvhosts.c5c3.io");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
