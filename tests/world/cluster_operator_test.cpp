#include "sim/world/cluster_operator.hpp"

#include "fixtures.hpp"

using namespace c5c3::sim::world;
using namespace c5c3::sim::world::test;
namespace k8s = c5c3::k8s;

namespace {

k8s::object cluster() {
  return obj(R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"RabbitmqCluster",
    "metadata":{"name":"rmq","namespace":"cp","uid":"u-1","generation":3},"spec":{"replicas":1}})");
}

cluster_snapshot snapshot() { return {cluster(), {}, std::nullopt, t0(), counting_random()}; }

}  // namespace

BOOST_AUTO_TEST_SUITE(rabbitmq_cluster_operator)

BOOST_AUTO_TEST_CASE(status_reports_default_user_and_ready_replicas) {
  auto plan = reconcile_rabbitmq_cluster(snapshot());
  auto st = only(plan.writes, write_verb::update_status);
  BOOST_TEST(st.get_string({"status", "defaultUser", "secretReference", "name"}) == "rmq-default-user");
  BOOST_TEST(st.get_string({"status", "defaultUser", "secretReference", "namespace"}) == "cp");
  BOOST_TEST(st.get_string({"status", "defaultUser", "secretReference", "keys", "username"}) == "username");
  BOOST_TEST(st.get_string({"status", "defaultUser", "secretReference", "keys", "password"}) == "password");
  BOOST_TEST(st.get_string({"status", "defaultUser", "serviceReference", "name"}) == "rmq");
  BOOST_TEST(st.get_string({"status", "defaultUser", "serviceReference", "namespace"}) == "cp");
  BOOST_TEST((k8s::get_int(st.json(), {"status", "observedGeneration"}) == 3));
  for (auto type : {"AllReplicasReady", "ClusterAvailable", "ReconcileSuccess"}) {
    auto c = find_plain_condition(st, type);
    BOOST_TEST_REQUIRE(c.has_value());
    BOOST_TEST(c->status == "True");
  }
}

BOOST_AUTO_TEST_CASE(default_user_secret_carries_every_key) {
  auto plan = reconcile_rabbitmq_cluster(snapshot());
  BOOST_TEST_REQUIRE(plan.writes.size() == 2u);
  BOOST_TEST(plan.writes[0].verb == write_verb::upsert);  // the Secret before the status naming it
  auto s = plan.writes[0].obj;
  BOOST_TEST(s.name() == "rmq-default-user");
  BOOST_TEST(s.namespace_() == "cp");
  BOOST_TEST(s.get_string({"type"}) == "Opaque");
  BOOST_TEST(s.controller_reference().has_value());
  const auto user = data_value(s, "username");
  const auto pass = data_value(s, "password");
  BOOST_TEST(!user.empty());
  BOOST_TEST(pass.size() >= 16u);
  BOOST_TEST(data_value(s, "provider") == "rabbitmq");
  BOOST_TEST(data_value(s, "type") == "rabbitmq");
  BOOST_TEST(data_value(s, "host") == "rmq.cp.svc");
  BOOST_TEST(data_value(s, "port") == "5672");
  BOOST_TEST(data_value(s, "connection_string") == "amqp://" + user + ":" + pass + "@rmq.cp.svc:5672/");
  BOOST_TEST(data_value(s, "default_user.conf") == "default_user = " + user + "\ndefault_pass = " + pass + "\n");
}

BOOST_AUTO_TEST_CASE(converged_cluster_writes_nothing_and_keeps_its_password) {
  auto first = reconcile_rabbitmq_cluster(snapshot());
  auto s = snapshot();
  s.cluster = only(first.writes, write_verb::update_status);
  s.default_user = only(first.writes, write_verb::upsert);
  s.random = [](std::size_t) -> std::string { throw std::logic_error("no new password expected"); };
  auto again = reconcile_rabbitmq_cluster(s);
  BOOST_TEST(again.writes.empty());
}

BOOST_AUTO_TEST_CASE(real_broker_reports_its_credentials_and_loopback_address) {
  auto s = snapshot();
  s.real_broker = real_broker_endpoint{"127.0.0.1", 40123, "guest", "guest-pass"};
  auto plan = reconcile_rabbitmq_cluster(s);
  auto secret = only(plan.writes, write_verb::upsert);
  BOOST_TEST(data_value(secret, "username") == "guest");
  BOOST_TEST(data_value(secret, "password") == "guest-pass");
  BOOST_TEST(data_value(secret, "host") == "127.0.0.1");
  BOOST_TEST(data_value(secret, "port") == "40123");
  BOOST_TEST(data_value(secret, "connection_string") == "amqp://guest:guest-pass@127.0.0.1:40123/");
}

BOOST_AUTO_TEST_CASE(deleting_cluster_is_left_alone) {
  auto s = snapshot();
  auto b = s.cluster.edit();
  b.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
  s.cluster = std::move(b).freeze();
  BOOST_TEST(reconcile_rabbitmq_cluster(s).writes.empty());
}

BOOST_AUTO_TEST_SUITE_END()
