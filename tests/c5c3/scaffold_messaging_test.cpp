// splitBrokerEndpoint (apis.md 1.3: net.SplitHostPort + ParseUint(port, 10,
// 16) != 0), once for the ControlPlane's endpoints and the RabbitMQVhost
// delivery alike. The rows marked "disagreed" are where the two copies this
// one replaces answered differently: controlplane/endpoints.cpp refused an
// empty host and let a stray '[' or ']' through, rabbitmqvhost/delivery.cpp
// did the opposite. Go's answer decides (here it is the latter's).
#include "actors/c5c3/scaffold/messaging.hpp"

#include <boost/test/unit_test.hpp>

namespace orders = c5c3::c5c3;

BOOST_AUTO_TEST_SUITE(scaffold_messaging)

BOOST_AUTO_TEST_CASE(split_broker_endpoint_table) {
  struct row {
    const char* in;
    bool ok;
    const char* host;
    int port;
  };
  const row rows[] = {
      // Both copies agreed.
      {"broker.example.com:5671", true, "broker.example.com", 5671},
      {"10.0.0.1:1", true, "10.0.0.1", 1},
      {"10.0.0.1:65535", true, "10.0.0.1", 65535},
      {"[fd00::1]:5672", true, "fd00::1", 5672},
      {"[broker]:5672", true, "broker", 5672},
      {"broker:05671", true, "broker", 5671},  // ParseUint takes leading zeros
      {"broker.example.com", false, "", 0},
      {"broker.example.com:", false, "", 0},
      {"broker.example.com:0", false, "", 0},
      {"broker.example.com:65536", false, "", 0},
      {"broker.example.com:99999999999", false, "", 0},
      {"broker.example.com:56x", false, "", 0},
      {"broker.example.com:+1", false, "", 0},   // no sign
      {"broker.example.com: 1", false, "", 0},   // no space
      {"broker.example.com:0x10", false, "", 0},
      {"fd00::1:5672", false, "", 0},            // too many colons
      {"a:b:1", false, "", 0},
      {"[fd00::1]", false, "", 0},               // missing port
      {"[fd00::1:5672", false, "", 0},           // missing ']'
      {"[fd00::1]x:5672", false, "", 0},         // ']' not followed by the port's colon
      {"[fd00::1]:5672:1", false, "", 0},        // too many colons after ']'
      // Disagreed: controlplane refused these, rabbitmqvhost accepted them (Go accepts: the host may be empty).
      {":5672", true, "", 5672},
      {"[]:5672", true, "", 5672},
      // Disagreed: controlplane accepted these, rabbitmqvhost refused them (Go: unexpected '[' or ']').
      {"a[b:5672", false, "", 0},
      {"a]b:5672", false, "", 0},
      {"[[fd00::1]]:5672", false, "", 0},
      {"[fd00::1]]:5672", false, "", 0},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.in) {
      auto a = orders::split_broker_endpoint(r.in);
      BOOST_TEST(a.has_value() == r.ok);
      if (a && r.ok) {
        BOOST_TEST(a->host == r.host);
        BOOST_TEST(a->port == r.port);
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
