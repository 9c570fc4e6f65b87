// The Beast code shared by the plain and the TLS connection. Included only by
// connection_plain.cpp and connection_tls.cpp, each instantiating it once.
#pragma once

#include "k8s/client/detail/connection.hpp"
#include "k8s/client/retry.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <limits>
#include <optional>

namespace c5c3::k8s::detail {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = net::ip::tcp;

// The largest answer body read; a larger one is refused (from its
// Content-Length when it says so, before any of it is buffered).
inline constexpr std::uint64_t max_response_body = 512ull << 20;

// Derived provides: beast_stream() (the Beast stream), handshake(handler) and
// a constructor building the stream on `strand_`.
template <class Derived>
class basic_connection : public connection, public std::enable_shared_from_this<Derived> {
 public:
  basic_connection(net::io_context& io, server_url url)
      : strand_(net::make_strand(io)), resolver_(strand_), url_(std::move(url)) {}

  void request(std::shared_ptr<const rest_request> req, request_handler done) override {
    net::post(strand_, [self = this->shared_from_this(), req = std::move(req), done = std::move(done)]() mutable {
      self->start(std::move(req), [self, done = std::move(done)](std::optional<transport_error> err) mutable {
        if (err) return done(std::move(*err), false);
        self->write_then_read(std::move(done));
      });
    });
  }

  void stream(std::shared_ptr<const rest_request> req, stream_callbacks cb) override {
    net::post(strand_, [self = this->shared_from_this(), req = std::move(req), cb = std::move(cb)]() mutable {
      self->cb_ = std::move(cb);
      self->start(std::move(req), [self](std::optional<transport_error> err) {
        if (err) return self->end_stream(std::move(*err));
        self->write_then_stream();
      });
    });
  }

  // Idle in the pool, no operation in flight: is the peer still there?
  bool alive() override {
    auto& s = lowest().socket();
    if (!s.is_open() || !connected_) return false;
    char c;
    ssize_t n = ::recv(s.native_handle(), &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }

  void cancel() override {
    net::post(strand_, [self = this->shared_from_this()] {
      self->cancelled_ = true;
      self->resolver_.cancel();
      beast::error_code ec;
      beast::get_lowest_layer(self->derived().beast_stream()).socket().close(ec);
    });
  }

 protected:
  Derived& derived() { return static_cast<Derived&>(*this); }
  auto& lowest() { return beast::get_lowest_layer(derived().beast_stream()); }

  static bool is_peer_close(const beast::error_code& ec) {
    return ec == http::error::end_of_stream || ec == net::error::eof ||
           ec == net::error::connection_reset || ec == net::error::broken_pipe ||
           ec == http::error::partial_message;
  }

  transport_error error_of(const beast::error_code& ec, std::string_view during, bool nothing_sent) {
    transport_error e;
    e.message = cancelled_ ? std::string("request cancelled")
                           : std::string(during) + " " + url_.host_header() + ": " + ec.message();
    e.nothing_sent = nothing_sent;
    return e;
  }

  // Connects (once per connection), then sets up the request.
  template <class Next>
  void start(std::shared_ptr<const rest_request> req, Next next) {
    req_ = std::move(req);
    if (cancelled_) return next(error_of({}, "", true));
    lowest().expires_after(req_->timeout);
    if (connected_) return next(std::nullopt);
    resolver_.async_resolve(
        url_.host, url_.port,
        [self = this->shared_from_this(), next = std::move(next)](beast::error_code ec,
                                                                  tcp::resolver::results_type rs) mutable {
          if (ec) return next(self->error_of(ec, "resolving", true));
          self->lowest().async_connect(
              rs, [self, next = std::move(next)](beast::error_code ec, const tcp::endpoint&) mutable {
                if (ec) return next(self->error_of(ec, "connecting to", true));
                self->derived().handshake([self, next = std::move(next)](beast::error_code ec) mutable {
                  if (ec) return next(self->error_of(ec, "TLS handshake with", true));
                  self->connected_ = true;
                  next(std::nullopt);
                });
              });
        });
  }

  void build_request() {
    const rest_request& r = *req_;
    out_ = {};
    out_.version(11);
    out_.method_string(r.method);
    out_.target(url_.path_prefix + r.target);
    out_.set(http::field::host, url_.host_header());
    out_.set(http::field::user_agent, "c5c3-operator");
    if (!r.accept.empty()) out_.set(http::field::accept, r.accept);
    if (!r.bearer_token.empty()) out_.set(http::field::authorization, "Bearer " + r.bearer_token);
    else if (!r.authorization.empty()) out_.set(http::field::authorization, r.authorization);
    for (const auto& [name, value] : r.headers) out_.set(name, value);
    if (!r.content_type.empty()) out_.set(http::field::content_type, r.content_type);
    out_.body() = r.body;
    out_.keep_alive(true);
    out_.prepare_payload();
  }

  void write_then_read(request_handler done) {
    build_request();
    http::async_write(derived().beast_stream(), out_,
                      [self = this->shared_from_this(), done = std::move(done)](beast::error_code ec, std::size_t) mutable {
                        if (ec) {
                          auto e = self->error_of(ec, "sending to", false);
                          e.stale_connection = self->reused && is_peer_close(ec);
                          return done(std::move(e), false);
                        }
                        self->parser_.emplace();
                        self->parser_->body_limit(max_response_body);
                        self->read_header_then_body(std::move(done));
                      });
  }

  // The header first: Boost 1.74's async_read parses eagerly, and its eager
  // parse drops the body_limit error a Content-Length over the limit raises
  // at the header, so the body (600 MB, said a hostile server's header) was
  // reserved and read whole. Read alone, the header meets the limit; the body
  // follows with the same parser (a chunked or unsized body is checked as it
  // comes).
  void read_header_then_body(request_handler done) {
    http::async_read_header(
        derived().beast_stream(), buffer_, *parser_,
        [self = this->shared_from_this(), done = std::move(done)](beast::error_code ec, std::size_t n) mutable {
          if (ec || self->parser_->is_done()) return self->on_read(ec, n, std::move(done));
          http::async_read(self->derived().beast_stream(), self->buffer_, *self->parser_,
                           [self, done = std::move(done), n](beast::error_code ec, std::size_t m) mutable {
                             self->on_read(ec, n + m, std::move(done));
                           });
        });
  }

  void on_read(beast::error_code ec, std::size_t n, request_handler done) {
    if (ec) {
      auto e = error_of(ec, "reading from", false);
      // Refused from its Content-Length (read_header_then_body), or as it grows past the cap.
      if (ec == http::error::body_limit && !cancelled_)
        e.message = "the answer from " + url_.host_header() + " is larger than " +
                    std::to_string(max_response_body >> 20) + " MiB";
      // Only requests that are safe to send twice go again: the server may
      // have acted on a POST before the connection died.
      e.stale_connection = reused && n == 0 && is_peer_close(ec) && (req_->method == "GET" || req_->method == "HEAD");
      return done(std::move(e), false);
    }
    auto& msg = parser_->get();
    rest_response res;
    res.status = static_cast<int>(msg.result_int());
    res.body = std::move(msg.body());
    res.content_type = std::string(msg[http::field::content_type]);
    if (auto it = msg.find(http::field::retry_after); it != msg.end())
      res.retry_after = parse_retry_after(std::string_view(it->value().data(), it->value().size()));
    bool keep = msg.keep_alive() && !cancelled_;
    parser_.reset();
    if (keep) lowest().expires_never();
    done(std::move(res), keep);
  }

  // ---- streamed responses ----
  void write_then_stream() {
    build_request();
    http::async_write(derived().beast_stream(), out_, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->end_stream(self->error_of(ec, "sending to", false));
      self->sparser_.emplace();
      // No limit (a watch streams for as long as it lasts). Not boost::none:
      // Boost 1.74 compares a Content-Length with the empty optional as
      // larger, so every whole answer (a 429, a 403, a 500) was refused as
      // "body limit exceeded" and its status and Retry-After lost.
      self->sparser_->body_limit(std::numeric_limits<std::uint64_t>::max());
      http::async_read_header(self->derived().beast_stream(), self->buffer_, *self->sparser_,
                              [self](beast::error_code ec, std::size_t) { self->on_stream_header(ec); });
    });
  }

