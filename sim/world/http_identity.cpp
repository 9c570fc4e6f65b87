#include "sim/world/http_identity.hpp"

namespace c5c3::sim::world {

http_identity::http_identity(std::string_view url, std::chrono::milliseconds timeout)
    : ep_(parse_http_endpoint(url)), timeout_(timeout) {
  if (ep_.prefix.size() >= 3 && ep_.prefix.compare(ep_.prefix.size() - 3, 3, "/v3") == 0)
    ep_.prefix.resize(ep_.prefix.size() - 3);
}

identity_reply http_identity::send(const identity_request& r) {
  ++requests_;
  http_headers headers;
  if (!r.token.empty()) headers.emplace_back("x-auth-token", r.token);
  auto reply = http_exchange(ep_, r.method, r.path, headers, r.body, timeout_);
  return {reply.status, std::move(reply.body), reply.header("x-subject-token"), std::move(reply.transport_error)};
}

}  // namespace c5c3::sim::world
