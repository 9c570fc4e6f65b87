// The identity service the simulated K-ORC talks to, as Keystone's v3 API: a
// request (method, path and query, JSON body, X-Auth-Token) and its reply
// (status, JSON body, X-Subject-Token). Two backends answer it behind this one
// interface: memory_identity (an in-memory Keystone: the embedded default and
// the fast tests) and http_identity (a real Keystone over HTTP). Everything
// above it (tokens, K-ORC's calls, the messages K-ORC writes) is shared.
#pragma once

#include <string>
#include <string_view>

namespace c5c3::sim::world {

struct identity_request {
  std::string method;  // GET, HEAD, POST, PUT, PATCH, DELETE
  std::string path;    // "/v3/users?name=a%20b" from Keystone's root, query percent-encoded
  std::string body;    // JSON; empty for none
  std::string token;   // X-Auth-Token; empty for POST /v3/auth/tokens
};

struct identity_reply {
  int status = 0;               // 0 when the request did not complete
  std::string body;             // JSON (Keystone's error body on 4xx/5xx)
  std::string subject_token;    // X-Subject-Token of POST /v3/auth/tokens
  std::string transport_error;  // when status is 0, in Go's wording (dial tcp ...)
};

class identity_service {
 public:
  virtual ~identity_service() = default;
  // Answers `r`. A backend stands for the one Keystone the world knows: every
  // cloud's auth_url reaches it (the simulated cluster's DNS).
  virtual identity_reply send(const identity_request& r) = 0;
};

// One call the simulated K-ORC asks for (pure data; the session runs it).
struct identity_call {
  std::string method;
  std::string path;  // as identity_request::path
  std::string body;  // may carry a password or a secret: never log it
  friend bool operator==(const identity_call&, const identity_call&) = default;
};

// "%"-encodes a path segment or query value (RFC 3986 unreserved kept).
std::string percent_encode(std::string_view s);
std::string percent_decode(std::string_view s);

}  // namespace c5c3::sim::world
