// The one translation unit of sim/world that includes Beast (compiled once in
// c5c3_net; never <boost/beast/src.hpp> here). The exchange runs Beast's
// asynchronous operations on a private io_context so that the stream's
// deadline covers connect, write and read alike.
#include "sim/world/blocking_http.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <cctype>
#include <optional>
#include <stdexcept>

namespace c5c3::sim::world {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace asio = boost::asio;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string host_port(const http_endpoint& ep) {
  return ep.host.find(':') != std::string::npos ? "[" + ep.host + "]:" + ep.port : ep.host + ":" + ep.port;
}

// Go's wording for a failed step: `dial tcp H:P: connect: connection refused`.
std::string describe(const http_endpoint& ep, std::string_view step, const beast::error_code& ec) {
  const auto hp = host_port(ep);
  if (ec == beast::error::timeout) return std::string(step == "connect" ? "dial" : step) + " tcp " + hp + ": i/o timeout";
  if (step == "resolve") return "dial tcp: lookup " + ep.host + ": no such host";
  if (step == "connect") return "dial tcp " + hp + ": connect: " + lower(ec.message());
  if (ec == http::error::end_of_stream || ec == asio::error::eof) return "EOF";
  return std::string(step) + " tcp " + hp + ": " + lower(ec.message());
}

}  // namespace

std::string http_endpoint::url() const { return "http://" + host_port(*this) + prefix; }

http_endpoint parse_http_endpoint(std::string_view url) {
  constexpr std::string_view scheme = "http://";
  if (url.substr(0, scheme.size()) != scheme) throw std::invalid_argument("URL must start with http://");
  auto rest = url.substr(scheme.size());
  auto slash = rest.find('/');
  auto hostport = rest.substr(0, slash);
  http_endpoint ep;
  ep.prefix = slash == std::string_view::npos ? "" : std::string(rest.substr(slash));
  while (!ep.prefix.empty() && ep.prefix.back() == '/') ep.prefix.pop_back();
  auto colon = hostport.rfind(':');
  if (hostport.empty() || colon == std::string_view::npos || colon + 1 == hostport.size()) {
    throw std::invalid_argument("URL needs host:port");
  }
  ep.host = std::string(hostport.substr(0, colon));
  if (ep.host.size() > 2 && ep.host.front() == '[' && ep.host.back() == ']') ep.host = ep.host.substr(1, ep.host.size() - 2);
  ep.port = std::string(hostport.substr(colon + 1));
  return ep;
}

std::string http_exchange_reply::header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (k == name) return v;
  }
  return {};
}

http_exchange_reply http_exchange(const http_endpoint& ep, std::string_view method, std::string_view target,
                                  const http_headers& headers, std::string_view body,
                                  std::chrono::milliseconds timeout) {
  http_exchange_reply reply;
  asio::io_context io;
  asio::ip::tcp::resolver resolver(io);
  beast::tcp_stream stream(io);
  http::request<http::string_body> req(http::string_to_verb({method.data(), method.size()}),
                                       ep.prefix + std::string(target), 11);
  req.set(http::field::host, host_port(ep));
  req.set(http::field::accept, "application/json");
  req.set(http::field::user_agent, "c5c3-sim-world");
  for (const auto& [k, v] : headers) req.set(k, v);
  if (!body.empty()) {
    req.set(http::field::content_type, "application/json");
    req.body() = std::string(body);
  }
  req.prepare_payload();
  beast::flat_buffer buf;
  http::response<http::string_body> res;

  auto fail = [&](std::string_view step, const beast::error_code& ec) {
    reply.status = 0;
    reply.transport_error = describe(ep, step, ec);
  };
  beast::error_code ec;
  auto results = resolver.resolve(ep.host, ep.port, ec);
  if (ec) {
    fail("resolve", ec);
    return reply;
  }
  stream.expires_after(timeout);
  stream.async_connect(results, [&](const beast::error_code& e, const auto&) {
    if (e) return fail("connect", e);
    http::async_write(stream, req, [&](const beast::error_code& e2, std::size_t) {
      if (e2) return fail("write", e2);
      http::async_read(stream, buf, res, [&](const beast::error_code& e3, std::size_t) {
        if (e3) return fail("read", e3);
        reply.status = static_cast<int>(res.result_int());
        reply.body = std::move(res.body());
        for (const auto& f : res) reply.headers.emplace_back(lower(std::string(f.name_string())), std::string(f.value()));
      });
    });
  });
  io.run();
  beast::error_code ignored;
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  return reply;
}

}  // namespace c5c3::sim::world
