// Beast behind http_server.hpp: an acceptor on one io thread, one blocking
// thread per connection. Plain and TLS connections share one byte-stream
// interface, so Beast's read/write are instantiated once.
#include "k8s/server/http_server.hpp"

#include "k8s/server/detail/beast_request.hpp"
#include "k8s/server/detail/read_request.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <list>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

namespace c5c3::k8s {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

namespace {

// A synchronous byte stream over either a TCP socket or a TLS stream.
class byte_stream {
 public:
  virtual ~byte_stream() = default;
  virtual std::size_t read1(void* p, std::size_t n, error_code& ec) = 0;
  virtual std::size_t write1(const void* p, std::size_t n, error_code& ec) = 0;

  template <class Buffers>
  std::size_t read_some(const Buffers& b, error_code& ec) {
    for (auto it = net::buffer_sequence_begin(b); it != net::buffer_sequence_end(b); ++it) {
      net::mutable_buffer mb = *it;
      if (mb.size() > 0) return read1(mb.data(), mb.size(), ec);
    }
    ec = {};
    return 0;
  }
  template <class Buffers>
  std::size_t read_some(const Buffers& b) {
    error_code ec;
    auto n = read_some(b, ec);
    if (ec) throw boost::system::system_error(ec);
    return n;
  }
  template <class Buffers>
  std::size_t write_some(const Buffers& b, error_code& ec) {
    for (auto it = net::buffer_sequence_begin(b); it != net::buffer_sequence_end(b); ++it) {
      net::const_buffer cb = *it;
      if (cb.size() > 0) return write1(cb.data(), cb.size(), ec);
    }
    ec = {};
    return 0;
  }
  template <class Buffers>
  std::size_t write_some(const Buffers& b) {
    error_code ec;
    auto n = write_some(b, ec);
    if (ec) throw boost::system::system_error(ec);
    return n;
  }
};

class plain_stream final : public byte_stream {
 public:
  explicit plain_stream(tcp::socket& s) : s_(s) {}
  std::size_t read1(void* p, std::size_t n, error_code& ec) override {
    return s_.read_some(net::buffer(p, n), ec);
  }
  std::size_t write1(const void* p, std::size_t n, error_code& ec) override {
    return s_.write_some(net::buffer(p, n), ec);
  }

 private:
  tcp::socket& s_;
};

class tls_stream final : public byte_stream {
 public:
  tls_stream(tcp::socket& s, ssl::context& ctx) : s_(s, ctx) {}
  ssl::stream<tcp::socket&>& stream() { return s_; }
  std::size_t read1(void* p, std::size_t n, error_code& ec) override {
    return s_.read_some(net::buffer(p, n), ec);
  }
  std::size_t write1(const void* p, std::size_t n, error_code& ec) override {
    return s_.write_some(net::buffer(p, n), ec);
  }

 private:
  ssl::stream<tcp::socket&> s_;
};

std::optional<peer_certificate> verified_peer(SSL* ssl) {
  X509* cert = SSL_get1_peer_certificate(ssl);
  if (!cert) return std::nullopt;
  std::optional<peer_certificate> out;
  if (SSL_get_verify_result(ssl) == X509_V_OK) {
    peer_certificate pc;
    X509_NAME* subj = X509_get_subject_name(cert);
    for (int i = 0; i < X509_NAME_entry_count(subj); ++i) {
      X509_NAME_ENTRY* e = X509_NAME_get_entry(subj, i);
      int nid = OBJ_obj2nid(X509_NAME_ENTRY_get_object(e));
      ASN1_STRING* d = X509_NAME_ENTRY_get_data(e);
      unsigned char* utf8 = nullptr;
      int len = ASN1_STRING_to_UTF8(&utf8, d);
      if (len < 0) continue;
      std::string v(reinterpret_cast<char*>(utf8), static_cast<std::size_t>(len));
      OPENSSL_free(utf8);
      if (nid == NID_commonName) pc.common_name = v;
      if (nid == NID_organizationName) pc.organizations.push_back(v);
    }
    out = std::move(pc);
  }
  X509_free(cert);
  return out;
}

}  // namespace

class http_server::impl {
 public:
  impl(std::string listen, std::optional<tls_config> tls, http_handler handler)
      : listen_(std::move(listen)), tls_(std::move(tls)), handler_(std::move(handler)) {}

  void start();
  void stop();
  void serve(tcp::socket sock, std::shared_ptr<std::atomic<bool>> done);
  void accept_next();
  void reap();

  std::string listen_;
  std::optional<tls_config> tls_;
  http_handler handler_;
  std::unique_ptr<ssl::context> ctx_;
  net::io_context ioc_;
  std::unique_ptr<tcp::acceptor> acceptor_;
  std::thread io_thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<std::uint64_t> accepted_{0};
  bool started_ = false;
  std::uint16_t port_ = 0;
  std::string host_;

