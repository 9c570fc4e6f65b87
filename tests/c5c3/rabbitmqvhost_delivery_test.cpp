// deliverCredentials, sentence by sentence (rabbitmqvhost-reconciler.txt
// "Credential delivery", steps 1 to 6; apis.md 1.3 and 1.9).
#include "actors/c5c3/rabbitmqvhost/delivery.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"
#include "tests/c5c3/rabbitmqvhost_world.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;
using namespace std::chrono_literals;

namespace {

struct world {
  std::string cluster;
  std::string published;
  std::string status = live_status(1);
  std::optional<object> password_secret = live_password(1);
  std::optional<object> source = source_secret();
  std::optional<object> push = fresh_push();
  std::optional<object> delivered = delivered_secret();
  vhost::vhost_order order;
  vhost::vhost_status st;
  object cp;

  vhost::delivery_plan plan() {
    order = vhost::make_vhost_order(vhost_order_object("tenant-a", "orders",
                                                       R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"}})",
                                                       status),
                                    cluster);
    st = order.status;
    cp = control_plane(published);
    vhost::delivery_snapshot s;
    s.order = &order;
    s.status = &st;
    s.control_plane = &cp;
    s.in_cluster_host = in_cluster_host;
    s.in_cluster_port = 5672;
    s.store = {"SecretStore", "openbao-tenant-store", true};
    s.password_secret = password_secret ? &*password_secret : nullptr;
    s.source_secret = source ? &*source : nullptr;
    s.push_secret = push ? &*push : nullptr;
    s.delivered_secret = delivered ? &*delivered : nullptr;
    return vhost::deliver_credentials(s);
  }
};

void expect(const vhost::delivery_plan& plan, bool status, std::string_view reason) {
  BOOST_TEST(plan.delivery_ready.type == "DeliveryReady");
  BOOST_TEST(plan.delivery_ready.is_true() == status);
  BOOST_TEST(plan.delivery_ready.reason == reason);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rabbitmqvhost_delivery)

BOOST_AUTO_TEST_CASE(transport_url_percent_encodes_as_url_user_password_does) {
  struct row {
    const char* sentence;
    std::string in, out;
  };
  const row rows[] = {
      {"unreserved characters stay", "Az09-._~", "Az09-._~"},
      {"the sub-delimiters userinfo allows stay", "$&+,;=", "$&+,;="},
      {"@ : / ? are escaped", "p@ss:w/rd?", "p%40ss%3Aw%2Frd%3F"},
      {"everything else is escaped in uppercase hex", "a b!*'()%", "a%20b%21%2A%27%28%29%25"},
      {"bytes beyond ASCII are escaped one by one", "\xc3\xa9", "%C3%A9"},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) { BOOST_TEST(vhost::escape_userinfo(r.in) == r.out); }
  }
  auto t = vhost::build_transport_url_for_vhost("u", "p@ss", "rmq.example", 5671, "orders-32606a5f");
  BOOST_TEST(t.url == "rabbit://u:p%40ss@rmq.example:5671/orders-32606a5f");
  BOOST_TEST(t.hash == orders::sha256_hex(t.url));
  BOOST_TEST(vhost::build_transport_url_for_vhost("u", "p", "::1", 5672, "v").url == "rabbit://u:p@[::1]:5672/v");
}

