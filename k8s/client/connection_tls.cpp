// TLS connections: OpenSSL through asio::ssl, the peer verified against the
// configured CAs and its host name or IP SAN, SNI for host names.
#include "k8s/client/detail/basic_connection.hpp"

#include <boost/asio/ssl.hpp>
#include <boost/beast/ssl.hpp>

#include <openssl/err.h>

namespace c5c3::k8s::detail {

namespace ssl = boost::asio::ssl;

struct tls_context {
  explicit tls_context(ssl::context::method m) : ctx(m) {}
  ssl::context ctx;
  bool verify = true;
};

result<std::shared_ptr<tls_context>, std::string> make_tls_context(const tls_options& o) {
  auto t = std::make_shared<tls_context>(ssl::context::tls_client);
  boost::system::error_code ec;
  t->ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                         ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1,
                     ec);
  t->verify = !o.insecure_skip_verify;
  if (t->verify) {
    if (!o.ca_pem.empty()) {
      t->ctx.add_certificate_authority(net::buffer(o.ca_pem), ec);
      if (ec) return std::string("cannot load the certificate authority: ") + ec.message();
    } else {
      t->ctx.set_default_verify_paths(ec);
      if (ec) return std::string("cannot load the system's certificate authorities: ") + ec.message();
    }
    t->ctx.set_verify_mode(ssl::verify_peer, ec);
  } else {
    t->ctx.set_verify_mode(ssl::verify_none, ec);
  }
  if (!o.client_cert_pem.empty() || !o.client_key_pem.empty()) {
    if (o.client_cert_pem.empty() || o.client_key_pem.empty())
      return std::string("a client certificate needs both the certificate and its key");
    t->ctx.use_certificate_chain(net::buffer(o.client_cert_pem), ec);
    if (ec) return std::string("cannot load the client certificate: ") + ec.message();
    t->ctx.use_private_key(net::buffer(o.client_key_pem), ssl::context::pem, ec);
    if (ec) return std::string("cannot load the client key: ") + ec.message();
  }
  return t;
}

namespace {

class tls_connection : public basic_connection<tls_connection> {
 public:
  tls_connection(net::io_context& io, std::shared_ptr<tls_context> ctx, server_url url, std::string name)
      : basic_connection(io, std::move(url)), ctx_(std::move(ctx)), stream_(strand_, ctx_->ctx),
        name_(std::move(name)) {}

  beast::ssl_stream<beast::tcp_stream>& beast_stream() { return stream_; }

  template <class Handler>
  void handshake(Handler&& h) {
    server_url probe;
    probe.host = name_;
    if (!probe.host_is_ip() && !SSL_set_tlsext_host_name(stream_.native_handle(), name_.c_str())) {
      return h(beast::error_code(static_cast<int>(::ERR_get_error()), net::error::get_ssl_category()));
    }
    if (ctx_->verify) stream_.set_verify_callback(ssl::host_name_verification(name_));
    stream_.async_handshake(ssl::stream_base::client, std::forward<Handler>(h));
  }

 private:
  std::shared_ptr<tls_context> ctx_;  // outlives the stream
  beast::ssl_stream<beast::tcp_stream> stream_;
  std::string name_;
};

}  // namespace

std::shared_ptr<connection> make_tls_connection(net::io_context& io, std::shared_ptr<tls_context> ctx,
                                                const server_url& url, std::string server_name) {
  if (server_name.empty()) server_name = url.host;
  return std::make_shared<tls_connection>(io, std::move(ctx), url, std::move(server_name));
}

}  // namespace c5c3::k8s::detail
