#include "actors/c5c3/controlplane/endpoints.hpp"

#include "actors/c5c3/scaffold/crypto.hpp"

#include <boost/test/unit_test.hpp>

#include <fmt/format.h>

namespace cp = c5c3::c5c3::controlplane;
using c5c3::k8s::object;

namespace {

object parse(const std::string& text) {
  std::string err;
  auto o = object::parse(text, &err);
  BOOST_REQUIRE_MESSAGE(o, err);
  return *o;
}

object control_plane(const std::string& spec) {
  return parse(R"({"apiVersion":"c5c3.io/v1alpha1","kind":"ControlPlane","metadata":{"name":"cp","namespace":"cp-ns"},"spec":)" +
               spec + "}");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(controlplane_endpoints)

BOOST_AUTO_TEST_CASE(region_defaults_to_region_one) {
  BOOST_TEST(cp::region_of(control_plane("{}")) == "RegionOne");
  BOOST_TEST(cp::region_of(control_plane(R"({"region":"Frankfurt"})")) == "Frankfurt");
}

BOOST_AUTO_TEST_CASE(keystone_auth_url_per_cluster_and_mode) {
  auto managed = control_plane(R"({"services":{"keystone":{"publicEndpoint":"https://id.example.com/v3"}}})");
  auto m = cp::keystone_endpoint_for(managed, "");
  BOOST_TEST(m.auth_url == "http://cp-keystone.cp-ns.svc:5000/v3");
  BOOST_TEST(m.endpoint_type == "internal");
  auto t = cp::keystone_endpoint_for(managed, "edge-1");
  BOOST_TEST(t.auth_url == "https://id.example.com/v3");
  BOOST_TEST(t.endpoint_type == "internal");

  auto gateway = control_plane(R"({"services":{"keystone":{"gateway":{"hostname":"id.gw.example.com"}}}})");
  BOOST_TEST(cp::keystone_endpoint_for(gateway, "edge-1").auth_url == "https://id.gw.example.com/v3");
  BOOST_TEST(cp::keystone_endpoint_for(control_plane("{}"), "edge-1").auth_url.empty());

  auto external = control_plane(R"({"services":{"keystone":{"external":{"authURL":"https://ext.example.com/v3"}}}})");
  for (const char* cluster : {"", "edge-1"}) {
    auto e = cp::keystone_endpoint_for(external, cluster);
    BOOST_TEST(e.auth_url == "https://ext.example.com/v3");
    BOOST_TEST(e.endpoint_type == "public");
  }
  auto external_internal = control_plane(
      R"({"services":{"keystone":{"external":{"authURL":"https://ext.example.com/v3","endpointType":"internal"}}}})");
  BOOST_TEST(cp::keystone_endpoint_for(external_internal, "").endpoint_type == "internal");
}

BOOST_AUTO_TEST_CASE(published_endpoint_for_target_clusters) {
  c5c3::protocol::control_plane_endpoints out;
  cp::published_messaging_endpoint(
      control_plane(R"({"infrastructure":{"publishedMessagingEndpoint":"broker.example.com:5671"}})"), "edge-1", out);
  BOOST_TEST(out.messaging_host == "broker.example.com");
  BOOST_TEST(out.messaging_port == 5671);
  BOOST_TEST(out.messaging_problem.empty());

  c5c3::protocol::control_plane_endpoints unpublished;
  cp::published_messaging_endpoint(
      control_plane(R"({"infrastructure":{"messaging":{"clusterRef":{"name":"rmq"}}}})"), "edge-1", unpublished);
  BOOST_TEST(unpublished.messaging_host.empty());
  BOOST_TEST(unpublished.messaging_problem ==
             "the order lives on target cluster \"edge-1\", which cannot reach the in-cluster RabbitMQ Service "
             "cp-ns/rmq; set spec.infrastructure.publishedMessagingEndpoint on ControlPlane cp-ns/cp");

  c5c3::protocol::control_plane_endpoints invalid;
  cp::published_messaging_endpoint(
      control_plane(R"({"infrastructure":{"publishedMessagingEndpoint":"broker.example.com:70000"}})"), "edge-1",
      invalid);
  BOOST_TEST(invalid.messaging_host.empty());
  BOOST_TEST(invalid.messaging_problem ==
             "spec.infrastructure.publishedMessagingEndpoint \"broker.example.com:70000\" of ControlPlane cp-ns/cp "
             "is not a host and a port between 1 and 65535");
}

BOOST_AUTO_TEST_CASE(in_cluster_endpoint_from_the_default_user_secret) {
  auto cpo = control_plane(R"({"infrastructure":{"messaging":{"clusterRef":{"name":"rmq"}}}})");
  auto rmq = parse(
      R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"RabbitmqCluster","metadata":{"name":"rmq","namespace":"cp-ns"},)"
      R"("status":{"defaultUser":{"secretReference":{"name":"rmq-default-user"}},)"
      R"("conditions":[{"type":"AllReplicasReady","status":"True"}]}})");
  auto b64 = [](const char* s) { return c5c3::c5c3::base64_encode(s); };
  auto secret = parse(fmt::format(
      R"({{"apiVersion":"v1","kind":"Secret","metadata":{{"name":"rmq-default-user","namespace":"cp-ns"}},)"
      R"("data":{{"username":"{}","password":"{}","host":"{}","port":"{}","connection_string":"{}"}}}})",
      b64("guest"), b64("s3cr3t-pw"), b64("rmq.cp-ns.svc"), b64("5672"),
      b64("amqp://guest:s3cr3t-pw@rmq.cp-ns.svc:5672/")));
  c5c3::protocol::control_plane_endpoints out;
  cp::in_cluster_messaging_endpoint(cpo, &rmq, &secret, out);
  BOOST_TEST(out.messaging_problem.empty());
  BOOST_TEST(out.messaging_host == "rmq.cp-ns.svc");
  BOOST_TEST(out.messaging_port == 5672);

  c5c3::protocol::control_plane_endpoints missing;
  cp::in_cluster_messaging_endpoint(cpo, &rmq, nullptr, missing);
  BOOST_TEST(missing.messaging_host.empty());
  BOOST_TEST(missing.messaging_problem == "default-user Secret cp-ns/rmq-default-user not found");

  c5c3::protocol::control_plane_endpoints no_cluster;
  cp::in_cluster_messaging_endpoint(cpo, nullptr, nullptr, no_cluster);
  BOOST_TEST(no_cluster.messaging_problem == "RabbitmqCluster cp-ns/rmq not found");
}

BOOST_AUTO_TEST_SUITE_END()
