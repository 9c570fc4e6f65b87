// k8s/server/request_parser: the server's request parsing without a socket,
// and the inputs fuzzing found to hang it or to trip Beast
// (tests/fuzz/http_request/crashes); chunk_framing, the check of a chunked
// body before Beast parses it.
#include "k8s/server/chunk_framing.hpp"
#include "k8s/server/request_parser.hpp"

#include <fstream>
#include <iterator>

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

// A chunked body, fed whole and one byte at a time: "" when its framing is
// sound (and done() when it is complete), else the error.
struct framing_case {
  const char* body;
  bool done;
  const char* error;
};

BOOST_AUTO_TEST_CASE(chunk_framing_takes_only_crlf_lines) {
  const framing_case cases[] = {
      {"0\r\n\r\n", true, ""},
      {"4\r\n{\"a\"\r\n0\r\n\r\n", true, ""},
      {"4;ext=1\r\n{\"a\"\r\nA\r\n0123456789\r\n0\r\nX-Trailer: v\r\n\r\n", true, ""},
      {"2\r\n\r\n\r\n0\r\n\r\n", true, ""},  // a chunk whose data is CRLF
      {"4\r\n{\"a", false, ""},                      // to be continued
      {"0\n\r\n", false, "bad chunked body: a chunk-size line ended by a bare LF"},
      {"4\n{\"a\"\r\n0\r\n\r\n", false, "bad chunked body: a chunk-size line ended by a bare LF"},
      {"4\r\n{\"a\"\n0\r\n\r\n", false, "bad chunked body: a chunk's data not ended by CRLF"},
      {"0\r\nX: v\n\r\n", false, "bad chunked body: a trailer line ended by a bare LF"},
      {"0\r\n\n", false, "bad chunked body: a trailer line ended by a bare LF"},
      {"0\r\r\n\r\n", false, "bad chunked body: a CR without LF in a chunk-size line"},
      {"\r\n", false, "bad chunked body: a chunk-size line without a size"},
      {"11111111111111111\r\n", false, "bad chunked body: a chunk size over 16 hex digits"},
  };
  for (const auto& c : cases) {
    BOOST_TEST_CONTEXT(c.body) {
      k8s::chunk_framing whole, bytewise;
      BOOST_TEST(whole.feed(c.body) == (std::string(c.error).empty()));
      BOOST_TEST(whole.done() == c.done);
      BOOST_TEST(whole.error() == c.error);
      for (const char* p = c.body; *p; ++p) bytewise.feed(std::string_view(p, 1));
      BOOST_TEST(bytewise.done() == c.done);
      BOOST_TEST(bytewise.error() == c.error);
    }
  }
  // Bytes past the body's end are the next request's: not looked at.
  k8s::chunk_framing f;
  BOOST_TEST(f.feed("0\r\n\r\nGET /next\n"));
  BOOST_TEST(f.done());
}

// Found by fuzzing: a last chunk line ended by a bare LF tripped Beast's
// assertion in parse_chunk_header (and leaked with assertions off). It is
// refused before Beast reads the body; a sound chunked request still parses.
BOOST_AUTO_TEST_CASE(a_chunk_line_ended_by_a_bare_lf_is_refused) {
  std::ifstream in(std::string(std::getenv("C5C3_SOURCE_DIR") ? std::getenv("C5C3_SOURCE_DIR") : ".") +
                   "/tests/fuzz/http_request/crashes/beast_assert_last_chunk_bare_lf");
  const std::string found{std::istreambuf_iterator<char>(in), {}};
  BOOST_TEST_REQUIRE(found.find("chunked") != std::string::npos);
  auto p = k8s::parse_http_requests(found);
  BOOST_TEST(p.requests.empty());
  BOOST_TEST(p.error == "bad chunked body: a chunk-size line ended by a bare LF");
  p = k8s::parse_http_requests(
      "PATCH /api/v1/namespaces/ns/secrets/x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
      "4\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\nGET /next HTTP/1.1\r\n\r\n");
  BOOST_TEST(p.error == "");
  BOOST_REQUIRE(p.requests.size() == 2u);
  BOOST_TEST(p.requests[0].body == "{\"a\":1}");
  BOOST_TEST(p.requests[1].path == "/next");
}

BOOST_AUTO_TEST_SUITE_END()
