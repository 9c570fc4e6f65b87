// The HTTP part of the real broker: one blocking request to the RabbitMQ
// management API with basic authentication. Behind an interface so the
// project's HTTP client can take its place; make_blocking_management_http runs
// it over blocking_http.hpp (plain HTTP, one connection per request).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

namespace c5c3::sim::world {

struct management_reply {
  int status = 0;               // 0 when the request did not complete
  std::string body;
  std::string transport_error;  // why it did not complete
};

class management_http {
 public:
  virtual ~management_http() = default;
  // `path` starts with "/api/"; `body` is JSON (empty: none).
  virtual management_reply request(std::string_view method, std::string_view path,
                                   std::string_view body) = 0;
};

// `url` is http://host:port[/prefix]. Throws std::invalid_argument on a URL it
// cannot use.
std::unique_ptr<management_http> make_blocking_management_http(
    std::string_view url, std::string username, std::string password,
    std::chrono::milliseconds timeout = std::chrono::seconds(10));

}  // namespace c5c3::sim::world
