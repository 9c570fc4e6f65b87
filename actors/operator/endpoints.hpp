// The metrics and health probe servers as the options ask for them: each
// bind address becomes an http_server listen address, "0" disables it, and
// port 0 binds a free port (logged as "serving ..." with the bound address,
// which is how tests learn it).
#pragma once

#include "actors/operator/health.hpp"
#include "config/options.hpp"
#include "k8s/log.hpp"
#include "k8s/server/http_server.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace c5c3::operator_ {

// ":8080" -> "0.0.0.0:8080", "127.0.0.1:0" -> itself, "[::1]:9" -> "[::1]:9";
// nullopt when disabled.
std::optional<std::string> listen_address(const config::bind_address& a);

class endpoints {
 public:
  endpoints(const config::operator_options& opts, std::function<std::string()> render_metrics,
            std::shared_ptr<readiness> ready, k8s::log::logger log);
  ~endpoints();  // stop()

  // Answers GET /debug/... on the health address (explain.hpp); set before start().
  using debug_handler = std::function<k8s::http_response(const k8s::http_request&)>;
  void set_debug(debug_handler h) { *debug_ = std::move(h); }

  // Binds both (as enabled); throws std::runtime_error naming the address that failed.
  void start();
  void stop();

  // The bound ports (nullopt when disabled or not started).
  std::optional<std::uint16_t> metrics_port() const;
  std::optional<std::uint16_t> health_port() const;

 private:
  std::unique_ptr<k8s::http_server> metrics_;
  std::unique_ptr<k8s::http_server> health_;
  std::shared_ptr<debug_handler> debug_ = std::make_shared<debug_handler>();
  k8s::log::logger log_;
  bool started_ = false;
};

}  // namespace c5c3::operator_
