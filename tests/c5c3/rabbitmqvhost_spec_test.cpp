// The RabbitMQVhost's constants, spec resolution, status fields, child names
// (apis.md 1.3; rabbitmqvhost-reconciler.txt "Child Naming and Placement",
// "Metrics Instrumentation") and the topology builders (apis.md 2).
#include "actors/c5c3/rabbitmqvhost/spec.hpp"
#include "actors/c5c3/rabbitmqvhost/topology.hpp"
#include "tests/c5c3/snapshots.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(rabbitmqvhost_spec)

BOOST_AUTO_TEST_CASE(constants_are_spelled_as_the_documents_spell_them) {
  BOOST_TEST(vhost::finalizer == "c5c3.io/rabbitmqvhost-teardown");
  BOOST_TEST(vhost::label_name == "c5c3.io/rabbitmqvhost-name");
  BOOST_TEST(vhost::label_namespace == "c5c3.io/rabbitmqvhost-namespace");
  BOOST_TEST(vhost::label_cluster == "c5c3.io/rabbitmqvhost-cluster");
  BOOST_TEST(vhost::annotation_push_hash == "c5c3.io/rabbitmqvhost-push-hash");
  BOOST_TEST(vhost::annotation_push_synced_before == "c5c3.io/rabbitmqvhost-push-synced-before");
  const std::vector<std::string_view> keys(vhost::secret_keys.begin(), vhost::secret_keys.end());
  BOOST_TEST(keys == (std::vector<std::string_view>{"transport_url", "host", "port", "username", "password", "vhost"}),
             boost::test_tools::per_element());
  BOOST_TEST(vhost::sub_condition_types[0] == "VhostReady");
  BOOST_TEST(vhost::sub_condition_types[1] == "DeliveryReady");
}

BOOST_AUTO_TEST_CASE(instrumenter_table_pins_the_two_legs) {
  // TestSubReconcilerConditionTypes_RabbitMQVhostLegs.
  BOOST_REQUIRE(vhost::sub_reconcilers.size() == 2u);
  BOOST_TEST(vhost::sub_reconcilers[0].sub_reconciler == "RabbitMQVhostProvision");
  BOOST_TEST(vhost::sub_reconcilers[0].condition_type == "VhostReady");
  BOOST_TEST(vhost::sub_reconcilers[1].sub_reconciler == "RabbitMQVhostDelivery");
  BOOST_TEST(vhost::sub_reconcilers[1].condition_type == "DeliveryReady");
  // The drift guard: every condition type is one of the kind's sub-conditions.
  for (auto& e : vhost::sub_reconcilers)
    BOOST_TEST((std::find(vhost::sub_condition_types.begin(), vhost::sub_condition_types.end(), e.condition_type) !=
                vhost::sub_condition_types.end()));
}

BOOST_AUTO_TEST_CASE(spec_resolution_table) {
  struct row {
    const char* sentence;
    std::string spec;
    std::int64_t generation;
    orders::duration interval, grace;
    std::string policy, topology_policy;
    bool schedule;
  };
  const row rows[] = {
      {"absent fields read as their defaults: generation 1, 720h, 24h, Retain", R"({"controlPlaneRef":{"name":"cp"}})", 1,
       720h, 24h, "Retain", "retain", true},
      {"0 means 1", R"({"controlPlaneRef":{"name":"cp"},"passwordGeneration":0})", 1, 720h, 24h, "Retain", "retain",
       true},
      {"\"\" means Retain", R"({"controlPlaneRef":{"name":"cp"},"deletionPolicy":""})", 1, 720h, 24h, "Retain",
       "retain", true},
      {"0s turns the schedule off",
       R"({"controlPlaneRef":{"name":"cp"},"rotation":{"interval":"0s","gracePeriod":"1h"}})", 1, 0s, 1h, "Retain",
       "retain", false},
      {"declared values are taken, the policy in the topology operator's spelling",
       R"({"controlPlaneRef":{"name":"cp"},"passwordGeneration":3,"rotation":{"interval":"1h30m","gracePeriod":"10m"},"deletionPolicy":"Delete"})",
       3, 90min, 10min, "Delete", "delete", true},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      auto s = vhost::resolve_spec(vhost_order_object("tenant-a", "orders", r.spec));
      BOOST_TEST(s.password_generation == r.generation);
      BOOST_TEST((s.interval == r.interval));
      BOOST_TEST((s.grace_period == r.grace));
      BOOST_TEST(s.deletion_policy == r.policy);
      BOOST_TEST(s.topology_deletion_policy() == r.topology_policy);
      BOOST_TEST(s.schedule_on() == r.schedule);
    }
  }
}

BOOST_AUTO_TEST_CASE(control_plane_ref_resolves_to_the_orders_namespace) {
  auto o = vhost::make_vhost_order(vhost_order_object("tenant-a", "orders", R"({"controlPlaneRef":{"name":"cp"}})"), "");
  BOOST_TEST(o.control_plane_key.to_string() == "tenant-a/cp");
  auto p = vhost::make_vhost_order(vhost_order_object(), "edge-1");
  BOOST_TEST(p.control_plane_key.to_string() == "openstack/cp");
  BOOST_TEST(p.ref.cluster == "edge-1");
  BOOST_TEST(p.owner.uid == "uid-order");
}