  std::mutex mu_;
  std::set<int> fds_;  // open connections, shut down on stop
  struct worker {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };
  std::list<worker> workers_;
};

namespace {

class responder final : public http_responder {
 public:
  responder(byte_stream& s, int fd, bool keep_alive, unsigned version,
            const std::atomic<bool>& stopping, tcp::socket& sock)
      : s_(s), fd_(fd), keep_alive_(keep_alive), version_(version), stopping_(stopping),
        sock_(sock) {}

  void send(http_response res) override {
    if (answered_) return;
    answered_ = true;
    http::response<http::string_body> r{static_cast<http::status>(res.status), version_};
    for (auto& [k, v] : res.headers) r.set(k, v);
    r.body() = std::move(res.body);
    r.keep_alive(keep_alive_);
    r.prepare_payload();
    error_code ec;
    http::write(s_, r, ec);
    if (ec) broken_ = true;
  }
  bool start_stream(int status, const http_headers& headers) override {
    if (answered_) return false;
    answered_ = true;
    streaming_ = true;
    http::response<http::empty_body> r{static_cast<http::status>(status), version_};
    for (auto& [k, v] : headers) r.set(k, v);
    r.keep_alive(keep_alive_);
    r.chunked(true);
    http::response_serializer<http::empty_body> sr{r};
    error_code ec;
    http::write_header(s_, sr, ec);
    if (ec) broken_ = true;
    return !broken_;
  }
  bool write(std::string_view chunk) override {
    if (broken_ || !streaming_ || stopping_) return false;
    if (chunk.empty()) return true;
    error_code ec;
    net::write(s_, http::make_chunk(net::const_buffer(chunk.data(), chunk.size())), ec);
    if (ec) broken_ = true;
    return !broken_;
  }
  void end_stream() override {
    if (broken_ || !streaming_ || ended_) return;
    ended_ = true;
    error_code ec;
    net::write(s_, http::make_chunk_last(), ec);
    if (ec) broken_ = true;
  }
  bool peer_alive() override {
    if (broken_ || stopping_) return false;
    pollfd p{fd_, POLLRDHUP, 0};
    if (::poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR))) return false;
    return true;
  }
  void reset_connection() override {
    answered_ = true;
    broken_ = true;
    reset_ = true;
    error_code ec;
    sock_.set_option(net::socket_base::linger(true, 0), ec);
    sock_.close(ec);
  }
  bool stopping() const override { return stopping_; }

  // Whether the connection can serve another request.
  bool reusable() const {
    if (broken_ || reset_ || !keep_alive_) return false;
    if (streaming_ && !ended_) return false;
    return answered_;
  }
  bool answered() const { return answered_; }
  bool reset() const { return reset_; }

 private:
  byte_stream& s_;
  int fd_;
  bool keep_alive_;
  unsigned version_;
  const std::atomic<bool>& stopping_;
  tcp::socket& sock_;
  bool answered_ = false, streaming_ = false, ended_ = false, broken_ = false, reset_ = false;
};

}  // namespace

void http_server::impl::start() {
  if (started_) return;
  auto colon = listen_.rfind(':');
  if (colon == std::string::npos) throw std::runtime_error("listen address needs host:port: " + listen_);
  host_ = listen_.substr(0, colon);
  if (host_ == "localhost") host_ = "127.0.0.1";
  if (!host_.empty() && host_.front() == '[' && host_.back() == ']')
    host_ = host_.substr(1, host_.size() - 2);
  int port = 0;
  try {
    port = std::stoi(listen_.substr(colon + 1));
  } catch (...) {
    throw std::runtime_error("invalid port in listen address: " + listen_);
  }
  if (port < 0 || port > 65535) throw std::runtime_error("invalid port in listen address: " + listen_);
  error_code ec;
  auto addr = net::ip::make_address(host_, ec);
  if (ec) throw std::runtime_error("invalid listen address: " + host_);

  if (tls_) {
    ctx_ = std::make_unique<ssl::context>(ssl::context::tls_server);
    ctx_->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                      ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    ctx_->use_certificate_chain(net::buffer(tls_->cert_pem), ec);
    if (!ec) ctx_->use_private_key(net::buffer(tls_->key_pem), ssl::context::pem, ec);
    if (ec) throw std::runtime_error("cannot load the serving certificate: " + ec.message());
    if (!tls_->client_ca_pem.empty()) {
      ctx_->add_certificate_authority(net::buffer(tls_->client_ca_pem), ec);
      if (ec) throw std::runtime_error("cannot load the client CA: " + ec.message());
      ctx_->set_verify_mode(ssl::verify_peer);
      static const unsigned char sid[] = "c5c3";
      SSL_CTX_set_session_id_context(ctx_->native_handle(), sid, 4);
    }
  }

  acceptor_ = std::make_unique<tcp::acceptor>(ioc_);
  tcp::endpoint ep{addr, static_cast<std::uint16_t>(port)};
  acceptor_->open(ep.protocol(), ec);
  if (!ec) acceptor_->set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_->bind(ep, ec);
  if (!ec) acceptor_->listen(net::socket_base::max_listen_connections, ec);
  if (ec) throw std::runtime_error("cannot listen on " + listen_ + ": " + ec.message());
  port_ = acceptor_->local_endpoint().port();
  started_ = true;
  accept_next();
  io_thread_ = std::thread([this] { ioc_.run(); });
}

