// orderTeardown, sweepOrderList and sweepDeliveredSecret
// (keystone-orders-reconcilers.txt "Deletion and Teardown"; apis.md 1.1).
#include "actors/c5c3/scaffold/teardown.hpp"
#include "tests/c5c3/snapshots.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;
using namespace std::chrono_literals;

namespace {
orders::order_ref ref() { return vhost::make_order_ref("orders", "tenant-a", ""); }
std::string prefix() { return ref().child_prefix(); }
}  // namespace

BOOST_AUTO_TEST_SUITE(scaffold_teardown)

BOOST_AUTO_TEST_CASE(sweep_order_list_deletes_owned_items_first_selected_first) {
  std::vector<object> items{
      labelled(make_secret("openstack", prefix() + "source", {}), ref()),
      labelled(make_secret("openstack", prefix() + "password-v1", {}), ref()),
      labelled(make_secret("openstack", "cp-keystone-admin", {}), ref()),            // labelled, outside the prefix
      make_secret("openstack", prefix() + "password-v9", {}),                          // no labels
      terminating(labelled(make_secret("openstack", prefix() + "password-v2", {}), ref())),
  };
  auto swept = orders::sweep_order_list(ref(), items, [](const object& o) {
    return o.name().find("password-v") != std::string_view::npos;
  });
  BOOST_TEST_CONTEXT("the items first selects go before the rest; foreign items are never swept") {
    BOOST_TEST(describe(swept.writes) ==
                   (std::vector<std::string>{"delete Secret openstack/" + prefix() + "password-v1",
                                             "delete Secret openstack/" + prefix() + "source"}),
               boost::test_tools::per_element());
  }
  BOOST_TEST_CONTEXT("an item counts while it is listed, a terminating one without a second delete") {
    BOOST_TEST(swept.count == 3);
  }
}

BOOST_AUTO_TEST_CASE(sweep_order_lists_runs_each_kind_in_turn) {
  std::vector<object> pushes{labelled(make_object("external-secrets.io/v1alpha1", "PushSecret", "openstack",
                                                  prefix() + "backup"),
                                      ref())};
  std::vector<object> secrets{labelled(make_secret("openstack", prefix() + "source", {}), ref())};
  auto swept = orders::sweep_order_lists(ref(), {{&pushes, {}}, {&secrets, {}}});
  BOOST_TEST(describe(swept.writes) ==
                 (std::vector<std::string>{"delete PushSecret openstack/" + prefix() + "backup",
                                           "delete Secret openstack/" + prefix() + "source"}),
             boost::test_tools::per_element());
  BOOST_TEST(swept.count == 2);
}

BOOST_AUTO_TEST_CASE(typed_items_fill_in_what_a_list_response_leaves_out) {
  auto bare = parse(R"({"metadata":{"name":"x","namespace":"openstack"}})");
  auto typed = orders::typed_items({bare, make_object("v1", "ConfigMap", "openstack", "y")}, "v1", "Secret");
  BOOST_TEST(typed[0].kind() == "Secret");
  BOOST_TEST(typed[0].api_version() == "v1");
  BOOST_TEST(typed[1].kind() == "ConfigMap");
}

BOOST_AUTO_TEST_CASE(sweep_delivered_secret_only_when_the_order_controls_it) {
  auto mine = controlled_by(make_secret("tenant-a", "orders-credentials", {}), "uid-order");
  auto theirs = controlled_by(make_secret("tenant-a", "orders-credentials", {}), "uid-other");
  auto plain = make_secret("tenant-a", "orders-credentials", {});
  auto swept = orders::sweep_delivered_secret(&mine, {"uid-order"});
  BOOST_REQUIRE(swept.writes.size() == 1u);
  BOOST_TEST((swept.writes[0].cluster == orders::write_cluster::order));
  BOOST_TEST(swept.count == 1);
  BOOST_TEST(orders::sweep_delivered_secret(&theirs, {"uid-order"}).writes.empty());
  BOOST_TEST(orders::sweep_delivered_secret(&plain, {"uid-order"}).writes.empty());
  BOOST_TEST(orders::sweep_delivered_secret(nullptr, {"uid-order"}).count == 0);
}

BOOST_AUTO_TEST_CASE(order_teardown_table) {
  struct row {
    const char* sentence;
    bool finalizer, cp_present;
    int remaining;
    bool failed;
    bool run, release;
    orders::requeue requeue;
  };
  const row rows[] = {
      {"no finalizer: nothing to do", false, true, 3, false, false, false, std::nullopt},
      {"ControlPlane present, children listed: the finalizer is held and the pass requeues after 10 s", true, true, 2,
       false, true, false, 10s},
      {"ControlPlane present, nothing listed: the finalizer is released", true, true, 0, false, true, true,
       std::nullopt},
      {"ControlPlane gone: the deletes are issued and the finalizer is released at once", true, false, 5, false, true,
       true, std::nullopt},
      {"ControlPlane gone: a failed sweep is logged and the finalizer released anyway", true, false, 0, true, true,
       true, std::nullopt},
      {"ControlPlane present: a failed sweep holds the finalizer", true, true, 0, true, true, false, 10s},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      auto d = orders::order_teardown(r.finalizer, r.cp_present, r.remaining, r.failed);
      BOOST_TEST(d.run_sweep == r.run);
      BOOST_TEST(d.release_finalizer == r.release);
      BOOST_TEST((d.requeue == r.requeue));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
