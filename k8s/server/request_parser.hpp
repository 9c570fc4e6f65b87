// The emulator's HTTP/1.1 request parsing without a socket: the bytes a
// client sent on one connection, parsed as the server does (Beast's request
// parser, the server's body limit) into http_requests. For tests and the
// fuzz target of the request parser; the server reads the same way.
#pragma once

#include "k8s/server/http_server.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace c5c3::k8s {

struct parsed_requests {
  std::vector<http_request> requests;  // every complete request, in order
  std::vector<bool> keep_alive;        // per request: whether the connection may be reused
  std::string error;                   // why parsing stopped early; "" when all bytes were requests
};

parsed_requests parse_http_requests(std::string_view bytes);

}  // namespace c5c3::k8s
