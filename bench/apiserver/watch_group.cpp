// watch_group: parallel watch streams on their own I/O thread. Each stream
// reads the chunked body incrementally, splits it into JSON lines and notes
// every event's resourceVersion with the time it arrived.
#include "bench/apiserver/transport.hpp"

#include <array>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

namespace c5c3::bench {

namespace {

// The first "resourceVersion":"N" of an event line: the object's own.
std::int64_t event_resource_version(std::string_view line) {
  constexpr std::string_view key = "\"resourceVersion\":\"";
  auto at = line.find(key);
  if (at == std::string_view::npos) return 0;
  std::int64_t rv = 0;
  for (auto i = at + key.size(); i < line.size() && line[i] >= '0' && line[i] <= '9'; ++i)
    rv = rv * 10 + (line[i] - '0');
  return rv;
}

// The "message" of an ERROR event's Status.
std::string_view status_message(std::string_view line) {
  constexpr std::string_view key = "\"message\":\"";
  auto at = line.find(key);
  if (at == std::string_view::npos) return line.substr(0, 200);
  auto from = at + key.size();
  auto end = line.find('"', from);
  return line.substr(from, (end == std::string_view::npos ? line.size() : end) - from);
}

struct shared_state {
  std::mutex mu;
  std::string failure;
  std::atomic<int> ready{0};

  void fail(std::string what) {
    std::lock_guard lock(mu);
    if (failure.empty()) failure = std::move(what);
  }
};

class stream_base {
 public:
  virtual ~stream_base() = default;
  virtual void close() = 0;
  std::atomic<std::uint64_t> count{0};
  std::vector<seen_event> seen;  // written by the I/O thread only
};

template <class Stream>
class watch_stream : public stream_base, public std::enable_shared_from_this<watch_stream<Stream>> {
 public:
  template <class... Args>
  watch_stream(shared_state& st, const endpoint& ep, std::string target, Args&&... args)
      : st_(st), ep_(ep), target_(std::move(target)), stream_(std::forward<Args>(args)...) {}

  void start() {
    async_open(stream_, ep_, [self = this->shared_from_this()](beast::error_code ec) {
      if (ec) return self->st_.fail("watch connect: " + ec.message());
      self->send();
    });
  }

  void close() override { close_stream(stream_); }

 private:
  void send() {
    req_ = make_http_request(ep_, request{"GET", target_, "", ""});
    http::async_write(stream_, req_, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->st_.fail("watch write: " + ec.message());
      self->parser_.body_limit(std::numeric_limits<std::uint64_t>::max());
      http::async_read_header(self->stream_, self->buf_, self->parser_,
                              [self](beast::error_code hec, std::size_t) { self->headers(hec); });
    });
  }

  void headers(beast::error_code ec) {
    if (ec) return st_.fail("watch headers: " + ec.message());
    if (parser_.get().result_int() != 200)
      return st_.fail("watch answered " + std::to_string(parser_.get().result_int()));
    ++st_.ready;
    read_some();
  }

  void read_some() {
    parser_.get().body().data = chunk_.data();
    parser_.get().body().size = chunk_.size();
    http::async_read_some(stream_, buf_, parser_, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec == http::error::need_buffer) ec = {};
      auto n = self->chunk_.size() - self->parser_.get().body().size;
      self->consume(std::string_view(self->chunk_.data(), n));
      if (ec) return;  // closed: by stop() or by the server
      if (self->parser_.is_done()) return self->st_.fail("watch stream ended by the server");
      self->read_some();
    });
  }

  void consume(std::string_view data) {
    auto now = bench_clock::now();
    line_.append(data);
    std::size_t from = 0;
    for (auto nl = line_.find('\n'); nl != std::string::npos; nl = line_.find('\n', from)) {
      std::string_view line(line_.data() + from, nl - from);
      from = nl + 1;
      if (line.empty() || line.find("\"type\":\"BOOKMARK\"") != std::string_view::npos) continue;
      if (line.find("\"type\":\"ERROR\"") != std::string_view::npos) {
        st_.fail("ERROR event: " + std::string(status_message(line)));
        continue;
      }
      seen.push_back({event_resource_version(line), now});
      ++count;
    }
    line_.erase(0, from);
  }

  shared_state& st_;
  const endpoint& ep_;
  std::string target_;
  Stream stream_;
  beast::flat_buffer buf_;
  http::request<http::string_body> req_;
  http::response_parser<http::buffer_body> parser_;
  std::array<char, 64 * 1024> chunk_{};
  std::string line_;
};

}  // namespace

class watch_group::impl {
 public:
  impl(const endpoint& ep, std::string target, int count) : ep_(ep), work_(net::make_work_guard(ioc_)) {
    for (int i = 0; i < count; ++i) {
      if (ep_.tls) {
        if (!ctx_) ctx_.emplace(make_tls_context(ep_));
        auto s = std::make_shared<watch_stream<tls_stream>>(st_, ep_, target, ioc_, *ctx_);
        s->start();
        streams_.push_back(s);
      } else {
        auto s = std::make_shared<watch_stream<plain_stream>>(st_, ep_, target, ioc_);
        s->start();
        streams_.push_back(s);
      }
    }
    thread_ = std::thread([this] { ioc_.run(); });
  }

  ~impl() { stop(); }

  void stop() {
    if (!thread_.joinable()) return;
    net::post(ioc_, [this] {
      for (auto& s : streams_) s->close();
      work_.reset();
    });
    thread_.join();
  }

  endpoint ep_;
  net::io_context ioc_;
  net::executor_work_guard<net::io_context::executor_type> work_;
  std::optional<ssl::context> ctx_;
  shared_state st_;
  std::vector<std::shared_ptr<stream_base>> streams_;
  std::thread thread_;
};

watch_group::watch_group(const endpoint& ep, std::string target, int count)
    : impl_(std::make_unique<impl>(ep, std::move(target), count)) {}

watch_group::~watch_group() = default;

bool watch_group::wait_ready(bench_clock::time_point deadline) const {
  while (impl_->st_.ready.load() < static_cast<int>(impl_->streams_.size())) {
    if (bench_clock::now() >= deadline) return false;
    {
      std::lock_guard lock(impl_->st_.mu);
      if (!impl_->st_.failure.empty()) return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

std::uint64_t watch_group::min_events() const {
  std::uint64_t m = UINT64_MAX;
  for (auto& s : impl_->streams_) m = std::min<std::uint64_t>(m, s->count.load());
  return impl_->streams_.empty() ? 0 : m;
}

std::uint64_t watch_group::total_events() const {
  std::uint64_t n = 0;
  for (auto& s : impl_->streams_) n += s->count.load();
  return n;
}

void watch_group::stop() { impl_->stop(); }

std::vector<std::vector<seen_event>> watch_group::events() const {
  std::vector<std::vector<seen_event>> out;
  for (auto& s : impl_->streams_) out.push_back(s->seen);
  return out;
}

std::string watch_group::failure() const {
  std::lock_guard lock(impl_->st_.mu);
  return impl_->st_.failure;
}

}  // namespace c5c3::bench