BOOST_AUTO_TEST_CASE(step1_the_broker_address_for_the_orders_cluster) {
  BOOST_TEST_CONTEXT("without a published endpoint an order on a target cluster reads MessagingNotPublished") {
    world w;
    w.cluster = "edge-1";
    auto plan = w.plan();
    expect(plan, false, "MessagingNotPublished");
    BOOST_TEST(plan.delivery_ready.message ==
               "the order lives on target cluster \"edge-1\", which cannot reach the in-cluster RabbitMQ Service "
               "openstack-rabbitmq.openstack.svc; set spec.infrastructure.publishedMessagingEndpoint on ControlPlane "
               "openstack/cp");
    BOOST_TEST(plan.writes.empty());
    BOOST_TEST(!plan.requeue);
  }
  BOOST_TEST_CONTEXT("a published value without a port between 1 and 65535 reads DeliveryError") {
    for (std::string bad : {"rmq.example:70000", "rmq.example:0"}) {
      world w;
      w.cluster = "edge-1";
      w.published = bad;
      auto plan = w.plan();
      expect(plan, false, "DeliveryError");
      BOOST_TEST(plan.delivery_ready.message == "spec.infrastructure.publishedMessagingEndpoint \"" + bad +
                                                    "\" of ControlPlane openstack/cp is not a host and a port between "
                                                    "1 and 65535");
      BOOST_TEST(plan.writes.empty());
    }
  }
  BOOST_TEST_CONTEXT("the management cluster never reads the published endpoint") {
    world w;
    w.published = "rmq.example:70000";
    expect(w.plan(), true, "Delivered");
  }
  BOOST_TEST_CONTEXT("a target cluster is delivered the published host and port") {
    world w;
    w.cluster = "edge-1";
    w.published = "rmq.example:5671";
    w.source.reset();
    w.push.reset();
    w.delivered.reset();
    auto ref = vhost::make_order_ref("orders", "tenant-a", "edge-1");
    vhost::vhost_names n(ref);
    BOOST_TEST(n.vhost() == "orders-4143a833");
    w.password_secret = labelled(
        make_secret("openstack", n.password_secret(1), {{"username", n.broker_user(1)}, {"password", password}}), ref);
    auto plan = w.plan();
    BOOST_REQUIRE(plan.writes.size() == 2u);
    BOOST_TEST(plan.writes[0].describe() == "create Secret openstack/orders-4143a833-vhost-source");
    BOOST_TEST(*orders::secret_value(plan.writes[0].body, "host") == "rmq.example");
    BOOST_TEST(*orders::secret_value(plan.writes[0].body, "port") == "5671");
    BOOST_TEST(*orders::secret_value(plan.writes[0].body, "transport_url") ==
               "rabbit://orders-4143a833-v1:password-of-generation-1@rmq.example:5671/orders-4143a833");
    BOOST_TEST(*plan.writes[0].body.label("c5c3.io/rabbitmqvhost-cluster") == "edge-1");
  }
}

BOOST_AUTO_TEST_CASE(step2_the_password_of_the_live_generation) {
  BOOST_TEST_CONTEXT("no live generation reads WaitingForPassword") {
    world w;
    w.status = "{}";
    auto plan = w.plan();
    expect(plan, false, "WaitingForPassword");
    BOOST_TEST(plan.writes.empty());
  }
  BOOST_TEST_CONTEXT("a missing password Secret reads WaitingForPassword; the Secret's event wakes the order") {
    world w;
    w.password_secret.reset();
    auto plan = w.plan();
    expect(plan, false, "WaitingForPassword");
    BOOST_TEST(plan.delivery_ready.message == "the password of generation 1 is not available yet");
    BOOST_TEST(!plan.requeue);
  }
}

