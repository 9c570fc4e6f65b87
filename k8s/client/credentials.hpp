// How requests authenticate: a bearer token (static, from a file re-read when
// it rotates, or from an exec plugin) and/or a client certificate. config/
// implements the kubeconfig and in-cluster providers; the client only asks.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace c5c3::k8s {

struct client_certificate {
  std::string cert_pem;
  std::string key_pem;
  friend bool operator==(const client_certificate&, const client_certificate&) = default;
};

class credential_provider {
 public:
  virtual ~credential_provider() = default;
  // The bearer token to send now ("" for none); nullopt with `error` when it
  // cannot be had (the message never carries the token). Called on an io
  // thread; implementations cache.
  virtual std::optional<std::string> bearer_token(std::string* error) = 0;
  // A client certificate supplied by the provider (exec plugins), if any.
  virtual std::optional<client_certificate> certificate(std::string* /*error*/) { return std::nullopt; }
  // The server answered 401 with what the provider gave: drop caches so the
  // next call fetches anew. Returns whether a retry may help.
  virtual bool invalidate() { return false; }
};

class static_token : public credential_provider {
 public:
  explicit static_token(std::string token) : token_(std::move(token)) {}
  std::optional<std::string> bearer_token(std::string*) override { return token_; }

 private:
  std::string token_;
};

}  // namespace c5c3::k8s
