// A small keep-alive HTTP/1.1 load generator (plain TCP or TLS) for the API
// server benchmark: several connections in parallel on one io_context, and
// watch streams that time every event they receive. Beast stays in the .cpp
// files; this header does not include it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::bench {

using bench_clock = std::chrono::steady_clock;

// Where requests go: 127.0.0.1:PORT, TLS verified against `ca_pem` unless
// plain, with the bearer token.
struct endpoint {
  std::string host;
  std::uint16_t port = 0;
  bool tls = true;
  std::string ca_pem;
  std::string token;
};

// "https://127.0.0.1:PORT" or "http://..." into an endpoint.
endpoint endpoint_from_url(const std::string& url, std::string ca_pem, std::string token);

struct request {
  std::string method;  // GET, POST, PATCH, PUT, DELETE
  std::string target;  // path and query
  std::string content_type;
  std::string body;
};

struct reply {
  std::uint64_t seq = 0;
  int connection = 0;  // which of the spec's connections (0 ...)
  int status = 0;
  const std::string* body = nullptr;
  bench_clock::time_point sent;
  bench_clock::time_point received;
};

struct load_spec {
  int connections = 1;
  int threads = 1;  // threads running the io_context
  // Timed mode when > 0: requests are issued until the deadline; otherwise
  // exactly `requests` requests are spread over the connections.
  std::chrono::milliseconds duration{0};
  std::uint64_t requests = 0;
  // Builds request number `seq` (0, 1, ...); called from I/O threads.
  std::function<request(std::uint64_t seq)> make;
  // Instead of `make`, `duration` and `requests`: connection i sends what
  // next(i) gives, one after the other, until it gives nullopt.
  std::function<std::optional<request>(int connection)> next;
  // Optional; sees every reply, from I/O threads.
  std::function<void(const reply&)> on_reply;
};

struct load_result {
  std::uint64_t ok = 0;      // 2xx answers
  std::uint64_t failed = 0;  // other answers and broken connections
  double seconds = 0;        // from the first request to the last answer
  std::vector<double> latency_ms;  // of the 2xx answers
  std::string first_failure;       // e.g. "409 on PATCH ...: <Status message>"
};

// Connects every connection first (TCP and TLS handshakes are not timed),
// then runs the requests. Blocks until done.
load_result run_load(const endpoint& ep, const load_spec& spec);

// One event a watcher received: the object's resourceVersion and when.
struct seen_event {
  std::int64_t resource_version = 0;
  bench_clock::time_point at;
};

// `count` parallel watch streams on `target` (a ?watch=1 URL), each on its
// own connection, served by one I/O thread in the background.
class watch_group {
 public:
  watch_group(const endpoint& ep, std::string target, int count);
  ~watch_group();  // stops
  watch_group(const watch_group&) = delete;
  watch_group& operator=(const watch_group&) = delete;

  // Whether every stream got its 200 headers before `deadline`.
  bool wait_ready(bench_clock::time_point deadline) const;
  // Events received by the stream that has received the fewest.
  std::uint64_t min_events() const;
  std::uint64_t total_events() const;
  // Closes the streams and joins the I/O thread. Idempotent.
  void stop();
  // After stop(): every stream's events, in order.
  std::vector<std::vector<seen_event>> events() const;
  std::string failure() const;  // first failure, "" when none

  class impl;

 private:
  std::unique_ptr<impl> impl_;
};

}  // namespace c5c3::bench
