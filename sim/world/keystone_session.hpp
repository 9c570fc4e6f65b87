// What sits between the simulated K-ORC and an identity backend: tokens per
// cloud (issued with the cloud's password or application credential, scoped as
// the cloud says, reused until half their lifetime as K-ORC's scope cache does,
// issued again once after a 401) and the errors K-ORC sees, worded as
// gophercloud words them, since the orders read those words in K-ORC's
// conditions:
//   Expected HTTP response code [201] when accessing [POST http://h/v3/users], but got 409 instead: {...}
//   Post "http://h/v3/auth/tokens": dial tcp 127.0.0.1:5000: connect: connection refused
// No message carries a password or a secret.
#pragma once

#include "k8s/object.hpp"
#include "sim/world/clouds_yaml.hpp"
#include "sim/world/identity.hpp"

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace c5c3::sim::world {

struct identity_error {
  int status = 0;  // HTTP status; 0 when the request did not complete
  std::string message;
  bool transport() const { return status == 0; }
  bool not_found() const { return status == 404; }
  // K-ORC's IsRetryable: an HTTP error answer, except a conflict and 501.
  bool retryable() const { return status != 0 && status != 409 && status != 501; }
};

struct identity_answer {
  int status = 0;
  k8s::object body;  // the parsed JSON answer (empty for 204 or no body)
  std::optional<identity_error> error;
  explicit operator bool() const { return !error; }
};

class keystone_sessions {
 public:
  keystone_sessions(std::shared_ptr<identity_service> service,
                    std::function<k8s::time_point()> clock = [] { return k8s::clock::now(); });

  // A token for `cloud`: the cached one, or a new one (K-ORC's client scope).
  std::optional<identity_error> authenticate(const cloud_config& cloud);
  // Sends `call` with the cloud's token (authenticating first when needed).
  identity_answer run(const cloud_config& cloud, const identity_call& call);
  // The user id of the cloud's current token ("" without one).
  std::string token_user(const cloud_config& cloud) const;
  // Forgets every token (a restarted K-ORC).
  void forget();
  // Requests sent to the backend, tokens included.
  std::size_t requests() const;

 private:
  struct token {
    std::string id;
    std::string user_id;
    k8s::time_point reuse_until;
  };
  std::optional<identity_error> issue(const cloud_config& cloud);
  identity_answer send(const cloud_config& cloud, const identity_call& call, const std::string& token);

  std::shared_ptr<identity_service> service_;
  std::function<k8s::time_point()> clock_;
  mutable std::mutex mu_;
  std::map<std::string, token> tokens_;  // by cloud_config::cache_key()
  std::size_t requests_ = 0;
};

// The token request body for `cloud` (password or application credential).
std::string token_request_body(const cloud_config& cloud);

// gophercloud's text for a reply that is an error (`url` is what was dialled).
identity_error describe_failure(const identity_call& call, const std::string& url, const identity_reply& reply);

// "<auth_url without /v3><path>", the URL K-ORC would have dialled.
std::string call_url(const cloud_config& cloud, std::string_view path);

}  // namespace c5c3::sim::world
