// The messaging gate (rabbitmqvhost-reconciler.txt "Reconciliation Flow";
// apis.md 1.3 and 2.5).
#include "actors/c5c3/rabbitmqvhost/messaging_gate.hpp"
#include "tests/c5c3/snapshots.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(rabbitmqvhost_messaging_gate)

BOOST_AUTO_TEST_CASE(messaging_gate_table) {
  struct row {
    const char* sentence;
    object cp;
    std::optional<object> rmq;
    std::optional<object> secret;
    bool passed;
    std::string reason;
    std::string message;
    orders::requeue requeue;
  };
  const row rows[] = {
      {"no spec.infrastructure.messaging reads MessagingNotDeclared with no requeue of its own",
       control_plane("", false), rabbitmq_cluster(), default_user_secret(), false, "MessagingNotDeclared",
       "ControlPlane openstack/cp declares no spec.infrastructure.messaging; a RabbitMQVhost order needs the managed "
       "message bus",
       std::nullopt},
      {"a brownfield secretRef bus reads MessagingNotManaged with no requeue of its own",
       control_plane("", true, false), rabbitmq_cluster(), default_user_secret(), false, "MessagingNotManaged",
       "ControlPlane openstack/cp attaches to a brownfield broker through spec.infrastructure.messaging.secretRef, "
       "whose management API and admin account the operator does not hold; RabbitMQVhost orders need a managed "
       "clusterRef bus",
       std::nullopt},
      {"a missing RabbitmqCluster waits for the messaging credentials", control_plane(), std::nullopt,
       default_user_secret(), false, "WaitingForMessagingCredentials",
       "RabbitmqCluster openstack/openstack-rabbitmq not found", 10s},
      {"a RabbitmqCluster without status.defaultUser waits", control_plane(), rabbitmq_cluster(true, false),
       default_user_secret(), false, "WaitingForMessagingCredentials",
       "RabbitmqCluster openstack/openstack-rabbitmq has no status.defaultUser.secretReference.name yet", 10s},
      {"a missing default-user Secret waits", control_plane(), rabbitmq_cluster(), std::nullopt, false,
       "WaitingForMessagingCredentials", "default-user Secret openstack/openstack-rabbitmq-default-user not found",
       10s},
      {"a default-user Secret missing a key waits, naming the key", control_plane(), rabbitmq_cluster(),
       default_user_secret({{"username", "admin"}, {"host", "h"}, {"port", "5672"}}), false,
       "WaitingForMessagingCredentials",
       "default-user Secret openstack/openstack-rabbitmq-default-user missing key \"password\"", 10s},
      {"a bus that is not AllReplicasReady reads WaitingForMessaging", control_plane(), rabbitmq_cluster(false),
       default_user_secret(), false, "WaitingForMessaging",
       "RabbitmqCluster openstack/openstack-rabbitmq is not AllReplicasReady", 10s},
      {"a managed bus that is up passes with the in-cluster host and port", control_plane(), rabbitmq_cluster(),
       default_user_secret(), true, "", "", std::nullopt},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      auto g = vhost::messaging_gate({&r.cp, r.rmq ? &*r.rmq : nullptr, r.secret ? &*r.secret : nullptr});
      BOOST_TEST(g.gate.passed == r.passed);
      BOOST_TEST(g.gate.reason == r.reason);
      BOOST_TEST(g.gate.message == r.message);
      BOOST_TEST((g.gate.requeue == r.requeue));
      BOOST_TEST_CONTEXT("no condition ever quotes the URL, which carries the admin password") {
        BOOST_TEST(g.gate.message.find("s3cr3t") == std::string::npos);
        BOOST_TEST(g.gate.message.find("rabbit://") == std::string::npos);
      }
      if (r.passed) {
        BOOST_TEST(g.host == "openstack-rabbitmq.openstack.svc");
        BOOST_TEST(g.port == 5672);
        BOOST_TEST(g.cluster_name == "openstack-rabbitmq");
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_port_that_does_not_parse_is_an_error_that_names_no_secret_value) {
  auto cp = control_plane();
  auto rmq = rabbitmq_cluster();
  auto secret = default_user_secret(
      {{"username", "admin"}, {"password", "s3cr3t"}, {"host", "h"}, {"port", "56x72"}});
  auto g = vhost::messaging_gate({&cp, &rmq, &secret});
  BOOST_TEST(!g.gate.passed);
  BOOST_TEST(g.gate.reason == "VhostError");
  BOOST_TEST(g.gate.message.find("s3cr3t") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_default_user_secret_namespace_defaults_to_the_clusters) {
  auto rmq = rabbitmq_cluster();
  BOOST_TEST(vhost::default_user_secret_key(rmq)->to_string() == "openstack/openstack-rabbitmq-default-user");
  auto elsewhere = rmq.edit();
  elsewhere.set_string({"status", "defaultUser", "secretReference", "namespace"}, "other");
  BOOST_TEST(vhost::default_user_secret_key(std::move(elsewhere).freeze())->to_string() ==
             "other/openstack-rabbitmq-default-user");
  BOOST_TEST(vhost::messaging_cluster_key(control_plane())->to_string() == "openstack/openstack-rabbitmq");
  BOOST_TEST(!vhost::messaging_cluster_key(control_plane("", true, false)));
}

BOOST_AUTO_TEST_SUITE_END()
