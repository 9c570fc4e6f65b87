// A minimal blocking HTTP(S) client for the emulator's tests: one request per
// connection, or a streamed (chunked) response read line by line.
#pragma once

#include "k8s/json.hpp"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::sim::test {

struct http_result {
  int status = 0;  // 0: transport error (see error)
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  std::string error;
  k8s::json_document json() const;
};

struct client_options {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;
  bool tls = true;
  std::string ca_pem;
  std::string token;       // Bearer token; empty: none
  std::string cert_pem;    // client certificate
  std::string key_pem;
  std::string user_agent = "c5c3-sim-test/1.0";
};

class http_client {
 public:
  explicit http_client(client_options o) : o_(std::move(o)) {}
  http_result request(const std::string& method, const std::string& target, const std::string& body = {},
                      const std::string& content_type = "application/json",
                      const std::map<std::string, std::string>& headers = {}) const;
  http_result get(const std::string& t) const { return request("GET", t); }
  http_result post(const std::string& t, const std::string& b) const { return request("POST", t, b); }
  http_result put(const std::string& t, const std::string& b) const { return request("PUT", t, b); }
  http_result del(const std::string& t, const std::string& b = {}) const { return request("DELETE", t, b); }
  http_result patch(const std::string& t, const std::string& b, const std::string& ct) const {
    return request("PATCH", t, b, ct);
  }

  // Streams GET `target`: calls `on_line` for every complete line until it
  // returns false, the stream ends, or `timeout` passes. Returns the status
  // and whether the server ended the stream (`ended`).
  struct stream_result {
    int status = 0;
    bool ended = false;      // the server finished or closed the response
    bool timed_out = false;
    std::string error;
  };
  stream_result stream(const std::string& target, const std::function<bool(const std::string&)>& on_line,
                       std::chrono::milliseconds timeout = std::chrono::seconds(20),
                       const std::map<std::string, std::string>& headers = {}) const;

  const client_options& options() const { return o_; }

 private:
  client_options o_;
};

// Polls `pred` until it holds or `timeout` passes.
bool eventually(const std::function<bool()>& pred, std::chrono::milliseconds timeout = std::chrono::seconds(10));

}  // namespace c5c3::sim::test