BOOST_AUTO_TEST_CASE(step3_and_4_the_source_secret_and_the_push_secret) {
  world w;
  w.source.reset();
  w.push.reset();
  w.delivered.reset();
  auto plan = w.plan();
  BOOST_TEST(describe(plan.writes) ==
                 (std::vector<std::string>{"create Secret " + std::string("openstack/orders-32606a5f-vhost-source"),
                                           "create PushSecret openstack/orders-32606a5f-vhost-backup"}),
             boost::test_tools::per_element());
  BOOST_TEST_CONTEXT("the source Secret gets the transport URL with the five other keys") {
    const object& source = plan.writes[0].body;
    for (auto& [k, v] : six_keys()) BOOST_TEST(*orders::secret_value(source, k) == v);
    BOOST_TEST(source.label("c5c3.io/rabbitmqvhost-cluster").has_value());
  }
  BOOST_TEST_CONTEXT("the PushSecret pushes the source to the OpenBao path with deletionPolicy Delete (apis.md 1.9)") {
    const object& push = plan.writes[1].body;
    BOOST_TEST(push.api_version() == "external-secrets.io/v1alpha1");
    BOOST_TEST(push.get_string({"spec", "deletionPolicy"}) == "Delete");
    BOOST_TEST(push.get_string({"spec", "selector", "secret", "name"}) == "orders-32606a5f-vhost-source");
    const auto* data = push.get({"spec", "data"});
    BOOST_REQUIRE((data && data->IsArray() && data->Size() == 1));
    BOOST_TEST(k8s::get_string((*data)[0], {"match", "remoteRef", "remoteKey"}) ==
               "openstack/rabbitmq/openstack/orders-32606a5f-vhost/credentials");
    BOOST_TEST(!k8s::find((*data)[0], {"match", "secretKey"}));
    const auto* stores = push.get({"spec", "secretStoreRefs"});
    BOOST_REQUIRE((stores && stores->IsArray() && stores->Size() == 1));
    BOOST_TEST(k8s::get_string((*stores)[0], {"name"}) == "openbao-tenant-store");
    BOOST_TEST(k8s::get_string((*stores)[0], {"kind"}) == "SecretStore");
    BOOST_TEST(*push.annotation("c5c3.io/rabbitmqvhost-push-hash") == orders::sha256_hex(url));
    BOOST_TEST(*push.annotation("c5c3.io/rabbitmqvhost-push-synced-before") == "");
  }
  BOOST_TEST_CONTEXT("the step waits for a push of the current credentials (BackupNotSynced); the PushSecret's "
                     "event wakes the order, so no timed requeue") {
    expect(plan, false, "BackupNotSynced");
    BOOST_TEST(plan.delivery_ready.message ==
               "the credentials are not backed up to OpenBao yet (PushSecret openstack/orders-32606a5f-vhost-backup)");
    BOOST_TEST(!plan.requeue);
  }
}

BOOST_AUTO_TEST_CASE(step4_push_stamping) {
  BOOST_TEST_CONTEXT("a stamped PushSecret ESO has not pushed since reads BackupNotSynced and writes nothing") {
    world w;
    w.push = push_secret(orders::sha256_hex(url), "2-b", "2-b");
    auto plan = w.plan();
    expect(plan, false, "BackupNotSynced");
    BOOST_TEST(plan.writes.empty());
  }
  BOOST_TEST_CONTEXT("a changed transport URL stamps the new hash and records syncedResourceVersion") {
    world w;
    w.password_secret = live_password(1, "rotated-password");
    auto plan = w.plan();
    BOOST_REQUIRE(plan.writes.size() == 2u);
    BOOST_TEST(plan.writes[0].describe() == "update Secret openstack/orders-32606a5f-vhost-source");
    BOOST_TEST(plan.writes[1].describe() == "apply PushSecret openstack/orders-32606a5f-vhost-backup");
    const object& push = plan.writes[1].body;
    auto new_url = "rabbit://orders-32606a5f-v1:rotated-password@openstack-rabbitmq.openstack.svc:5672/orders-32606a5f";
    BOOST_TEST(*push.annotation("c5c3.io/rabbitmqvhost-push-hash") == orders::sha256_hex(new_url));
    BOOST_TEST(*push.annotation("c5c3.io/rabbitmqvhost-push-synced-before") == "2-b");
    expect(plan, false, "BackupNotSynced");
  }
}

