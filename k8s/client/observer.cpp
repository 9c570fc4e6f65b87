#include "k8s/client/observer.hpp"

namespace c5c3::k8s {

void request_counters::on_request(const request_observation& o) {
  std::lock_guard lock(mu_);
  ++counts_[{o.method, o.code, o.host}];
  double s = std::chrono::duration<double>(o.latency).count();
  for (std::size_t i = 0; i < buckets.size(); ++i)
    if (s <= buckets[i]) ++histogram_[i];
  ++histogram_[buckets.size()];
}

void request_counters::on_retry(std::string_view, std::string_view) {
  std::lock_guard lock(mu_);
  ++retries_;
}

std::uint64_t request_counters::requests(std::string_view method, std::string_view code) const {
  std::lock_guard lock(mu_);
  std::uint64_t n = 0;
  for (const auto& [k, v] : counts_)
    if (std::get<0>(k) == method && std::get<1>(k) == code) n += v;
  return n;
}

std::uint64_t request_counters::requests_total() const {
  std::lock_guard lock(mu_);
  std::uint64_t n = 0;
  for (const auto& [k, v] : counts_) n += v;
  return n;
}

std::uint64_t request_counters::retries() const {
  std::lock_guard lock(mu_);
  return retries_;
}

std::array<std::uint64_t, request_counters::buckets.size() + 1> request_counters::latency_histogram()
    const {
  std::lock_guard lock(mu_);
  return histogram_;
}

std::map<std::tuple<std::string, std::string, std::string>, std::uint64_t>
request_counters::by_method_code_host() const {
  std::lock_guard lock(mu_);
  return counts_;
}

}  // namespace c5c3::k8s
