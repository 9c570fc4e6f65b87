// Conversation: an order runner's pass -> a service actor: one HTTP request to
// an API outside Kubernetes (Grafana, the monitoring backend, Rancher), as a
// plan asks for it (order_plan::calls).
//
//   runner -> service actor : service_request -> service_response
//                             (any HTTP status is an answer; a transport
//                             failure is a caf::error of api_errc::transport
//                             whose text names the URL, never a credential)
#pragma once

#include <caf/allowed_unsafe_message_type.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace c5c3::protocol {

struct service_request {
  std::string method = "GET";
  std::string url;  // absolute: https://grafana.example/api/dashboards/db
  std::string body;
  std::string content_type = "application/json";
  std::string authorization;  // the whole Authorization value; never logged
  std::vector<std::pair<std::string, std::string>> headers;
  std::string ca_pem;  // trusted CAs (empty: the system's)
  bool insecure_skip_verify = false;
  std::chrono::milliseconds timeout{30'000};
};

struct service_response {
  int status = 0;
  std::string body;
  std::optional<int> retry_after;  // Retry-After in seconds
};

}  // namespace c5c3::protocol

// Local only: they may carry credentials.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::protocol::service_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(c5c3::protocol::service_response)
