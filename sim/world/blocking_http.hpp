// One blocking plain-HTTP exchange, for the stand-ins that talk to a real
// server on loopback (the RabbitMQ management API, Keystone): a connection per
// request, request and response headers, a timeout over the whole exchange.
// Beast stays in blocking_http.cpp. A failed exchange is described the way Go's
// net/http does (`dial tcp 127.0.0.1:5000: connect: connection refused`,
// `i/o timeout`, `connection reset by peer`), since the K-ORC messages the
// orders read quote exactly that text.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace c5c3::sim::world {

// http://host:port[/prefix], split.
struct http_endpoint {
  std::string host;    // without brackets for IPv6
  std::string port;
  std::string prefix;  // "" or "/path" without a trailing slash
  std::string url() const;  // http://host:port/prefix
};

// Throws std::invalid_argument naming what is wrong with `url`.
http_endpoint parse_http_endpoint(std::string_view url);

using http_headers = std::vector<std::pair<std::string, std::string>>;

struct http_exchange_reply {
  int status = 0;  // 0 when the exchange did not complete
  std::string body;
  http_headers headers;         // response headers, names lowercased
  std::string transport_error;  // why it did not complete (Go's wording)
  // The response header `name` (lowercase), "" when absent.
  std::string header(std::string_view name) const;
};

// `target` is the path and query below the endpoint's prefix.
http_exchange_reply http_exchange(const http_endpoint& ep, std::string_view method, std::string_view target,
                                  const http_headers& headers, std::string_view body,
                                  std::chrono::milliseconds timeout);

}  // namespace c5c3::sim::world
