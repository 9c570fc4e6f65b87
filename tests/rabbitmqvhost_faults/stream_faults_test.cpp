// The RabbitMQVhost order host when the operator's watch streams misbehave
// (stream rules of the emulator, on the operator's token only): every
// informer held two events behind while the orders are created (a stale
// view of the orders and their children), MODIFIED events coalesced into
// their successors, and open watches ended with 410 at chosen points of the
// run (after the operator's Nth write) while the watches they restart with
// get garbage and truncated streams. The informers relist and resume, and
// the orders converge with the children of a fault-free run: one of each
// kind, each created once, one password Secret each (a stale view never
// makes a second one).
#include "tests/rabbitmqvhost_faults/fault_fixture.hpp"
#include "tests/require_eventually.hpp"

namespace c5c3::testing {
namespace {

// The orders with a password Secret the operator created (write log).
int orders_with_password(const sim::apiserver& server) {
  std::set<std::string> out;
  for (auto& w : server.write_log())
    if (w.client == operator_user && w.verb == "create" && w.code == 201 && w.resource == "secrets" &&
        w.name.find("-password-v") != std::string::npos)
      out.insert(w.name.substr(0, w.name.find('-')));
  return static_cast<int>(out.size());
}

sim::fault_rule watches() {
  sim::fault_rule r;
  r.verb = "watch";
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rabbitmqvhost_stream_faults)

// Every watch of the operator is held two events behind once the world has
// settled the prerequisites and the operator has seen them: a hold added
// earlier can catch a prerequisite's last event (the RabbitmqCluster's
// status, the ControlPlane's AdminCredentialReady) with no later event on
// its watch to push it out, and then no watch-only client (controller-
// runtime's requeue and resync read the same cache) ever admits an order
// until the hold goes. That is what made this case fail whenever the world
// wrote those statuses after prepare() returned (issue 18).
BOOST_FIXTURE_TEST_CASE(informers_two_events_behind_converge_once_released, fault_fixture) {
  prepare();
  BOOST_TEST_REQUIRE(eventually([&] { return prerequisites_seen(); }));
  auto hold = watches();
  hold.hold_watch_events = 2;
  std::vector<std::string> ids{add(hold)};
  create_orders("Retain");
  // The operator works from its stale view until half the orders have
  // their password; the last two events of every stream are still held.
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return orders_with_password(server) >= orders / 2; }, converge_seconds),
                          "orders with a password: " << orders_with_password(server));
  expect_fired(ids);
  BOOST_TEST(server.remove_fault(ids[0]));
  wait_ready();
  expect_converged_children();
}

BOOST_FIXTURE_TEST_CASE(coalesced_modified_events_converge, fault_fixture) {
  prepare();
  auto coalesce = watches();
  coalesce.coalesce_modified = true;
  coalesce.latency = 300ms;  // at most this long withheld when no successor comes
  coalesce.times = 40;
  std::vector<std::string> ids{add(coalesce)};
  create_orders("Retain");
  wait_ready();
  expect_fired(ids);
  expect_converged_children();
}

BOOST_FIXTURE_TEST_CASE(watches_expired_mid_run_and_garbled_restarts_converge, fault_fixture) {
  prepare();
  // Every open operator watch ends with 410 after its 8th and its 25th
  // write (the informers relist); the watches they open next send garbage
  // or are cut mid-event.
  auto early = watches(), late = watches();
  early.expire_watches = late.expire_watches = true;
  early.after_writes = 8;
  late.after_writes = 25;
  auto garbage = watches(), truncated = watches();
  garbage.body = "garbage";
  garbage.times = 3;
  truncated.body = "truncated";
  truncated.times = 3;
  std::vector<std::string> ids{add(early), add(late), add(garbage), add(truncated)};
  create_orders("Retain");
  wait_ready();
  expect_fired(ids);
  // Once per stream open when it armed: every informer met both.
  auto counts = server.fault_counts();
  BOOST_TEST(counts.by_rule[ids[0]] >= 3u);
  BOOST_TEST(counts.by_rule[ids[1]] >= 3u);
  expect_converged_children();
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
