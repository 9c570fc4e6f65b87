// The connection pool of one API server.
#include "k8s/client/detail/connection.hpp"

#include <boost/asio/io_context.hpp>

#include <mutex>
#include <vector>

namespace c5c3::k8s {

struct http_transport::impl : std::enable_shared_from_this<http_transport::impl> {
  boost::asio::io_context& io;
  server_url url;
  tls_options tls;
  std::size_t max_idle;
  std::mutex mu;
  std::shared_ptr<detail::tls_context> ctx;  // guarded by mu
  std::vector<std::shared_ptr<detail::connection>> idle;

  impl(boost::asio::io_context& i, server_url u, tls_options t, std::size_t m)
      : io(i), url(std::move(u)), tls(std::move(t)), max_idle(m) {}

  std::shared_ptr<detail::connection> fresh() {
    if (!url.tls) return detail::make_plain_connection(io, url);
    std::shared_ptr<detail::tls_context> c;
    {
      std::lock_guard lock(mu);
      c = ctx;
    }
    return detail::make_tls_connection(io, std::move(c), url, tls.server_name);
  }

  std::shared_ptr<detail::connection> take() {
    {
      std::lock_guard lock(mu);
      while (!idle.empty()) {
        auto c = std::move(idle.back());
        idle.pop_back();
        if (!c->alive()) continue;  // closed by the server while idle
        c->reused = true;
        return c;
      }
    }
    return fresh();
  }

  void put(std::shared_ptr<detail::connection> c) {
    std::lock_guard lock(mu);
    if (idle.size() < max_idle) idle.push_back(std::move(c));
  }

  void send(std::shared_ptr<const rest_request> req, rest_handler done, bool allow_stale_retry) {
    auto conn = take();
    conn->request(req, [self = shared_from_this(), conn, req, done = std::move(done),
                        allow_stale_retry](rest_result r, bool keep_alive) mutable {
      if (!r.ok() && r.error().stale_connection && allow_stale_retry) {
        // The server closed an idle keep-alive connection before answering:
        // the request was not processed, send it again on a new connection.
        return self->send(std::move(req), std::move(done), false);
      }
      if (keep_alive) {
        conn->reused = false;
        self->put(std::move(conn));
      }
      done(std::move(r));
    });
  }
};

result<std::shared_ptr<http_transport>, std::string> http_transport::create(boost::asio::io_context& io,
                                                                            server_url url, tls_options tls,
                                                                            std::size_t max_idle) {
  auto p = std::make_shared<impl>(io, std::move(url), std::move(tls), max_idle);
  if (p->url.tls) {
    auto c = detail::make_tls_context(p->tls);
    if (!c.ok()) return c.error();
    p->ctx = std::move(c.value());
  }
  return std::shared_ptr<http_transport>(new http_transport(std::move(p)));
}

http_transport::http_transport(std::shared_ptr<impl> p) : impl_(std::move(p)) {}
http_transport::~http_transport() { close_idle(); }

const server_url& http_transport::url() const { return impl_->url; }

void http_transport::send(rest_request req, rest_handler done) {
  impl_->send(std::make_shared<const rest_request>(std::move(req)), std::move(done), true);
}

std::shared_ptr<http_stream> http_transport::open_stream(rest_request req, stream_callbacks cb) {
  auto conn = impl_->fresh();
  conn->stream(std::make_shared<const rest_request>(std::move(req)), std::move(cb));
  return conn;
}

std::optional<std::string> http_transport::set_client_certificate(std::string cert_pem, std::string key_pem) {
  if (!impl_->url.tls) return std::string("client certificates need an https server");
  tls_options t = impl_->tls;
  t.client_cert_pem = std::move(cert_pem);
  t.client_key_pem = std::move(key_pem);
  auto c = detail::make_tls_context(t);
  if (!c.ok()) return c.error();
  std::lock_guard lock(impl_->mu);
  impl_->ctx = std::move(c.value());
  impl_->idle.clear();
  return std::nullopt;
}

void http_transport::close_idle() {
  std::vector<std::shared_ptr<detail::connection>> drop;
  {
    std::lock_guard lock(impl_->mu);
    drop.swap(impl_->idle);
  }
  for (auto& c : drop) c->cancel();
}

}  // namespace c5c3::k8s