void http_server::impl::accept_next() {
  acceptor_->async_accept([this](error_code ec, tcp::socket sock) {
    if (ec || stopping_) return;
    accepted_.fetch_add(1, std::memory_order_relaxed);
    reap();
    auto done = std::make_shared<std::atomic<bool>>(false);
    std::lock_guard lock(mu_);
    workers_.push_back(
        {std::thread([this, s = std::move(sock), done]() mutable { serve(std::move(s), done); }),
         done});
    accept_next();
  });
}

void http_server::impl::reap() {
  std::lock_guard lock(mu_);
  for (auto it = workers_.begin(); it != workers_.end();) {
    if (*it->done) {
      it->thread.join();
      it = workers_.erase(it);
    } else {
      ++it;
    }
  }
}

void http_server::impl::serve(tcp::socket sock, std::shared_ptr<std::atomic<bool>> done) {
  int fd = sock.native_handle();
  {
    std::lock_guard lock(mu_);
    if (stopping_) {
      *done = true;
      return;
    }
    fds_.insert(fd);
  }
  error_code ec;
  sock.set_option(tcp::no_delay(true), ec);
  std::string remote;
  if (auto ep = sock.remote_endpoint(ec); !ec)
    remote = ep.address().to_string() + ":" + std::to_string(ep.port());

  std::unique_ptr<byte_stream> stream;
  std::optional<peer_certificate> peer;
  tls_stream* tls = nullptr;
  if (ctx_) {
    auto t = std::make_unique<tls_stream>(sock, *ctx_);
    t->stream().handshake(ssl::stream_base::server, ec);
    if (!ec) peer = verified_peer(t->stream().native_handle());
    tls = t.get();
    stream = std::move(t);
  } else {
    stream = std::make_unique<plain_stream>(sock);
  }

  bool was_reset = false;
  if (!ec) {
    beast::flat_buffer buf;
    while (!stopping_) {
      http::request_parser<http::string_body> parser;
      parser.body_limit(detail::request_body_limit);
      detail::read_request(*stream, buf, parser, ec);
      if (ec) break;
      bool keep_alive = parser.get().keep_alive();
      unsigned version = parser.get().version();
      http_request req = detail::to_http_request(parser.release());
      req.remote_address = remote;
      req.peer = peer;
      responder r{*stream, fd, keep_alive, version, stopping_, sock};
      try {
        handler_(req, r);
      } catch (const std::exception& e) {
        if (!r.answered())
          r.send({500, {{"Content-Type", "text/plain"}}, std::string("internal error: ") + e.what()});
      }
      if (!r.answered()) r.send({500, {{"Content-Type", "text/plain"}}, "no answer"});
      if (r.reset()) {
        was_reset = true;
        break;
      }
      if (!r.reusable()) break;
    }
  }
  {
    std::lock_guard lock(mu_);
    fds_.erase(fd);
  }
  if (!was_reset) {
    if (tls && !stopping_) {
      // Best effort close_notify; a peer that is gone makes this fail quickly.
      ::shutdown(fd, SHUT_RD);
      tls->stream().shutdown(ec);
    }
    sock.shutdown(tcp::socket::shutdown_both, ec);
    sock.close(ec);
  }
  stream.reset();
  *done = true;
}

void http_server::impl::stop() {
  if (!started_ || stopping_.exchange(true)) return;
  net::post(ioc_, [this] {
    error_code ec;
    acceptor_->close(ec);
  });
  if (io_thread_.joinable()) io_thread_.join();
  {
    std::lock_guard lock(mu_);
    for (int fd : fds_) ::shutdown(fd, SHUT_RDWR);
  }
  std::list<worker> ws;
  {
    std::lock_guard lock(mu_);
    ws.swap(workers_);
  }
  for (auto& w : ws) w.thread.join();
}

http_server::http_server(std::string listen, std::optional<tls_config> tls, http_handler handler)
    : impl_(std::make_unique<impl>(std::move(listen), std::move(tls), std::move(handler))) {}
http_server::~http_server() { stop(); }
void http_server::start() { impl_->start(); }
void http_server::stop() { impl_->stop(); }
std::uint16_t http_server::port() const { return impl_->port_; }
std::uint64_t http_server::connections_accepted() const {
  return impl_->accepted_.load(std::memory_order_relaxed);
}
std::string http_server::host() const { return impl_->host_; }

}  // namespace c5c3::k8s
