// What the client reports about its requests, for metrics: one observation
// per HTTP exchange (verb, code, host, latency) and one per retry. The runtime
// builds the metrics registry (rest_client_requests_total{code,method,host},
// latency histogram) by implementing client_observer; request_counters is a
// small thread-safe implementation for tests and tools.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>

namespace c5c3::k8s {

struct request_observation {
  std::string method;  // GET, POST, PUT, PATCH, DELETE
  std::string code;    // "200", "404", ... or "<error>" when no HTTP answer came
  std::string host;    // host:port of the API server
  std::chrono::nanoseconds latency{0};
  // With "<error>": "PATCH /path: transport error: ..." (the request line
  // and the transport's reason; never a header or a body).
  std::string error{};
};

class client_observer {
 public:
  virtual ~client_observer() = default;
  // Called on an io thread after every attempt (retries included).
  virtual void on_request(const request_observation&) {}
  // Called when an attempt is retried; `reason` is the code or "<error>".
  virtual void on_retry(std::string_view /*method*/, std::string_view /*reason*/) {}
};

class request_counters : public client_observer {
 public:
  // Upper bounds (seconds) of the latency histogram, as client-go's
  // rest_client_request_duration_seconds.
  static constexpr std::array<double, 11> buckets{0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30};

  void on_request(const request_observation& o) override;
  void on_retry(std::string_view method, std::string_view reason) override;

  std::uint64_t requests(std::string_view method, std::string_view code) const;  // any host
  std::uint64_t requests_total() const;
  std::uint64_t retries() const;
  // Cumulative count of observations with latency <= buckets[i]; i == size is +Inf.
  std::array<std::uint64_t, buckets.size() + 1> latency_histogram() const;
  std::map<std::tuple<std::string, std::string, std::string>, std::uint64_t> by_method_code_host() const;

 private:
  mutable std::mutex mu_;
  std::map<std::tuple<std::string, std::string, std::string>, std::uint64_t> counts_;
  std::array<std::uint64_t, buckets.size() + 1> histogram_{};
  std::uint64_t retries_ = 0;
};

}  // namespace c5c3::k8s
