// A small HTTP/1.1 server (plain or TLS, keep-alive, chunked streaming
// responses) for the API server emulator and the operator's /metrics. Beast
// stays inside http_server.cpp: this header does not include it.
//
// Each connection is served on its own thread with blocking I/O; a handler may
// block (watch streams do) and answers through its `http_responder`.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace c5c3::k8s {

using http_headers = std::vector<std::pair<std::string, std::string>>;

// The verified client certificate of a TLS connection.
struct peer_certificate {
  std::string common_name;                // CN
  std::vector<std::string> organizations;  // every O
};

struct http_request {
  std::string method;  // GET, POST, ...
  std::string target;  // path and query as sent
  std::string path;    // percent-decoded path
  std::string query;   // raw query (after '?')
  http_headers headers;
  std::string body;
  std::string remote_address;
  std::optional<peer_certificate> peer;

  // First header of that name (case-insensitive), or "".
  std::string_view header(std::string_view name) const;
  // Query parameter (percent-decoded), nullopt when absent.
  std::optional<std::string> param(std::string_view name) const;
};

struct http_response {
  int status = 200;
  http_headers headers;  // Content-Type etc.
  std::string body;
};

// How a handler answers: exactly one of send(), start_stream() or
// reset_connection().
class http_responder {
 public:
  virtual ~http_responder() = default;
  virtual void send(http_response res) = 0;
  // Sends the headers of a chunked response; then write() each piece.
  virtual bool start_stream(int status, const http_headers& headers) = 0;
  // False once the client has gone or the server is stopping.
  virtual bool write(std::string_view chunk) = 0;
  // Ends a chunked response (the connection may be reused).
  virtual void end_stream() = 0;
  // Whether the peer is still connected (non-blocking check).
  virtual bool peer_alive() = 0;
  // Closes the connection with a TCP RST, no answer.
  virtual void reset_connection() = 0;
  virtual bool stopping() const = 0;
};

using http_handler = std::function<void(const http_request&, http_responder&)>;

struct tls_config {
  std::string cert_pem;        // serving certificate (chain)
  std::string key_pem;
  std::string client_ca_pem;   // when set, client certificates are requested and verified
};

class http_server {
 public:
  // `listen` is "host:port" (port 0 picks one); TLS when `tls` is given.
  http_server(std::string listen, std::optional<tls_config> tls, http_handler handler);
  ~http_server();  // stop()
  http_server(const http_server&) = delete;
  http_server& operator=(const http_server&) = delete;

  // Binds and starts accepting; throws std::runtime_error when it cannot bind.
  void start();
  // Stops accepting, shuts every connection down and joins their threads.
  void stop();
  std::uint16_t port() const;
  std::string host() const;
  // Connections accepted since start (each is served by a thread of its own).
  std::uint64_t connections_accepted() const;

  class impl;

 private:
  std::unique_ptr<impl> impl_;
};

// Percent-decoding of a URL component ('+' stays '+' in paths, is ' ' in queries).
std::string url_decode(std::string_view s, bool plus_is_space = false);
std::string url_encode(std::string_view s);

}  // namespace c5c3::k8s
