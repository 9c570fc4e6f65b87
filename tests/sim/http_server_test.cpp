// k8s/server: request parsing helpers, plain answers, chunked streams, reset
// connections, stopping while a stream is open, and chunked request bodies
// (their framing checked before Beast parses them).
#include "k8s/server/http_server.hpp"
#include "tests/sim/test_http.hpp"

#include <boost/test/unit_test.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

using namespace c5c3;
using namespace c5c3::sim::test;

namespace {

// Sends `parts` one send() each on a fresh connection to 127.0.0.1:`port`,
// then reads until the server closes it (at most 10 s): what it answered.
std::string raw_exchange(std::uint16_t port, const std::vector<std::string>& parts) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return "<no connection>";
  timeval tv{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  for (const auto& p : parts) {
    (void)::send(fd, p.data(), p.size(), MSG_NOSIGNAL);
    std::this_thread::yield();
  }
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(http_server)

// A chunked body, its chunks in separate sends, reaches the handler whole; a
// chunk line ended by a bare LF (the input that tripped Beast's assertion,
// tests/fuzz/http_request/crashes) closes the connection unanswered, and
// the server goes on serving.
BOOST_AUTO_TEST_CASE(chunked_bodies_are_read_and_bare_lf_chunk_lines_refused) {
  std::atomic<int> handled{0};
  k8s::http_server s("127.0.0.1:0", std::nullopt, [&](const k8s::http_request& req, k8s::http_responder& res) {
    ++handled;
    res.send({200, {{"Content-Type", "text/plain"}}, "got " + req.body});
  });
  s.start();
  const std::string head =
      "PATCH /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n";
  auto ok = raw_exchange(s.port(), {head, "4\r\n{\"a", "\"\r\n3\r\n:1}\r", "\n0\r\n", "\r\n"});
  BOOST_TEST(ok.starts_with("HTTP/1.1 200"), ok);
  BOOST_TEST(ok.ends_with("got {\"a\":1}"), ok);
  BOOST_TEST(handled == 1);
  BOOST_TEST(raw_exchange(s.port(), {head + "0\n\r\n"}) == "");
  BOOST_TEST(raw_exchange(s.port(), {head, "4\r\n{\"a\"\n0\r\n\r\n"}) == "");
  BOOST_TEST(handled == 1);
  BOOST_TEST(raw_exchange(s.port(), {head + "0\r\n\r\n"}).starts_with("HTTP/1.1 200"));
  BOOST_TEST(handled == 2);
  s.stop();
}

BOOST_AUTO_TEST_CASE(url_decoding_and_query_parameters) {
  BOOST_TEST(k8s::url_decode("a%2Fb%3d") == "a/b=");
  BOOST_TEST(k8s::url_decode("a+b", true) == "a b");
  BOOST_TEST(k8s::url_decode("a+b") == "a+b");
  BOOST_TEST(k8s::url_decode("bad%2") == "bad%2");
  BOOST_TEST(k8s::url_encode("a b/c") == "a%20b%2Fc");
  k8s::http_request r;
  r.query = "watch=1&labelSelector=a%3Db%2Cc&empty&x=";
  BOOST_TEST(r.param("watch").value() == "1");
  BOOST_TEST(r.param("labelSelector").value() == "a=b,c");
  BOOST_TEST(r.param("empty").value() == "");
  BOOST_TEST(r.param("x").value() == "");
  BOOST_TEST(!r.param("nope"));
  r.headers = {{"Content-Type", "application/json"}};
  BOOST_TEST(r.header("content-type") == "application/json");
  BOOST_TEST(r.header("accept") == "");
}

BOOST_AUTO_TEST_CASE(answers_streams_and_resets) {
  std::atomic<bool> streaming{false};
  k8s::http_server s("127.0.0.1:0", std::nullopt, [&](const k8s::http_request& req, k8s::http_responder& res) {
    if (req.path == "/hello") {
      res.send({200, {{"Content-Type", "text/plain"}}, "hi " + req.param("who").value_or("") + " " + req.body});
    } else if (req.path == "/stream") {
      res.start_stream(200, {{"Content-Type", "application/json"}});
      for (int i = 0; i < 3; ++i) res.write("{\"n\":" + std::to_string(i) + "}\n");
      res.end_stream();
    } else if (req.path == "/forever") {
      res.start_stream(200, {{"Content-Type", "application/json"}});
      res.write("{}\n");
      streaming = true;
      while (!res.stopping() && res.peer_alive()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    } else if (req.path == "/reset") {
      res.reset_connection();
    } else {
      throw std::runtime_error("boom");
    }
  });
  s.start();
  BOOST_TEST(s.port() != 0);
  client_options o;
  o.port = s.port();
  o.tls = false;
  http_client c(o);
  auto r = c.request("POST", "/hello?who=you", "body", "text/plain");
  BOOST_TEST(r.status == 200);
  BOOST_TEST(r.body == "hi you body");
  BOOST_TEST(c.get("/other").status == 500);

  std::vector<std::string> lines;
  auto sr = c.stream("/stream", [&](const std::string& l) {
    lines.push_back(l);
    return true;
  });
  BOOST_TEST(sr.status == 200);
  BOOST_TEST(sr.ended);
  BOOST_TEST(lines.size() == 3u);

  auto reset = c.get("/reset");
  BOOST_TEST(reset.status == 0);
  BOOST_TEST(!reset.error.empty());

  std::thread t([&] { c.stream("/forever", [](const std::string&) { return true; }, std::chrono::seconds(30)); });
  BOOST_TEST(eventually([&] { return streaming.load(); }));
  s.stop();  // must not hang on the open stream
  t.join();
}

BOOST_AUTO_TEST_CASE(refuses_bad_listen_addresses) {
  auto handler = [](const k8s::http_request&, k8s::http_responder& r) { r.send({}); };
  k8s::http_server a("nonsense", std::nullopt, handler);
  BOOST_CHECK_THROW(a.start(), std::runtime_error);
  k8s::http_server b("127.0.0.1:99999", std::nullopt, handler);
  BOOST_CHECK_THROW(b.start(), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
