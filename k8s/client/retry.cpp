#include "k8s/client/retry.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace c5c3::k8s {

std::chrono::milliseconds backoff_delay(const retry_policy& p, int attempt, double random01) {
  double base = static_cast<double>(p.initial_backoff.count()) *
                std::pow(std::max(p.factor, 1.0), std::max(attempt - 1, 0));
  base = std::min(base, static_cast<double>(p.max_backoff.count()));
  double stretched = base * (1.0 + std::max(p.jitter, 0.0) * std::clamp(random01, 0.0, 1.0));
  return std::chrono::milliseconds(static_cast<std::int64_t>(stretched));
}

bool should_retry(std::string_view method, const api_error& e, bool nothing_sent) {
  if (e.transport()) return nothing_sent || method == "GET" || method == "HEAD";
  if (e.code == 429) return true;
  if (e.code >= 500 && e.retry_after_seconds) return true;
  if (e.code >= 500) return method == "GET" || method == "HEAD";
  return false;
}

std::chrono::milliseconds retry_delay(const retry_policy& p, const api_error& e, int attempt,
                                      double random01) {
  if (e.retry_after_seconds && *e.retry_after_seconds >= 0) {
    std::chrono::milliseconds ra{static_cast<std::int64_t>(*e.retry_after_seconds) * 1000};
    return std::min(ra, p.max_retry_after);
  }
  return backoff_delay(p, attempt, random01);
}

api_error deadline_exceeded(std::string request, std::string_view object, std::string_view why,
                            const api_error* last) {
  api_error e;
  e.code = 0;
  e.reason = std::string(reasons::timeout);
  e.request = std::move(request);
  e.message = "the caller's deadline passed ";
  e.message += why;
  if (!object.empty()) {
    e.message += " (";
    e.message += object;
    e.message += ")";
  }
  if (last) {
    // What the last attempt met, without its request line (already the head).
    auto text = last->describe();
    if (!last->request.empty() && text.starts_with(last->request + ": ")) text.erase(0, last->request.size() + 2);
    e.message += "; the last attempt met: " + text;
  }
  return e;
}

bool is_deadline_exceeded(const api_error& e) { return e.code == 0 && e.reason == reasons::timeout; }

std::optional<int> parse_retry_after(std::string_view h) {
  while (!h.empty() && std::isspace(static_cast<unsigned char>(h.front()))) h.remove_prefix(1);
  while (!h.empty() && std::isspace(static_cast<unsigned char>(h.back()))) h.remove_suffix(1);
  if (h.empty() || h.size() > 9) return std::nullopt;
  int v = 0;
  for (char c : h) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

token_bucket::token_bucket(double qps, int burst, clock::time_point now)
    : qps_(qps), burst_(std::max(burst, 1)), tokens_(burst_), last_(now) {}

std::chrono::nanoseconds token_bucket::reserve(clock::time_point now) {
  if (unlimited()) return std::chrono::nanoseconds{0};
  if (now > last_) {
    tokens_ = std::min(burst_, tokens_ + std::chrono::duration<double>(now - last_).count() * qps_);
    last_ = now;
  }
  tokens_ -= 1.0;
  if (tokens_ >= 0) return std::chrono::nanoseconds{0};
  // Wait until the deficit is refilled (measured from `last_`, which may be
  // in the future only through `now`; it is not moved forward here).
  double wait_s = -tokens_ / qps_;
  return std::chrono::nanoseconds(static_cast<std::int64_t>(wait_s * 1e9));
}

}  // namespace c5c3::k8s
