// A real Keystone as the identity backend: each request goes over HTTP to the
// Keystone at `url` (http://host:port, with or without /v3), X-Auth-Token in,
// X-Subject-Token out. Every cloud's auth_url reaches this one Keystone (the
// simulated cluster's DNS), so documents naming the in-cluster Service work
// unchanged. Plain HTTP: a Keystone on loopback, as tools/keystone-loopback runs it.
#pragma once

#include "sim/world/blocking_http.hpp"
#include "sim/world/identity.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>

namespace c5c3::sim::world {

class http_identity final : public identity_service {
 public:
  // Throws std::invalid_argument on a URL it cannot use.
  explicit http_identity(std::string_view url, std::chrono::milliseconds timeout = std::chrono::seconds(10));
  identity_reply send(const identity_request& r) override;
  // http://host:port (the root, /v3 stripped).
  std::string url() const { return ep_.url(); }
  std::size_t requests() const { return requests_; }

 private:
  http_endpoint ep_;
  std::chrono::milliseconds timeout_;
  std::atomic<std::size_t> requests_{0};
};

}  // namespace c5c3::sim::world
