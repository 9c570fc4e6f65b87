// The connection pool of one API server: at most `max_exchanges` requests
// on connections at once (0: no bound); the others wait in order of arrival,
// each for at most its timeout, which the wait uses up. Streams (watches)
// have connections of their own, outside the bound, and so do requests
// marked `unbounded` (a Lease's: a renewal never waits behind a burst).
#include "k8s/client/detail/connection.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <deque>
#include <mutex>
#include <vector>

namespace c5c3::k8s {

struct http_transport::impl : std::enable_shared_from_this<http_transport::impl> {
  // A request waiting for its turn.
  struct waiting {
    std::shared_ptr<const rest_request> req;
    rest_handler done;
    std::chrono::steady_clock::time_point since;
    boost::asio::steady_timer timer;
    waiting(boost::asio::io_context& io, std::shared_ptr<const rest_request> r, rest_handler d)
        : req(std::move(r)), done(std::move(d)), since(std::chrono::steady_clock::now()), timer(io) {}
  };

  boost::asio::io_context& io;
  server_url url;
  tls_options tls;
  std::size_t max_idle;
  std::size_t max_exchanges;
  std::mutex mu;
  std::shared_ptr<detail::tls_context> ctx;  // guarded by mu
  std::vector<std::shared_ptr<detail::connection>> idle;
  std::size_t exchanges = 0;  // guarded by mu
  // Guarded by mu. Weak: a waiting request is owned by its timer's handler,
  // so the io_context's shutdown frees what waits (its callback may own the
  // client that owns this pool) instead of a cycle through this queue.
  std::deque<std::weak_ptr<waiting>> queue;

  impl(boost::asio::io_context& i, server_url u, tls_options t, std::size_t m, std::size_t x)
      : io(i), url(std::move(u)), tls(std::move(t)), max_idle(m), max_exchanges(x) {}

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

  // Starts `req` now or queues it behind the bound.
  void send(std::shared_ptr<const rest_request> req, rest_handler done) {
    if (req->unbounded) return exchange(std::move(req), std::move(done), true, false);
    {
      std::lock_guard lock(mu);
      if (max_exchanges > 0 && exchanges >= max_exchanges) {
        auto w = std::make_shared<waiting>(io, std::move(req), std::move(done));
        queue.push_back(w);
        if (w->req->timeout.count() > 0) w->timer.expires_after(w->req->timeout);
        else w->timer.expires_at(boost::asio::steady_timer::time_point::max());
        w->timer.async_wait([self = shared_from_this(), w](const boost::system::error_code& ec) {
          if (!ec) self->expire(w);
        });
        return;
      }
      ++exchanges;
    }
    exchange(std::move(req), std::move(done), true, true);
  }

  // A queued request whose timeout ran out before its turn: nothing was sent.
  void expire(const std::shared_ptr<waiting>& w) {
    std::size_t ahead = 0;
    {
      std::lock_guard lock(mu);
      auto it = std::find_if(queue.begin(), queue.end(), [&](const auto& q) { return q.lock() == w; });
      if (it == queue.end()) return;  // started meanwhile
      queue.erase(it);
      ahead = exchanges;
    }
    w->done(transport_error{"no connection to " + url.host_header() + " came free within the request's timeout of " +
                                std::to_string(w->req->timeout.count()) + " ms (" + std::to_string(ahead) +
                                " requests in flight)",
                            true, false});
  }

  // One exchange; `counted`: it holds a place under the bound, and its end
  // gives the place to the next request waiting.
  void exchange(std::shared_ptr<const rest_request> req, rest_handler done, bool allow_stale_retry, bool counted) {
    auto conn = take();
    conn->request(req, [self = shared_from_this(), conn, req, done = std::move(done), allow_stale_retry,
                        counted](rest_result r, bool keep_alive) mutable {
      if (!r.ok() && r.error().stale_connection && allow_stale_retry) {
        // The server closed an idle keep-alive connection before answering:
        // the request was not processed, send it again on a new connection.
        return self->exchange(std::move(req), std::move(done), false, counted);
      }
      if (keep_alive) {
        conn->reused = false;
        self->put(std::move(conn));
      }
      if (counted) self->next();
      done(std::move(r));
    });
  }

  // The place of an exchange that ended: the longest waiting request takes
  // it, with what its wait left of its timeout.
  void next() {
    std::shared_ptr<waiting> w;
    {
      std::lock_guard lock(mu);
      while (!w && !queue.empty()) {
        w = queue.front().lock();  // null: freed at shutdown
        queue.pop_front();
      }
      if (!w) {
        --exchanges;
        return;
      }
    }
    w->timer.cancel();
    auto req = w->req;
    if (req->timeout.count() > 0) {
      auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - w->since);
      auto copy = std::make_shared<rest_request>(*req);
      copy->timeout = std::max(req->timeout - waited, std::chrono::milliseconds(1));
      req = std::move(copy);
    }
    exchange(std::move(req), std::move(w->done), true, true);
  }
};

result<std::shared_ptr<http_transport>, std::string> http_transport::create(boost::asio::io_context& io,
                                                                            server_url url, tls_options tls,
                                                                            std::size_t max_idle,
                                                                            std::size_t max_exchanges) {
  auto p = std::make_shared<impl>(io, std::move(url), std::move(tls), max_idle, max_exchanges);
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
  impl_->send(std::make_shared<const rest_request>(std::move(req)), std::move(done));
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

std::size_t http_transport::waiting() const {
  std::lock_guard lock(impl_->mu);
  return impl_->queue.size();
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