  void on_stream_header(beast::error_code ec) {
    if (ec) return end_stream(error_of(ec, "reading from", false));
    auto& msg = sparser_->get();
    status_ = static_cast<int>(msg.result_int());
    if (auto it = msg.find(http::field::retry_after); it != msg.end())
      retry_after_ = parse_retry_after(std::string_view(it->value().data(), it->value().size()));
    content_type_ = std::string(msg[http::field::content_type]);
    if (status_ == 200) {
      lowest().expires_never();
      if (cb_.on_open) cb_.on_open();
    }
    read_some();
  }

  void read_some() {
    if (sparser_->is_done()) return finish_stream();
    sparser_->get().body().data = chunk_.data();
    sparser_->get().body().size = chunk_.size();
    http::async_read_some(derived().beast_stream(), buffer_, *sparser_,
                          [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                            if (ec == http::error::need_buffer) ec = {};
                            std::size_t got = self->chunk_.size() - self->sparser_->get().body().size;
                            if (got > 0 && !self->cancelled_) {
                              std::string_view data(self->chunk_.data(), got);
                              if (self->status_ == 200) {
                                if (self->cb_.on_data) self->cb_.on_data(data);
                              } else if (self->error_body_.size() < (1u << 20)) {
                                self->error_body_.append(data);
                              }
                            }
                            if (ec) return self->end_stream(self->error_of(ec, "reading from", false));
                            if (self->cancelled_) return self->end_stream(self->error_of(ec, "", false));
                            self->read_some();
                          });
  }

  void finish_stream() {
    rest_response res;
    res.status = status_;
    res.body = std::move(error_body_);
    res.content_type = content_type_;
    res.retry_after = retry_after_;
    end_stream(std::move(res));
  }

  void end_stream(rest_result r) {
    beast::error_code ec;
    lowest().socket().close(ec);
    if (auto f = std::move(cb_.on_end)) {
      cb_ = {};
      f(std::move(r));
    }
  }

  net::strand<net::io_context::executor_type> strand_;
  tcp::resolver resolver_;
  server_url url_;
  beast::flat_buffer buffer_;
  std::shared_ptr<const rest_request> req_;
  http::request<http::string_body> out_;
  std::optional<http::response_parser<http::string_body>> parser_;
  std::optional<http::response_parser<http::buffer_body>> sparser_;
  stream_callbacks cb_;
  std::array<char, 16384> chunk_{};
  std::string error_body_;
  std::string content_type_;
  std::optional<int> retry_after_;
  int status_ = 0;
  bool connected_ = false;
  bool cancelled_ = false;
};

}  // namespace c5c3::k8s::detail
