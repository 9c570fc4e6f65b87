// run_load: keep-alive request sessions over plain TCP or TLS. Connections are
// opened first (untimed), then every session sends its next request as soon
// as the previous answer is read.
#include "bench/apiserver/transport.hpp"

#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

namespace c5c3::bench {

namespace {

struct run_state {
  const endpoint& ep;
  const load_spec& spec;
  bench_clock::time_point deadline;
  std::atomic<std::uint64_t> next_seq{0};
  std::mutex mu;  // guards the fields below
  load_result result;
  bench_clock::time_point last_answer;

  run_state(const endpoint& e, const load_spec& s) : ep(e), spec(s) {}

  void fail(std::string what) {
    std::lock_guard lock(mu);
    ++result.failed;
    if (result.first_failure.empty()) result.first_failure = std::move(what);
  }

  // The next request of connection `index` and its sequence number, or
  // nullopt when that session is done.
  std::optional<std::pair<std::uint64_t, request>> take(int index) {
    if (spec.next) {
      auto r = spec.next(index);
      if (!r) return std::nullopt;
      return std::pair{next_seq.fetch_add(1), std::move(*r)};
    }
    auto seq = take_seq();
    if (!seq) return std::nullopt;
    return std::pair{*seq, spec.make(*seq)};
  }

  std::optional<std::uint64_t> take_seq() {
    if (spec.duration.count() > 0) {
      if (bench_clock::now() >= deadline) return std::nullopt;
      return next_seq.fetch_add(1);
    }
    auto seq = next_seq.fetch_add(1);
    if (seq >= spec.requests) return std::nullopt;
    return seq;
  }
};

template <class Stream>
class session : public std::enable_shared_from_this<session<Stream>> {
 public:
  template <class... Args>
  session(run_state& st, int index, Args&&... args)
      : st_(st), index_(index), stream_(std::forward<Args>(args)...) {}

  void open() {
    async_open(stream_, st_.ep, [self = this->shared_from_this()](beast::error_code ec) {
      if (ec) {
        self->st_.fail("connect: " + ec.message());
        return;
      }
      self->open_ = true;
    });
  }

  void start() {
    if (open_) next();
  }

  void finish() {
    std::lock_guard lock(st_.mu);
    st_.result.ok += ok_;
    st_.result.latency_ms.insert(st_.result.latency_ms.end(), latency_.begin(), latency_.end());
    if (last_ > st_.last_answer) st_.last_answer = last_;
  }

 private:
  void next() {
    auto taken = st_.take(index_);
    if (!taken) {
      close_stream(stream_);
      finish();
      return;
    }
    seq_ = taken->first;
    auto& r = taken->second;
    what_ = r.method + " " + r.target;
    req_ = make_http_request(st_.ep, r);
    sent_ = bench_clock::now();
    http::async_write(stream_, req_, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->broken("write", ec);
      self->read();
    });
  }

  void read() {
    parser_.emplace();
    // Not boost::none: Beast 1.74 compares a Content-Length against an empty
    // optional as "exceeded".
    parser_->body_limit(std::numeric_limits<std::uint64_t>::max());
    http::async_read(stream_, buf_, *parser_, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->broken("read", ec);
      self->answered();
    });
  }

  void answered() {
    auto now = bench_clock::now();
    last_ = now;
    auto& res = parser_->get();
    int status = static_cast<int>(res.result_int());
    if (st_.spec.on_reply) st_.spec.on_reply(reply{seq_, index_, status, &res.body(), sent_, now});
    if (status >= 200 && status < 300) {
      ++ok_;
      latency_.push_back(std::chrono::duration<double, std::milli>(now - sent_).count());
    } else {
      st_.fail(std::to_string(status) + " on " + what_ + ": " + res.body().substr(0, 300));
    }
    if (!res.keep_alive()) return broken("keep-alive", beast::error_code{});
    next();
  }

  void broken(const char* step, beast::error_code ec) {
    st_.fail(std::string(step) + " on " + what_ + ": " + (ec ? ec.message() : "server closed the connection"));
    close_stream(stream_);
    finish();
  }

  run_state& st_;
  int index_;
  Stream stream_;
  bool open_ = false;
  beast::flat_buffer buf_;
  http::request<http::string_body> req_;
  std::optional<http::response_parser<http::string_body>> parser_;
  std::uint64_t seq_ = 0;
  std::string what_;
  bench_clock::time_point sent_;
  bench_clock::time_point last_;
  std::uint64_t ok_ = 0;
  std::vector<double> latency_;
};

void run_io(net::io_context& ioc, int threads) {
  std::vector<std::thread> extra;
  for (int i = 1; i < threads; ++i) extra.emplace_back([&ioc] { ioc.run(); });
  ioc.run();
  for (auto& t : extra) t.join();
}

template <class Session, class Make>
load_result run_sessions(run_state& st, net::io_context& ioc, Make make_session) {
  std::vector<std::shared_ptr<Session>> sessions;
  for (int i = 0; i < st.spec.connections; ++i) sessions.push_back(make_session(i));
  for (auto& s : sessions) s->open();
  ioc.run();  // every connection is open (or failed) when this returns
  ioc.restart();
  auto start = bench_clock::now();
  st.deadline = start + st.spec.duration;
  st.last_answer = start;
  for (auto& s : sessions) s->start();
  run_io(ioc, st.spec.threads);
  sessions.clear();
  st.result.seconds = std::chrono::duration<double>(st.last_answer - start).count();
  return std::move(st.result);
}

}  // namespace

endpoint endpoint_from_url(const std::string& url, std::string ca_pem, std::string token) {
  endpoint ep;
  std::string rest;
  if (url.rfind("https://", 0) == 0) {
    rest = url.substr(8);
  } else if (url.rfind("http://", 0) == 0) {
    ep.tls = false;
    rest = url.substr(7);
  } else {
    throw std::runtime_error("not an http(s) URL: " + url);
  }
  auto slash = rest.find('/');
  if (slash != std::string::npos) rest.resize(slash);
  auto colon = rest.rfind(':');
  if (colon == std::string::npos) throw std::runtime_error("URL without a port: " + url);
  ep.host = rest.substr(0, colon);
  ep.port = static_cast<std::uint16_t>(std::stoi(rest.substr(colon + 1)));
  ep.ca_pem = std::move(ca_pem);
  ep.token = std::move(token);
  return ep;
}

load_result run_load(const endpoint& ep, const load_spec& spec) {
  run_state st(ep, spec);
  net::io_context ioc;
  if (!ep.tls)
    return run_sessions<session<plain_stream>>(
        st, ioc, [&](int i) { return std::make_shared<session<plain_stream>>(st, i, ioc); });
  auto ctx = make_tls_context(ep);
  return run_sessions<session<tls_stream>>(
      st, ioc, [&](int i) { return std::make_shared<session<tls_stream>>(st, i, ioc, ctx); });
}

}  // namespace c5c3::bench
