// k8s/server/request_parser: the server's request parsing without a socket,
// and the input fuzzing found to hang it (tests/fuzz/http_request/crashes).
#include "k8s/server/request_parser.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3;

BOOST_AUTO_TEST_SUITE(request_parser)

BOOST_AUTO_TEST_CASE(keep_alive_requests_parse_in_order) {
  auto p = k8s::parse_http_requests(
      "GET /api/v1/namespaces/a%2Fb/secrets?watch=1&fieldSelector=metadata.name%3Dx HTTP/1.1\r\nHost: h\r\n\r\n"
      "POST /api/v1/namespaces HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
      "GET /never HTTP/1.1\r\n\r\n");
  BOOST_TEST(p.error == "");
  BOOST_REQUIRE(p.requests.size() == 2u);  // the server closes after `Connection: close`
  BOOST_TEST(p.requests[0].path == "/api/v1/namespaces/a/b/secrets");
  BOOST_TEST(*p.requests[0].param("fieldSelector") == "metadata.name=x");
  BOOST_TEST(p.keep_alive[0]);
  BOOST_TEST(p.requests[1].body == "{}");
  BOOST_TEST(!p.keep_alive[1]);
}

BOOST_AUTO_TEST_CASE(truncated_requests_end_with_an_error) {
  // Found by fuzzing: a body shorter than its Content-Length looped forever.
  auto p = k8s::parse_http_requests("PUT /api/v1/namespaces/ns HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"short");
  BOOST_TEST(p.requests.empty());
  BOOST_TEST(p.error == "partial message");
  p = k8s::parse_http_requests("GET /x HTTP/1.1\r\nHost: h\r\n");
  BOOST_TEST(p.requests.empty());
  BOOST_TEST(!p.error.empty());
  p = k8s::parse_http_requests("NOT HTTP\r\n\r\n");
  BOOST_TEST(!p.error.empty());
}

BOOST_AUTO_TEST_SUITE_END()
