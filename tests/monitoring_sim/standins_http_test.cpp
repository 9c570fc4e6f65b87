// The stand-ins as servers on loopback, through a real HTTP client: fault
// rules added over /sim/faults (down, slow, 401, 5xx, counted and cleared),
// a stand-in stopped and started again on its port, TLS with the stand-in's
// CA, the request log, and the wiring of c5c3-sim monitoring (a registration
// names the Grafana, whose key then writes a dashboard).
#include "sim/monitoring/grafana.hpp"
#include "sim/monitoring/rancher.hpp"
#include "sim/monitoring/trickster.hpp"
#include "tests/sim/test_http.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3;
using namespace c5c3::sim::monitoring;
using c5c3::sim::test::client_options;
using c5c3::sim::test::http_client;

namespace {

struct running {
  explicit running(std::shared_ptr<standin_core> core, std::string name = "grafana", bool tls = false) {
    standin_options o;
    o.tls = tls;
    server = std::make_unique<standin_server>(std::move(name), std::move(core), o);
    server->start();
  }
  http_client client(const std::string& token = "key") const {
    client_options c;
    c.port = server->port();
    c.tls = server->url().rfind("https", 0) == 0;
    c.ca_pem = server->ca_pem();
    c.token = token;
    return http_client(c);
  }
  std::unique_ptr<standin_server> server;
};

std::shared_ptr<grafana_api> grafana() {
  grafana_options o;
  o.api_keys = {{"key", 1, "Admin"}};
  return std::make_shared<grafana_api>(o);
}

std::string msg(const sim::test::http_result& r) { return std::string(k8s::get_string(r.json(), {"message"})); }

const char* dashboard = R"({"dashboard":{"uid":"nodes","title":"Nodes"},"overwrite":true})";

}  // namespace

BOOST_AUTO_TEST_SUITE(standins_http)

BOOST_AUTO_TEST_CASE(faults_down_slow_401_5xx) {
  running g(grafana());
  auto c = g.client();
  BOOST_TEST(c.post("/api/dashboards/db", dashboard).status == 200);
  auto admin = g.client("");
  auto added = admin.post("/sim/faults", R"([
    {"id": "down", "method": "GET", "path": "/api/org", "reset": true, "times": 1},
    {"id": "slow", "path": "/api/dashboards/uid/", "latency": "300ms", "times": 1},
    {"id": "auth", "path": "/api/datasources", "status": 401},
    {"id": "boom", "method": "POST", "path": "/api/dashboards/db", "status": 503, "times": 2}])");
  BOOST_TEST_REQUIRE(added.status == 201, added.body);
  // down: the connection is reset, once; then the org answers again.
  auto down = c.get("/api/org");
  BOOST_TEST(down.status == 0);
  BOOST_TEST(c.get("/api/org").status == 200);
  // slow: the answer comes, after the latency (the rule fired).
  auto slow = c.get("/api/dashboards/uid/nodes");
  BOOST_TEST(slow.status == 200);
  // 401 with Grafana's body, whatever the credentials.
  auto unauthorized = c.get("/api/datasources");
  BOOST_TEST(unauthorized.status == 401);
  BOOST_TEST(msg(unauthorized) == "Unauthorized");
  // 5xx twice, then the upsert goes through.
  BOOST_TEST(c.post("/api/dashboards/db", dashboard).status == 503);
  auto again = c.post("/api/dashboards/db", dashboard);
  BOOST_TEST(again.status == 503);
  BOOST_TEST(msg(again) == "Service Unavailable");
  BOOST_TEST(c.post("/api/dashboards/db", dashboard).status == 200);
  auto listed = admin.get("/sim/faults").json();
  BOOST_TEST(k8s::get_int(listed, {"fired", "down"}).value_or(0) == 1);
  BOOST_TEST(k8s::get_int(listed, {"fired", "slow"}).value_or(0) == 1);
  BOOST_TEST(k8s::get_int(listed, {"fired", "boom"}).value_or(0) == 2);
  BOOST_TEST(admin.del("/sim/faults").status == 200);
  BOOST_TEST(c.get("/api/datasources").status == 200);
  // The request log: every answered request, the reset one with status 0, no secrets.
  auto log = admin.get("/sim/requests");
  BOOST_TEST(log.body.find("\"status\":0") != std::string::npos);
  BOOST_TEST(log.body.find("\"auth\":\"Bearer\"") != std::string::npos);
  BOOST_TEST(log.body.find("key") == std::string::npos);
  BOOST_TEST(g.server->requests().size() == 9u);
}

