// The order runner's additions for the Keystone orders, under CAF's test
// coordinator against the fake cluster: a write to a subresource, a write
// whose failure the plan reports (recorded in the snapshot, the rest of that
// plan dropped, planned again), and the watches a declaration's
// referenced_by implies.
#include "actors/runtime/order_actor.hpp"
#include "actors/runtime/runner/declaration.hpp"
#include "actors/runtime/runner/runner.hpp"
#include "tests/rabbitmqvhost_actor/fake_world.hpp"
#include "tests/runtime/coordinator_fixture.hpp"

#include <boost/test/unit_test.hpp>

namespace c5c3::testing {
namespace {

namespace rt = ::c5c3::runtime;

const k8s::gvk widget{"test.c5c3.io", "v1", "Widget"};
const rt::ownership_keys keys{"test.c5c3.io/widget-name", "test.c5c3.io/widget-namespace",
                              "test.c5c3.io/widget-cluster"};

// Plans a status patch of a ConfigMap that does not exist, marked
// report_failure, then a stamp that must not go out; once the failure is in
// the snapshot, writes the order's status naming it.
std::shared_ptr<rt::kind_declaration> failing_kind(std::shared_ptr<int> plans) {
  auto k = std::make_shared<rt::kind_declaration>();
  k->controller = "widget";
  k->gvk = widget;
  k->keys = keys;
  k->finalizer = "test.c5c3.io/widget-teardown";
  k->admission = false;
  k->reads = {rt::children("maps", {"", "v1", "ConfigMap"}, keys)};
  k->plan = [plans](const rt::sense_snapshot& s) {
    ++*plans;
    rt::order_plan p;
    k8s::object_builder patch("v1", "ConfigMap", "tenant-a", "missing");
    auto w = rt::make_merge_patch(std::move(patch).freeze());
    w.subresource = "status";
    w.report_failure = true;
    if (const auto* f = s.failure_of(w)) {
      auto b = s.order.edit();
      b.set_string({"status", "failure"}, f->message);
      b.set_string({"status", "code"}, f->code ? protocol::to_string(*f->code) : "none");
      p.status = std::move(b).freeze();
      return p;
    }
    k8s::object_builder stamp("v1", "ConfigMap", "tenant-a", "never");
    p.writes = {w, rt::make_merge_patch(std::move(stamp).freeze())};
    return p;
  };
  return k;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(runner_reported_failures)

BOOST_FIXTURE_TEST_CASE(a_reported_failure_is_the_plans_to_report, coordinator_fixture) {
  auto store = std::make_shared<fake_store>();
  fake_store_put(*store, test::parse(R"({"apiVersion":"test.c5c3.io/v1","kind":"Widget",
    "metadata":{"name":"w","namespace":"tenant-a"},"spec":{"x":1}})"), false);
  auto cluster = keep(sys.spawn(fake_cluster, store));
  auto directory = keep(sys.spawn(fake_directory, cluster));
  auto plans = std::make_shared<int>(0);
  rt::runner_deps deps;
  deps.clusters = directory;
  rt::order_actor_config cfg;
  cfg.key = {"", "tenant-a", "w"};
  cfg.pass = rt::make_runner_pass(failing_kind(plans), deps);
  auto actor = keep(rt::spawn_order_actor(sys, std::move(cfg)));
  self->send(actor, protocol::order_update{*store->get("Widget", "tenant-a", "w"), true});
  run();
  const auto* w = store->get("Widget", "tenant-a", "w");
  BOOST_REQUIRE(w);
  // The patch went to the status subresource, failed, and was reported; the
  // write after it in that plan never went out; the pass did not fail.
  BOOST_TEST((store->patches == std::vector<std::string>{"ConfigMap/missing/status"}));
  BOOST_TEST(w->get_string({"status", "code"}) == "not_found");
  BOOST_TEST(w->get_string({"status", "failure"}).find("missing not found") != std::string::npos);
  BOOST_TEST(*plans == 2);
  auto probe = ask<protocol::order_probe>(actor, protocol::probe_atom::value);
  BOOST_TEST(probe.failures == 0u);
}

// referenced_by kinds are watched on every engaged cluster, optional.
BOOST_AUTO_TEST_CASE(referenced_by_is_watched_everywhere) {
  rt::kind_declaration k;
  k.gvk = widget;
  k.keys = keys;
  k.referenced_by = {{{"test.c5c3.io", "v1", "Gadget"}, {"spec", "widgetRef", "name"}}};
  auto watches = rt::watches_of(k);
  BOOST_REQUIRE(watches.size() == 2u);
  BOOST_TEST(watches[1].gvk.kind == "Gadget");
  BOOST_TEST(watches[1].selector.empty());
  BOOST_TEST(watches[1].every_cluster);
  BOOST_TEST(watches[1].optional);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
