// The topology simulator against a real RabbitMQ on loopback: the management
// API adapter creates a vhost, a user and its permissions; pika opens an AMQP
// connection with them; after the deletions the same connection is refused.
// The broker runs through tools/rabbitmq-loopback (as root) and is stopped
// even when a check fails.
#include "sim/world/cluster_operator.hpp"
#include "sim/world/management_broker.hpp"
#include "sim/world/topology_operator.hpp"

#include "fixtures.hpp"
#include "loopback.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

using namespace c5c3::sim::world;
using namespace c5c3::sim::world::test;
namespace k8s = c5c3::k8s;

namespace {

// Opens an AMQP connection and a channel with pika; true when it worked. The
// URL (it carries a password) goes through the environment, not argv.
bool amqp_opens(const std::string& url) {
  ::setenv("C5C3_E2E_AMQP_URL", url.c_str(), 1);
  int status = std::system(
      "/usr/bin/python3 -c '"
      "import os, sys, pika\n"
      "try:\n"
      "    c = pika.BlockingConnection(pika.URLParameters(os.environ[\"C5C3_E2E_AMQP_URL\"]))\n"
      "    ch = c.channel()\n"
      "    ch.queue_declare(queue=\"c5c3-e2e\", auto_delete=True)\n"
      "    c.close()\n"
      "except Exception as e:\n"
      "    print(\"amqp:\", type(e).__name__, file=sys.stderr)\n"
      "    sys.exit(3)\n"
      "' 2>&1");
  ::unsetenv("C5C3_E2E_AMQP_URL");
  return status == 0;
}

k8s::object topo(std::string_view kind, std::string_view name, std::string_view spec) {
  return obj(fmt::format(R"({{"apiVersion":"rabbitmq.com/v1beta1","kind":"{}",
    "metadata":{{"name":"{}","namespace":"cp","uid":"u-{}","generation":1}},
    "spec":{{"rabbitmqClusterReference":{{"name":"rmq"}},{}}}}})", kind, name, name, spec));
}

k8s::object cluster() {
  return obj(R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"RabbitmqCluster",
    "metadata":{"name":"rmq","namespace":"cp","uid":"u-rmq","generation":1},"spec":{"replicas":1}})");
}

// One reconcile on the real broker; answers the object as written last.
k8s::object reconcile(const k8s::object& subject, broker& b, const k8s::object& import_secret = {},
                      const k8s::object& credentials = {}) {
  topology_snapshot s{subject, cluster(), import_secret, credentials, {}, k8s::clock::now(), system_random()};
  auto plan = reconcile_topology(s);
  auto current = subject;
  for (const auto& w : plan.before_calls) {
    if (w.obj.kind() == subject.kind()) current = w.obj;
  }
  auto settled = run_topology(plan, b, s.now);
  for (const auto& w : settled.writes) {
    if (w.obj.kind() == subject.kind()) current = w.obj;
  }
  return current;
}

k8s::object deleting(const k8s::object& o) {
  auto b = o.edit();
  b.set_string({"metadata", "deletionTimestamp"}, k8s::format_rfc3339(k8s::clock::now()));
  return std::move(b).freeze();
}

void expect_ready(const k8s::object& o) {
  auto c = find_plain_condition(o, "Ready");
  BOOST_TEST_REQUIRE(c.has_value());
  BOOST_TEST_INFO(o.kind() << " " << c->message);
  BOOST_TEST_REQUIRE(c->status == "True");
  BOOST_TEST(c->reason == "SuccessfulCreateOrUpdate");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(world_rabbitmq_e2e)

BOOST_AUTO_TEST_CASE(topology_on_a_real_broker_opens_and_then_refuses_amqp) {
  BOOST_TEST_REQUIRE(::geteuid() == 0u, "the loopback broker needs root (CI runs as root)");
  BOOST_TEST_REQUIRE(std::filesystem::exists("/usr/sbin/rabbitmq-server"),
                     "install rabbitmq-server (tools/install-deps)");
  BOOST_TEST_REQUIRE(std::system("/usr/bin/python3 -c 'import pika' 2>/dev/null") == 0,
                     "install python3-pika (tools/install-deps)");

  loopback_service rmq("C5C3_RABBITMQ_LOOPBACK", "tools/rabbitmq-loopback", "world-rmq");
  const auto amqp_port = rmq.var("RABBITMQ_AMQP_PORT");
  auto http = std::shared_ptr<management_http>(make_blocking_management_http(
      rmq.var("RABBITMQ_MANAGEMENT_URL"), rmq.var("RABBITMQ_ADMIN_USER"), rmq.var("RABBITMQ_ADMIN_PASSWORD")));
  management_broker broker(http);

  // The cluster simulator reports the real broker's administrator and address.
  cluster_snapshot cs{cluster(), {}, real_broker_endpoint{"127.0.0.1", std::stoi(amqp_port),
                                                          rmq.var("RABBITMQ_ADMIN_USER"),
                                                          rmq.var("RABBITMQ_ADMIN_PASSWORD")},
                      k8s::clock::now(), system_random()};
  auto default_user = only(reconcile_rabbitmq_cluster(cs).writes, write_verb::upsert);
  BOOST_TEST(amqp_opens(data_value(default_user, "connection_string")));

  // A vhost, a user importing its password, and its permissions.
  const std::string password = system_random()(32);
  auto import = secret("cp", "e2e-import", {{"username", "e2e-user"}, {"password", password}},
                       {{"rabbitmq.com/topology-operator", "true"}});
  auto vhost = reconcile(topo("Vhost", "e2e-vhost", R"("name":"e2e-vhost")"), broker);
  expect_ready(vhost);
  auto user = reconcile(topo("User", "e2e-user", R"("importCredentialsSecret":{"name":"e2e-import"})"), broker, import);
  expect_ready(user);
  BOOST_TEST(user.get_string({"status", "username"}) == "e2e-user");
  auto perm = reconcile(topo("Permission", "e2e-perm",
                             R"("user":"e2e-user","vhost":"e2e-vhost","permissions":{"configure":".*","write":".*","read":".*"})"),
                        broker);
  expect_ready(perm);
  BOOST_TEST(http->request("GET", "/api/vhosts/e2e-vhost", "").status == 200);

  const auto url = fmt::format("amqp://e2e-user:{}@127.0.0.1:{}/e2e-vhost", password, amqp_port);
  BOOST_TEST_REQUIRE(amqp_opens(url));
  BOOST_TEST(!amqp_opens(fmt::format("amqp://e2e-user:wrong-{}@127.0.0.1:{}/e2e-vhost", password, amqp_port)));

  // Deletion: each object's broker delete, then its finalizer released.
  for (auto* o : {&perm, &user, &vhost}) {
    auto released = reconcile(deleting(*o), broker);
    BOOST_TEST_INFO(o->kind());
    BOOST_TEST(released.finalizers().empty());
  }
  BOOST_TEST(http->request("GET", "/api/vhosts/e2e-vhost", "").status == 404);
  BOOST_TEST(http->request("GET", "/api/users/e2e-user", "").status == 404);
  BOOST_TEST(http->request("GET", "/api/overview", "").status == 200);  // the broker is up: a refusal is a refusal
  BOOST_TEST(!amqp_opens(url));
}

BOOST_AUTO_TEST_SUITE_END()