BOOST_AUTO_TEST_CASE(child_names_follow_the_naming_table) {
  vhost::vhost_names n(vhost::make_order_ref("orders", "tenant-a", ""));
  BOOST_TEST(n.prefix == "orders-32606a5f-vhost-");
  BOOST_TEST_CONTEXT("the vhost on the broker is the prefix without its -vhost- tail") {
    BOOST_TEST(n.vhost() == "orders-32606a5f");
  }
  BOOST_TEST(n.vhost_child() == "orders-32606a5f-vhost-vhost");
  BOOST_TEST(n.password_secret(2) == "orders-32606a5f-vhost-password-v2");
  BOOST_TEST(n.user(2) == "orders-32606a5f-vhost-user-v2");
  BOOST_TEST(n.permission(2) == "orders-32606a5f-vhost-permission-v2");
  BOOST_TEST(n.broker_user(2) == "orders-32606a5f-v2");
  BOOST_TEST(n.source_secret() == "orders-32606a5f-vhost-source");
  BOOST_TEST(n.push_secret() == "orders-32606a5f-vhost-backup");
  BOOST_TEST(n.credentials_secret() == "orders-credentials");
  BOOST_TEST(n.remote_key("openstack") == "openstack/rabbitmq/openstack/orders-32606a5f-vhost/credentials");
  BOOST_TEST(*vhost::generation_of("orders-32606a5f-vhost-user-v12", n.user_prefix()) == 12);
  BOOST_TEST(!vhost::generation_of("orders-32606a5f-vhost-user-v", n.user_prefix()));
  BOOST_TEST(!vhost::generation_of("orders-32606a5f-vhost-user-v1x", n.user_prefix()));
  BOOST_TEST(!vhost::generation_of("orders-32606a5f-vhost-user-v0", n.user_prefix()));
  BOOST_TEST(!vhost::generation_of("other-user-v1", n.user_prefix()));
}

BOOST_AUTO_TEST_CASE(status_round_trips) {
  vhost::vhost_status s;
  s.observed_generation = 4;
  s.vhost = "orders-32606a5f";
  s.username = "orders-32606a5f-v2";
  s.host = "rmq.example";
  s.port = 5671;
  s.password_generation = 2;
  s.last_rotation = t0();
  s.next_rotation = t0() + 720h;
  s.previous_password_generation = 1;
  s.previous_password_delete_at = t0() + 24h;
  s.secret_name = "orders-credentials";
  s.secret_keys = {"transport_url", "host"};
  auto b = vhost_order_object().edit();
  vhost::write_status(b, s);
  auto o = std::move(b).freeze();
  BOOST_TEST((vhost::read_status(o) == s));
  BOOST_TEST(o.get_string({"status", "lastRotation"}) == "2026-12-01T00:00:00Z");
  auto cleared = o.edit();
  vhost::write_status(cleared, vhost::vhost_status{});
  auto c = std::move(cleared).freeze();
  BOOST_TEST(!c.get({"status", "previousPasswordDeleteAt"}));
  BOOST_TEST(!c.get({"status", "secretKeys"}));
}

BOOST_AUTO_TEST_CASE(topology_builders_use_the_operators_spelling) {
  auto v = vhost::build_vhost("p-vhost", "openstack", "orders-32606a5f", "openstack-rabbitmq", "retain");
  BOOST_TEST(v.api_version() == "rabbitmq.com/v1beta1");
  BOOST_TEST(v.kind() == "Vhost");
  BOOST_TEST(v.get_string({"spec", "name"}) == "orders-32606a5f");
  BOOST_TEST(v.get_string({"spec", "deletionPolicy"}) == "retain");
  BOOST_TEST(v.get_string({"spec", "rabbitmqClusterReference", "name"}) == "openstack-rabbitmq");
  auto u = vhost::build_user("p-user-v1", "openstack", "openstack-rabbitmq", "p-password-v1");
  BOOST_TEST(u.get_string({"spec", "importCredentialsSecret", "name"}) == "p-password-v1");
  BOOST_TEST(!u.get({"spec", "tags"}));
  auto p = vhost::build_permission("p-permission-v1", "openstack", "openstack-rabbitmq", "orders-32606a5f",
                                   "orders-32606a5f-v1");
  BOOST_TEST_CONTEXT("the Permission names the broker user with user:, not userReference") {
    BOOST_TEST(p.get_string({"spec", "user"}) == "orders-32606a5f-v1");
    BOOST_TEST(!p.get({"spec", "userReference"}));
  }
  for (auto verb : {"configure", "write", "read"}) BOOST_TEST(p.get_string({"spec", "permissions", verb}) == ".*");
}

BOOST_AUTO_TEST_CASE(topology_readers_table) {
  auto v = vhost::build_vhost("p-vhost", "openstack", "v", "rmq", "retain");
  struct row {
    const char* sentence;
    object obj;
    bool ready;
    std::string failure;
  };
  const row rows[] = {
      {"Ready at the current generation is ready", topology_ready(v, 3), true, ""},
      {"Ready at an older observed generation is not", topology_not_ready(v, 3), false, ""},
      {"no status is not ready", v, false, ""},
      {"FailedCreateOrUpdate is a failure with the operator's message", topology_failed(v, "broker said no"), false,
       "broker said no"},
      {"a failure without a message reads as the reason", topology_failed(v, ""), false, "FailedCreateOrUpdate"},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      BOOST_TEST(vhost::topology_ready(r.obj) == r.ready);
      BOOST_TEST(vhost::topology_failure(r.obj) == r.failure);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
