// The emulator's double-writer count (sim/apiserver/double_writers.cpp) over
// HTTP: writes for an order's status or children by a replica (User-Agent
// c5c3-operator/<replica>) count exactly when the order's c5c3.io/shard label
// names another replica or none; other clients' writes never count. The same
// for a monitoring controller's order and the writes on it of its own
// controller (sim/apiserver/held_object_writes.hpp).
#include "sim/apiserver/apiserver.hpp"
#include "tests/sim/fixture.hpp"

#include "k8s/json.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <string>

using namespace c5c3;
using namespace c5c3::sim::test;

namespace {

std::string source_dir() {
  const char* d = std::getenv("C5C3_SOURCE_DIR");
  return d ? d : ".";
}

const std::string orders = "/apis/c5c3.io/v1alpha1/namespaces/tenant-a/rabbitmqvhosts";

struct fixture {
  fixture() : fx([] {
      sim::apiserver_options o;
      o.plain_http = true;
      o.crd_dirs = {source_dir() + "/deploy/crds"};
      return o;
    }()) {
    auto admin = fx.client();
    BOOST_REQUIRE_EQUAL(admin.post("/api/v1/namespaces", R"({"metadata":{"name":"tenant-a"}})").status, 201);
    BOOST_REQUIRE_EQUAL(
        admin.post(orders, R"({"apiVersion":"c5c3.io/v1alpha1","kind":"RabbitMQVhost","metadata":{"name":"app",)"
                           R"("labels":{"c5c3.io/shard":"replica-a"}},)"
                           R"("spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"}}})")
            .status,
        201);
  }
  http_client replica(const std::string& name) const {
    auto o = fx.client_opts();
    o.user_agent = "c5c3-operator/" + name;
    return http_client(o);
  }
  std::size_t count() const { return fx.server->double_writes().size(); }
  // A child Secret of the order (its three labels), written by `c`.
  int write_child(const http_client& c, const std::string& name) const {
    return c.post("/api/v1/namespaces/tenant-a/secrets",
                  R"({"metadata":{"name":")" + name +
                      R"(","labels":{"c5c3.io/rabbitmqvhost-name":"app","c5c3.io/rabbitmqvhost-namespace":"tenant-a",)"
                      R"("c5c3.io/rabbitmqvhost-cluster":""}}})")
        .status;
  }
  int write_status(const http_client& c) const {
    return c.patch(orders + "/app/status", R"({"status":{"phase":"x"}})", "application/merge-patch+json").status;
  }
  server_fixture fx;
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(double_writers, fixture)

BOOST_AUTO_TEST_CASE(the_holder_writes_freely_others_are_counted) {
  auto a = replica("replica-a");
  auto b = replica("replica-b");
  BOOST_TEST(write_child(a, "by-holder") == 201);
  BOOST_TEST(write_status(a) == 200);
  BOOST_TEST(count() == 0u);
  // Another replica writes a child and the status: two double writes.
  BOOST_TEST(write_child(b, "by-other") == 201);
  BOOST_TEST(write_status(b) == 200);
  auto dw = fx.server->double_writes();
  BOOST_REQUIRE_EQUAL(dw.size(), 2u);
  BOOST_TEST(dw[0].replica == "replica-b");
  BOOST_TEST(dw[0].holder == "replica-a");
  BOOST_TEST(dw[0].resource == "secrets");
  BOOST_TEST(dw[0].order == "rabbitmqvhosts.c5c3.io tenant-a/app");
  BOOST_TEST(dw[1].resource == "rabbitmqvhosts/status");
  // The admin route says the same, and clears.
  auto admin = fx.client();
  auto got = admin.get("/sim/doublewriters").json();
  BOOST_TEST(k8s::find(got, {"count"})->GetUint64() == 2u);
  BOOST_TEST(admin.del("/sim/doublewriters").status == 200);
  BOOST_TEST(count() == 0u);
}

BOOST_AUTO_TEST_CASE(an_unclaimed_order_is_nobodys_and_other_clients_do_not_count) {
  auto admin = fx.client();
  // Released: the label removed (a merge patch of the order's metadata, not counted).
  BOOST_TEST(admin.patch(orders + "/app", R"({"metadata":{"labels":{"c5c3.io/shard":null}}})",
                         "application/merge-patch+json")
                 .status == 200);
  BOOST_TEST(write_child(replica("replica-a"), "after-release") == 201);
  BOOST_TEST(count() == 1u);
  BOOST_TEST(fx.server->double_writes()[0].holder == "");
  // The admin, the world and an unsharded operator ("c5c3-operator") are not replicas.
  BOOST_TEST(write_child(admin, "by-admin") == 201);
  auto o = fx.client_opts();
  o.user_agent = "c5c3-operator";
  BOOST_TEST(write_child(http_client(o), "by-unsharded") == 201);
  BOOST_TEST(count() == 1u);
}

// A monitoring controller's order (a GrafanaDashboard of the grafana ring):
// what its own controller writes on it (status, finalizers, labels) counts
// when another replica writes it; a claim, a release and a spec change (the
// client org's copies) do not.
BOOST_AUTO_TEST_CASE(a_monitoring_order_written_by_another_replica) {
  const std::string dashboards = "/apis/openviz.dev/v1alpha1/namespaces/tenant-a/grafanadashboards";
  auto admin = fx.client();
  BOOST_REQUIRE_EQUAL(admin.post(dashboards, R"({"apiVersion":"openviz.dev/v1alpha1","kind":"GrafanaDashboard",)"
                                             R"("metadata":{"name":"d","labels":{"c5c3.io/shard":"replica-a"}},)"
                                             R"("spec":{"model":{"title":"t"}}})")
                          .status,
                      201);
  auto a = replica("replica-a");
  auto b = replica("replica-b");
  auto merge = [&](const http_client& c, const std::string& path, const std::string& body) {
    return c.patch(dashboards + path, body, "application/merge-patch+json").status;
  };
  BOOST_TEST(merge(a, "/d/status", R"({"status":{"phase":"Current"}})") == 200);
  BOOST_TEST(merge(a, "/d", R"({"metadata":{"finalizers":["openviz.dev/grafana"]}})") == 200);
  BOOST_TEST(count() == 0u);
  BOOST_TEST(merge(b, "/d", R"({"spec":{"model":{"title":"copied"}}})") == 200);
  BOOST_TEST(count() == 0u);
  BOOST_TEST(merge(b, "/d/status", R"({"status":{"phase":"Failed"}})") == 200);
  BOOST_TEST(merge(b, "/d", R"({"metadata":{"labels":{"team":"x"}}})") == 200);
  auto dw = fx.server->double_writes();
  BOOST_REQUIRE_EQUAL(dw.size(), 2u);
  BOOST_TEST(dw[0].resource == "grafanadashboards/status");
  BOOST_TEST(dw[0].holder == "replica-a");
  BOOST_TEST(dw[0].order == "grafanadashboards.openviz.dev tenant-a/d");
  BOOST_TEST(dw[1].resource == "grafanadashboards");
  // A release by the holder, then a claim by the other: neither counts; the
  // former holder's status write after its release does (nobody's order).
  BOOST_TEST(merge(a, "/d", R"({"metadata":{"labels":{"c5c3.io/shard":null}}})") == 200);
  BOOST_TEST(count() == 2u);
  BOOST_TEST(merge(a, "/d/status", R"({"status":{"phase":"Current"}})") == 200);
  BOOST_REQUIRE_EQUAL(count(), 3u);
  BOOST_TEST(fx.server->double_writes()[2].holder == "");
  BOOST_TEST(merge(b, "/d", R"({"metadata":{"labels":{"c5c3.io/shard":"replica-b"}}})") == 200);
  BOOST_TEST(merge(b, "/d/status", R"({"status":{"phase":"Current"}})") == 200);
  BOOST_TEST(count() == 3u);
}

BOOST_AUTO_TEST_SUITE_END()
