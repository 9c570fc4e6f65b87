// HTTP/1.1 to one API server: a keep-alive connection pool, TLS (OpenSSL,
// verifying the peer and its host name or IP SAN by default, SNI) or plain
// HTTP as the URL says, per-request timeouts, and streamed responses for
// watches. Beast stays behind this header (pimpl); completions run on the
// io_context's threads.
#pragma once

#include "k8s/client/result.hpp"
#include "k8s/client/url.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace boost::asio {
class io_context;
}

namespace c5c3::k8s {

struct tls_options {
  std::string ca_pem;                // trusted CAs; empty: the system's default paths
  bool insecure_skip_verify = false; // never verify the server (kubeconfig insecure-skip-tls-verify)
  std::string server_name;           // name to verify and send as SNI; empty: the URL's host
  std::string client_cert_pem;       // client certificate chain (mutual TLS), optional
  std::string client_key_pem;
};

struct rest_request {
  std::string method = "GET";
  std::string target;  // path and query, without the server's path prefix
  std::string body;
  std::string content_type;  // for bodies
  std::string accept = "application/json";
  std::string bearer_token;  // sent as Authorization, never logged
  // A whole Authorization value ("Basic ..."), sent when bearer_token is
  // empty; never logged. Extra headers (X-Grafana-Org-Id, ...).
  std::string authorization;
  std::vector<std::pair<std::string, std::string>> headers;
  // Whole exchange; streams: until the headers. 0: the client's request_timeout.
  std::chrono::milliseconds timeout{0};
  // The caller's deadline (client::send): no attempt starts after it, and an
  // attempt in flight is cut at it (retry.hpp, deadline_exceeded). The
  // transport itself ignores it.
  std::optional<std::chrono::steady_clock::time_point> deadline{};
  // What the request is about, for errors only ("ConfigMap default/cm1"); not sent.
  std::string object{};
  // Never waits for the pool's bound (http_transport::create): a Lease's
  // renewal must not queue behind a burst of other requests.
  bool unbounded = false;
};

struct rest_response {
  int status = 0;
  std::string body;
  std::string content_type;
  std::optional<int> retry_after;  // Retry-After in seconds
};

struct transport_error {
  std::string message;
  bool nothing_sent = false;      // failed while connecting: the server saw nothing
  bool stale_connection = false;  // a reused keep-alive connection was closed by the peer
};

using rest_result = result<rest_response, transport_error>;
using rest_handler = std::function<void(rest_result)>;

// Callbacks of a streamed response (a watch). on_end runs exactly once: with
// the response of a non-200 answer (body read whole), with status 200 and no
// body when the stream ended cleanly, or with a transport error (also after
// cancel()).
struct stream_callbacks {
  std::function<void()> on_open;                  // 200 headers arrived
  std::function<void(std::string_view)> on_data;  // body bytes, in order
  std::function<void(rest_result)> on_end;
};

class http_stream {
 public:
  virtual ~http_stream() = default;
  // Closes the stream; on_end follows (no on_data after it returns on the io thread).
  virtual void cancel() = 0;
};

class http_transport {
 public:
  // Fails with a message when the TLS material cannot be loaded. At most
  // `max_exchanges` requests on connections at once (0: no bound); the others
  // wait in order, each at most its timeout (then it fails, nothing sent),
  // and start with what the wait left of it.
  static result<std::shared_ptr<http_transport>, std::string> create(
      boost::asio::io_context& io, server_url url, tls_options tls, std::size_t max_idle = 16,
      std::size_t max_exchanges = 0);
  ~http_transport();
  http_transport(const http_transport&) = delete;
  http_transport& operator=(const http_transport&) = delete;

  const server_url& url() const;
  // Sends `req` on an idle connection or a new one (or queues it, above).
  void send(rest_request req, rest_handler done);
  // Opens a streamed response on a connection of its own.
  std::shared_ptr<http_stream> open_stream(rest_request req, stream_callbacks cb);
  // Replaces the client certificate for new connections (exec plugins that
  // hand out certificates); the idle ones are dropped.
  std::optional<std::string> set_client_certificate(std::string cert_pem, std::string key_pem);
  // Drops idle connections (the active ones finish their exchange).
  void close_idle();
  // Requests waiting for their turn under the bound.
  std::size_t waiting() const;

  struct impl;

 private:
  explicit http_transport(std::shared_ptr<impl> p);
  std::shared_ptr<impl> impl_;
};

}  // namespace c5c3::k8s
