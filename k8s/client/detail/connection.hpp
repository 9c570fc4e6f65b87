// One HTTP/1.1 connection (plain or TLS) as the pool sees it, without Beast.
// Private to k8s/client.
#pragma once

#include "k8s/client/http.hpp"

#include <functional>
#include <memory>
#include <string>

namespace c5c3::k8s::detail {

class connection : public http_stream {
 public:
  // done(result, keep_alive): keep_alive says the connection may be reused.
  using request_handler = std::function<void(rest_result, bool keep_alive)>;
  virtual void request(std::shared_ptr<const rest_request> req, request_handler done) = 0;
  virtual void stream(std::shared_ptr<const rest_request> req, stream_callbacks cb) = 0;
  // Whether an idle connection is still open at the peer (no data, no EOF waiting).
  virtual bool alive() = 0;
  bool reused = false;
};

// Opaque TLS context (an asio::ssl::context) shared by the TLS connections.
struct tls_context;
result<std::shared_ptr<tls_context>, std::string> make_tls_context(const tls_options& o);

std::shared_ptr<connection> make_plain_connection(boost::asio::io_context& io, const server_url& url);
std::shared_ptr<connection> make_tls_connection(boost::asio::io_context& io,
                                                std::shared_ptr<tls_context> ctx,
                                                const server_url& url, std::string server_name);

}  // namespace c5c3::k8s::detail