BOOST_AUTO_TEST_CASE(a_stand_in_goes_down_and_comes_back_on_its_port) {
  running g(grafana());
  auto c = g.client();
  auto port = g.server->port();
  BOOST_TEST(c.post("/api/dashboards/db", dashboard).status == 200);
  g.server->stop();
  BOOST_TEST(c.get("/api/dashboards/uid/nodes").status == 0);  // connection refused
  g.server->start();
  BOOST_TEST(g.server->port() == port);
  auto back = c.get("/api/dashboards/uid/nodes");
  BOOST_TEST(back.status == 200);  // the state survived
  BOOST_TEST(k8s::get_int(back.json(), {"dashboard", "version"}).value_or(0) == 1);
}

BOOST_AUTO_TEST_CASE(tls_with_the_stand_in_ca) {
  running g(grafana(), "grafana", true);
  BOOST_TEST(g.server->url().rfind("https://127.0.0.1:", 0) == 0u);
  BOOST_TEST(!g.server->ca_pem().empty());
  auto c = g.client();
  BOOST_TEST(c.get("/api/org").status == 200);
  auto wrong_ca = c.options();
  wrong_ca.ca_pem = running(grafana(), "other", true).server->ca_pem();
  BOOST_TEST(http_client(wrong_ca).get("/api/org").status == 0);
}

BOOST_AUTO_TEST_CASE(backend_and_rancher_over_sockets) {
  trickster_options to;
  to.token = "platform";
  running t(std::make_shared<trickster_backend>(to), "trickster");
  auto c = t.client("platform");
  auto body = R"({"clusterUID":"c-1","default":true,"prometheus":{"url":"","service":{"scheme":"http",
    "name":"prometheus","namespace":"monitoring","port":"9090","path":"","query":""}}})";
  BOOST_TEST(c.post("/api/v1/trickster/register", body).status == 200);
  auto unauthorized = t.client("other").post("/api/v1/trickster/register", body);
  BOOST_TEST(unauthorized.status == 401);
  BOOST_TEST(unauthorized.body == "Unauthorized\n");
  t.client("").post("/sim/faults", R"({"path": "/api/v1/trickster/register", "status": 500, "times": 1})");
  auto failed = c.post("/api/v1/trickster/register", body);
  BOOST_TEST(failed.status == 500);
  BOOST_TEST(failed.body == "Internal Server Error\n");
  BOOST_TEST(c.post("/api/v1/trickster/register", body).status == 200);
  auto registrations = t.server->with_core([](standin_core& core) {
    auto& b = static_cast<trickster_backend&>(core);
    return std::make_pair(b.register_calls(), b.registrations().size());
  });
  BOOST_TEST(registrations.first == 2);  // the injected 500 never reached it
  BOOST_TEST(registrations.second == 1u);

  rancher_options ro;
  ro.tokens = {rancher_api::parse_seed("token-xyzab:s:user-1:48h")};
  running r(std::make_shared<rancher_api>(ro), "rancher");
  auto rc = r.client("token-xyzab:s");
  auto root = rc.get("/v3");
  BOOST_TEST(root.status == 200);
  BOOST_TEST(root.headers["x-api-schemas"] == r.server->url() + "/v3/schemas");
  BOOST_TEST(rc.post("/v3/tokens", R"({"description":"d","ttl":1000})").status == 201);
  // The stand-in's clock moves over /sim/clock: the seeded token expires.
  BOOST_TEST(r.client("").post("/sim/clock", R"({"advance":"49h"})").status == 200);
  BOOST_TEST(rc.get("/v3/tokens/token-xyzab").status == 401);
}

BOOST_AUTO_TEST_SUITE_END()
