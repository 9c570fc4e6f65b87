// explain.hpp's pure parts: the debug path, the kind a user names, the text.
#include "actors/operator/explain.hpp"

#include <boost/test/unit_test.hpp>

namespace c5c3::operator_ {

BOOST_AUTO_TEST_SUITE(explain)

BOOST_AUTO_TEST_CASE(debug_paths) {
  auto r = parse_debug_path("/debug/orders/rabbitmqvhost/tenant-a/app", "edge-1");
  BOOST_TEST_REQUIRE(r.has_value());
  BOOST_TEST(r->controller == "rabbitmqvhost");
  BOOST_TEST(r->namespace_ == "tenant-a");
  BOOST_TEST(r->name == "app");
  BOOST_TEST(r->cluster == "edge-1");
  BOOST_TEST(debug_path(*r) == "/debug/orders/rabbitmqvhost/tenant-a/app?cluster=edge-1");
  for (auto bad : {"/debug/orders/rabbitmqvhost/tenant-a", "/debug/orders/a/b/c/d", "/debug/orders//b/c", "/readyz"})
    BOOST_TEST(!parse_debug_path(bad, ""), bad);
}

BOOST_AUTO_TEST_CASE(the_kind_a_user_names) {
  const std::vector<std::string> controllers{"rabbitmqvhost", "keystoneuser"};
  BOOST_TEST(*controller_for("RabbitMQVhost", controllers) == "rabbitmqvhost");
  BOOST_TEST(*controller_for("rabbitmqvhosts", controllers) == "rabbitmqvhost");
  BOOST_TEST(*controller_for("KeystoneUsers", controllers) == "keystoneuser");
  BOOST_TEST(!controller_for("gizmo", controllers));
}

BOOST_AUTO_TEST_CASE(the_text_names_the_step_the_child_and_the_timers) {
  protocol::order_probe p;
  p.passes_started = p.passes_finished = 4;
  p.report = {"legs", "False NotAllReady: VhostReady is False",
              "VhostReady=False WaitingForVhost: the topology operator has not reported Vhost app-1-vhost-vhost",
              "Vhost openstack/app-1-vhost-vhost",
              "Ready=False FailedCreateOrUpdate: broker down", "requeue after 10s"};
  p.last_pass_at = "2026-12-01T10:00:00Z";
  p.timers_due = {"requeue 2026-12-01T10:00:11Z", "rotation 2026-12-31T10:00:01Z"};
  p.last_error = "RabbitMQVhost tenant-a/app: 500";
  p.last_error_at = "2026-12-01T09:59:00Z";
  auto text = render_explain({"rabbitmqvhost", "tenant-a", "app", ""}, p);
  BOOST_TEST(text ==
             "rabbitmqvhost tenant-a/app on the management cluster\n"
             "  Ready:       False NotAllReady: VhostReady is False\n"
             "  Blocked by:  VhostReady=False WaitingForVhost: the topology operator has not reported Vhost "
             "app-1-vhost-vhost\n"
             "  Stopped at:  legs\n"
             "  Waiting for: Vhost openstack/app-1-vhost-vhost: Ready=False FailedCreateOrUpdate: broker down\n"
             "  Last pass:   2026-12-01T10:00:00Z (requeue after 10s)\n"
             "  Now:         idle\n"
             "  Timers:      requeue 2026-12-01T10:00:11Z; rotation 2026-12-31T10:00:01Z\n"
             "  Last error:  RabbitMQVhost tenant-a/app: 500 (2026-12-01T09:59:00Z)\n"
             "  Failures:    0\n"
             "  Passes:      4 finished\n");
  auto none = render_explain({"rabbitmqvhost", "tenant-a", "x", "edge"}, std::nullopt);
  BOOST_TEST(none.find("on target cluster \"edge\"") != std::string::npos);
  BOOST_TEST(none.find("no order actor holds it") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::operator_
