// The RabbitMQVhost teardown (rabbitmqvhost-reconciler.txt "Deletion and
// Teardown").
#include "actors/c5c3/rabbitmqvhost/teardown.hpp"
#include "tests/c5c3/rabbitmqvhost_world.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;
using namespace std::chrono_literals;

namespace {

std::string p(std::string_view tail) { return "openstack/orders-32606a5f-vhost-" + std::string(tail); }

struct world {
  std::string policy = "Delete";
  bool finalizer = true;
  bool cp_present = true;
  std::vector<object> push_secrets{fresh_push()};
  std::vector<object> permissions{live_permission(1), live_permission(2)};
  std::vector<object> users{live_user(1), live_user(2)};
  std::vector<object> vhosts{live_vhost("retain")};
  std::vector<object> secrets{live_password(1), source_secret(), live_password(2),
                              make_secret("openstack", "unrelated", {})};
  std::optional<object> delivered = delivered_secret();
  vhost::vhost_order order;

  vhost::teardown_plan plan() {
    order = vhost::make_vhost_order(
        vhost_order_object("tenant-a", "orders",
                           R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"},"deletionPolicy":")" + policy +
                               R"("})"),
        "");
    vhost::teardown_snapshot s{&order,      finalizer, cp_present, push_secrets, permissions,
                               users,       vhosts,    secrets,    delivered ? &*delivered : nullptr};
    return vhost::plan_teardown(s);
  }
};

const std::vector<std::string> full_order{
    "delete PushSecret " + p("backup"),
    "delete Permission " + p("permission-v1"),
    "delete Permission " + p("permission-v2"),
    "delete User " + p("user-v1"),
    "delete User " + p("user-v2"),
    "patch Vhost " + p("vhost"),
    "delete Vhost " + p("vhost"),
    "delete Secret " + p("password-v1"),
    "delete Secret " + p("password-v2"),
    "delete Secret " + p("source"),
    "delete Secret tenant-a/orders-credentials",
};

}  // namespace

BOOST_AUTO_TEST_SUITE(rabbitmqvhost_teardown)

BOOST_AUTO_TEST_CASE(the_deletes_run_in_the_documents_order) {
  world w;
  auto plan = w.plan();
  BOOST_TEST_CONTEXT("PushSecret, Permissions, Users, the Vhost after the policy patch, password Secrets, the source "
                     "Secret, then the delivered Secret") {
    BOOST_TEST(describe(plan.writes) == full_order, boost::test_tools::per_element());
  }
  BOOST_TEST_CONTEXT("the merge patch writes the order's current deletionPolicy in the operator's spelling") {
    const object& patch = plan.writes[5].body;
    BOOST_TEST((plan.writes[5].verb == orders::write_verb::merge_patch));
    BOOST_TEST(patch.get_string({"spec", "deletionPolicy"}) == "delete");
    BOOST_TEST(!patch.get({"spec", "name"}));
  }
  BOOST_TEST_CONTEXT("the delivered Secret goes through the order's cluster client") {
    BOOST_TEST((plan.writes.back().cluster == orders::write_cluster::order));
  }
  BOOST_TEST_CONTEXT("with the ControlPlane present the finalizer is held while a child is listed (10 s)") {
    BOOST_TEST(plan.remaining == 10);  // eleven writes, the patch among them
    BOOST_TEST(!plan.release_finalizer);
    BOOST_TEST((plan.requeue == orders::requeue(10s)));
  }
}

BOOST_AUTO_TEST_CASE(teardown_table) {
  struct row {
    const char* sentence;
    std::function<void(world&)> setup;
    std::vector<std::string> writes;
    int remaining;
    bool release;
    orders::requeue requeue;
  };
  const row rows[] = {
      {"with the ControlPlane gone the deletes are issued and the finalizer is released at once",
       [](world& w) { w.cp_present = false; }, full_order, 10, true, std::nullopt},
      {"a Vhost already being deleted keeps its own policy and is not deleted again",
       [](world& w) {
         w.vhosts = {terminating(live_vhost("retain"))};
         w.users.clear();
         w.permissions.clear();
         w.push_secrets.clear();
         w.secrets.clear();
         w.delivered.reset();
       },
       {}, 1, false, 10s},
      {"a Vhost already carrying the order's policy is deleted without a patch",
       [](world& w) {
         w.policy = "Retain";
         w.users.clear();
         w.permissions.clear();
         w.push_secrets.clear();
         w.secrets.clear();
         w.delivered.reset();
       },
       {"delete Vhost " + p("vhost")}, 1, false, 10s},
      {"a cluster that serves none of a kind holds none of it; nothing listed releases the finalizer",
       [](world& w) {
         w.vhosts.clear();
         w.users.clear();
         w.permissions.clear();
         w.push_secrets.clear();
         w.secrets = {make_secret("openstack", "unrelated", {})};
         w.delivered.reset();
       },
       {}, 0, true, std::nullopt},
      {"the delivered Secret is swept only when the order controls it",
       [](world& w) {
         w.vhosts.clear();
         w.users.clear();
         w.permissions.clear();
         w.push_secrets.clear();
         w.secrets.clear();
         w.delivered = delivered_secret(six_keys(), "uid-other");
       },
       {}, 0, true, std::nullopt},
      {"without the finalizer there is nothing to do", [](world& w) { w.finalizer = false; }, {}, 0, false,
       std::nullopt},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      world w;
      r.setup(w);
      auto plan = w.plan();
      BOOST_TEST(describe(plan.writes) == r.writes, boost::test_tools::per_element());
      BOOST_TEST(plan.remaining == r.remaining);
      BOOST_TEST(plan.release_finalizer == r.release);
      BOOST_TEST((plan.requeue == r.requeue));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
