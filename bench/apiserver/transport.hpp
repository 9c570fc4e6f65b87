// Opening keep-alive connections for the load generator, plain or TLS, with
// one function per stream type so the sessions are written once.
#pragma once

#include "bench/apiserver/load.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <functional>
#include <string>

namespace c5c3::bench {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

using plain_stream = beast::tcp_stream;
using tls_stream = beast::ssl_stream<beast::tcp_stream>;

// A client TLS context trusting only the endpoint's CA, verifying the peer.
inline ssl::context make_tls_context(const endpoint& ep) {
  ssl::context ctx(ssl::context::tls_client);
  ctx.add_certificate_authority(net::buffer(ep.ca_pem.data(), ep.ca_pem.size()));
  ctx.set_verify_mode(ssl::verify_peer);
  return ctx;
}

inline tcp::endpoint tcp_endpoint(const endpoint& ep) {
  return {net::ip::make_address(ep.host), ep.port};
}

using open_handler = std::function<void(beast::error_code)>;

inline void async_open(plain_stream& s, const endpoint& ep, open_handler done) {
  s.async_connect(tcp_endpoint(ep), [&s, done = std::move(done)](beast::error_code ec) {
    if (!ec) s.socket().set_option(tcp::no_delay(true));
    done(ec);
  });
}

inline void async_open(tls_stream& s, const endpoint& ep, open_handler done) {
  auto& low = beast::get_lowest_layer(s);
  s.set_verify_callback(ssl::host_name_verification(ep.host));
  low.async_connect(tcp_endpoint(ep), [&s, &low, done = std::move(done)](beast::error_code ec) {
    if (ec) return done(ec);
    low.socket().set_option(tcp::no_delay(true));
    s.async_handshake(ssl::stream_base::client, [done](beast::error_code hec) { done(hec); });
  });
}

inline void close_stream(plain_stream& s) {
  beast::error_code ec;
  s.socket().shutdown(tcp::socket::shutdown_both, ec);
  s.socket().close(ec);
}

inline void close_stream(tls_stream& s) {
  beast::error_code ec;
  auto& sock = beast::get_lowest_layer(s).socket();
  sock.shutdown(tcp::socket::shutdown_both, ec);
  sock.close(ec);
}

// The request as Beast sends it: keep-alive, bearer token, JSON accepted.
inline http::request<http::string_body> make_http_request(const endpoint& ep, const request& r) {
  http::request<http::string_body> req{http::string_to_verb(r.method), r.target, 11};
  req.set(http::field::host, ep.host + ":" + std::to_string(ep.port));
  req.set(http::field::user_agent, "bench_apiserver");
  req.set(http::field::accept, "application/json");
  req.set(http::field::authorization, "Bearer " + ep.token);
  if (!r.content_type.empty()) req.set(http::field::content_type, r.content_type);
  req.body() = r.body;
  req.keep_alive(true);
  req.prepare_payload();
  return req;
}

}  // namespace c5c3::bench