BOOST_AUTO_TEST_CASE(step5_the_delivered_secret) {
  BOOST_TEST_CONTEXT("the Secret <name>-credentials is applied beside the order with a controller owner reference") {
    world w;
    w.delivered.reset();
    auto plan = w.plan();
    BOOST_REQUIRE(plan.writes.size() == 1u);
    const auto& write = plan.writes[0];
    BOOST_TEST(write.describe() == "apply Secret tenant-a/orders-credentials");
    BOOST_TEST((write.cluster == orders::write_cluster::order));
    BOOST_TEST_CONTEXT("Server-Side Apply with forced ownership is the repair") { BOOST_TEST(write.force); }
    auto owner = write.body.controller_reference();
    BOOST_REQUIRE(owner.has_value());
    BOOST_TEST(owner->uid == "uid-order");
    BOOST_TEST(owner->kind == "RabbitMQVhost");
    BOOST_TEST(write.body.get_string({"type"}) == "Opaque");
    BOOST_TEST_CONTEXT("it carries the name and namespace labels without the cluster label") {
      BOOST_TEST(*write.body.label("c5c3.io/rabbitmqvhost-name") == "orders");
      BOOST_TEST(*write.body.label("c5c3.io/rabbitmqvhost-namespace") == "tenant-a");
      BOOST_TEST(!write.body.label("c5c3.io/rabbitmqvhost-cluster"));
    }
    for (auto& [k, v] : six_keys()) BOOST_TEST(*orders::secret_value(write.body, k) == v);
    BOOST_TEST_CONTEXT("until the applied Secret carries the current password DeliveryReady waits") {
      expect(plan, false, "WaitingForPassword");
    }
  }
  BOOST_TEST_CONTEXT("a live Secret of that name the order does not own is refused (DeliveryRefused)") {
    for (auto foreign : {make_secret("tenant-a", "orders-credentials", {{"x", "y"}}),
                         delivered_secret(six_keys(), "uid-other")}) {
      world w;
      w.delivered = foreign;
      auto plan = w.plan();
      expect(plan, false, "DeliveryRefused");
      BOOST_TEST(plan.delivery_ready.message ==
                 "Secret tenant-a/orders-credentials exists and is not owned by this order; delete it or rename the "
                 "order");
      BOOST_TEST(plan.writes.empty());
      BOOST_TEST(!plan.requeue);
    }
  }
  BOOST_TEST_CONTEXT("an edited key is rewritten") {
    world w;
    auto edited = six_keys();
    edited["password"] = "tampered";
    w.delivered = delivered_secret(edited);
    auto plan = w.plan();
    BOOST_REQUIRE(plan.writes.size() == 1u);
    BOOST_TEST(plan.writes[0].describe() == "apply Secret tenant-a/orders-credentials");
  }
  BOOST_TEST_CONTEXT("a key somebody else added stays and is no drift") {
    world w;
    auto extra = six_keys();
    extra["theirs"] = "kept";
    w.delivered = delivered_secret(extra);
    expect(w.plan(), true, "Delivered");
  }
}

BOOST_AUTO_TEST_CASE(step6_delivered) {
  world w;
  auto plan = w.plan();
  BOOST_TEST(plan.writes.empty());
  expect(plan, true, "Delivered");
  BOOST_TEST(plan.delivery_ready.message ==
             "credentials are delivered in Secret \"orders-credentials\" (keys transport_url, host, port, username, "
             "password, vhost) in namespace \"tenant-a\" on the management cluster");
  BOOST_TEST(plan.status.host == in_cluster_host);
  BOOST_TEST(plan.status.port == 5672);
  BOOST_TEST(plan.status.secret_name == "orders-credentials");
  BOOST_TEST(plan.status.secret_keys ==
                 (std::vector<std::string>{"transport_url", "host", "port", "username", "password", "vhost"}),
             boost::test_tools::per_element());
  BOOST_TEST(!plan.requeue);
  BOOST_TEST_CONTEXT("no condition quotes the password") {
    BOOST_TEST(plan.delivery_ready.message.find(password) == std::string::npos);
  }
}

BOOST_AUTO_TEST_SUITE_END()
