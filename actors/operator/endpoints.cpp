#include "actors/operator/endpoints.hpp"

#include <stdexcept>

namespace c5c3::operator_ {

std::optional<std::string> listen_address(const config::bind_address& a) {
  if (a.disabled) return std::nullopt;
  std::string host = a.host.empty() ? "0.0.0.0" : a.host;
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return host + ":" + std::to_string(a.port);
}

endpoints::endpoints(const config::operator_options& opts, std::function<std::string()> render_metrics,
                     std::shared_ptr<readiness> ready, k8s::log::logger log)
    : log_(std::move(log)) {
  if (auto l = listen_address(opts.metrics_bind_address))
    metrics_ = std::make_unique<k8s::http_server>(
        *l, std::nullopt, [render = std::move(render_metrics)](const k8s::http_request& req, k8s::http_responder& out) {
          out.send(metrics_response(req, render));
        });
  if (auto l = listen_address(opts.health_probe_bind_address))
    health_ = std::make_unique<k8s::http_server>(
        *l, std::nullopt,
        [ready = std::move(ready), debug = debug_](const k8s::http_request& req, k8s::http_responder& out) {
          if (req.path.rfind("/debug/", 0) == 0 && *debug) return out.send((*debug)(req));
          out.send(probe_response(req, *ready));
        });
}

endpoints::~endpoints() { stop(); }

namespace {
std::string bound(const k8s::http_server& s) {
  std::string host = s.host().empty() ? "0.0.0.0" : s.host();
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return host + ":" + std::to_string(s.port());
}
}  // namespace

void endpoints::start() {
  if (started_) return;
  if (metrics_) {
    metrics_->start();
    log_.info("Serving metrics server", {{"bindAddress", bound(*metrics_)}, {"secure", false}});
  }
  if (health_) {
    health_->start();
    log_.info("Starting health probe server", {{"bindAddress", bound(*health_)}, {"paths", "/livez,/readyz"}});
  }
  started_ = true;
}

void endpoints::stop() {
  if (health_) health_->stop();
  if (metrics_) metrics_->stop();
  started_ = false;
}

std::optional<std::uint16_t> endpoints::metrics_port() const {
  if (!metrics_ || !started_) return std::nullopt;
  return metrics_->port();
}

std::optional<std::uint16_t> endpoints::health_port() const {
  if (!health_ || !started_) return std::nullopt;
  return health_->port();
}

}  // namespace c5c3::operator_
