#include "actors/operator/health.hpp"

#include "actors/runtime/metrics.hpp"

namespace c5c3::operator_ {

bool readiness::ready() const {
  if (!ready_.load(std::memory_order_acquire)) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  return !predicate_ || predicate_();
}

void readiness::set_predicate(std::function<bool()> p) {
  std::lock_guard<std::mutex> lock(mutex_);
  predicate_ = std::move(p);
}

namespace {

k8s::http_response text(int status, std::string body, const char* type = "text/plain; charset=utf-8") {
  k8s::http_response res;
  res.status = status;
  res.headers = {{"Content-Type", type}, {"X-Content-Type-Options", "nosniff"}};
  res.body = std::move(body);
  return res;
}

bool readable(const k8s::http_request& req) { return req.method == "GET" || req.method == "HEAD"; }

k8s::http_response finish(const k8s::http_request& req, k8s::http_response res) {
  if (req.method == "HEAD") res.body.clear();
  return res;
}

}  // namespace

k8s::http_response probe_response(const k8s::http_request& req, const readiness& r) {
  if (req.path != "/livez" && req.path != "/readyz" && req.path != "/healthz") return text(404, "404 page not found\n");
  if (!readable(req)) return text(405, "method not allowed\n");
  if (req.path == "/readyz" && !r.ready())
    return finish(req, text(500, "[-]informers failed: not synced yet\nreadyz check failed\n"));
  return finish(req, text(200, "ok"));
}

k8s::http_response metrics_response(const k8s::http_request& req, const std::function<std::string()>& render) {
  if (req.path != "/metrics") return text(404, "404 page not found\n");
  if (!readable(req)) return text(405, "method not allowed\n");
  return finish(req, text(200, render(), runtime::metrics::content_type));
}

}  // namespace c5c3::operator_
