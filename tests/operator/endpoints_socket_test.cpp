// The endpoints over loopback sockets: port 0 binds a free port, the bound
// port is logged and reported, answers follow readiness and the registry.
#include "actors/operator/endpoints.hpp"
#include "actors/runtime/metrics.hpp"
#include "tests/operator/child_process.hpp"

#include <boost/test/unit_test.hpp>

#include <mutex>

using namespace c5c3;
using namespace c5c3::operator_;

BOOST_AUTO_TEST_SUITE(operator_endpoints)

BOOST_AUTO_TEST_CASE(both_servers_on_free_loopback_ports) {
  auto o = config::parse_operator_options(
      {"--metrics-bind-address=127.0.0.1:0", "--health-probe-bind-address", "127.0.0.1:0"},
      [](const std::string&) { return std::nullopt; });
  BOOST_REQUIRE(o.ok());
  runtime::metrics::registry reg;
  auto& g = reg.gauge("c5c3_test_value", "A test value.").get();
  g.set(3);
  auto ready = std::make_shared<readiness>();
  std::vector<std::string> lines;
  std::mutex mu;
  k8s::log::logger log({k8s::log::level::info, 0,
                        [&](std::string_view l) {
                          std::lock_guard<std::mutex> lock(mu);
                          lines.emplace_back(l);
                        },
                        {}});
  endpoints e(o.value(), [&reg] { return reg.render(); }, ready, log);
  e.start();
  BOOST_REQUIRE(e.metrics_port() && e.health_port());
  BOOST_TEST(*e.metrics_port() != 0);
  BOOST_TEST(*e.health_port() != 0);
  BOOST_TEST(*e.metrics_port() != *e.health_port());
  {
    std::lock_guard<std::mutex> lock(mu);
    BOOST_REQUIRE_EQUAL(lines.size(), 2u);
    BOOST_TEST(lines[0].find("\"bindAddress\":\"127.0.0.1:" + std::to_string(*e.metrics_port()) + "\"") !=
               std::string::npos, lines[0]);
    BOOST_TEST(lines[1].find("\"bindAddress\":\"127.0.0.1:" + std::to_string(*e.health_port()) + "\"") !=
               std::string::npos, lines[1]);
  }

  BOOST_TEST(test::http_get(*e.health_port(), "/livez").status == 200);
  BOOST_TEST(test::http_get(*e.health_port(), "/readyz").status == 500);
  ready->set_ready(true);
  BOOST_TEST(test::http_get(*e.health_port(), "/readyz").status == 200);

  auto m = test::http_get(*e.metrics_port(), "/metrics");
  BOOST_TEST(m.status == 200);
  BOOST_TEST(m.body.find("c5c3_test_value 3\n") != std::string::npos, m.body);
  g.set(4);
  BOOST_TEST(test::http_get(*e.metrics_port(), "/metrics").body.find("c5c3_test_value 4\n") != std::string::npos);

  int port = *e.health_port();
  e.stop();
  BOOST_TEST(!e.metrics_port().has_value());
  // Stopped: nobody listens there any more.
  BOOST_CHECK_THROW(test::http_get(port, "/livez"), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
