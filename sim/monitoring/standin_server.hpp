// The HTTP side shared by the monitoring stand-ins: a real server on loopback
// (k8s/server, plain or TLS with a CA of its own), the fault rules applied
// before the stand-in sees a request, a log of the requests answered, and the
// admin routes under /sim/ (no authentication, loopback only):
//   GET    /sim/faults          {"rules": [...], "fired": {"id": n}}
//   POST   /sim/faults          a rule, a list or {rules: [...]} (YAML or JSON) -> 201 {"ids": [...]}
//   DELETE /sim/faults[/<id>]   all rules, or one
//   GET    /sim/requests        {"requests": [{"seq","method","path","query","status","auth"}]}
//   DELETE /sim/requests
//   GET    /sim/state           the stand-in's state (standin_core::state)
// plus whatever the stand-in adds (standin_core::admin).
#pragma once

#include "k8s/json.hpp"
#include "k8s/server/http_server.hpp"
#include "sim/monitoring/faults.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::sim::monitoring {

// What a stand-in implements: pure functions of its state, called one at a
// time (the server holds a mutex around them).
class standin_core {
 public:
  virtual ~standin_core() = default;
  // `base_url` is http(s)://host:port as the client reached the server.
  virtual k8s::http_response handle(const k8s::http_request& req, const std::string& base_url) = 0;
  // The stand-in's error answer for an injected status.
  virtual k8s::http_response error(int status, const std::string& message) const = 0;
  virtual k8s::json_document state() const = 0;
  // Extra /sim/ routes; nullopt when the path is not one.
  virtual std::optional<k8s::http_response> admin(const k8s::http_request&) { return std::nullopt; }
};

struct request_record {
  std::uint64_t seq = 0;
  std::string method, path, query;
  int status = 0;     // 0: the connection was reset (fault)
  std::string auth;   // the Authorization scheme ("Bearer", "Basic") or ""; never the secret
  std::string body;   // the request body, at most 64 KiB
};

struct standin_options {
  std::string listen = "127.0.0.1:0";
  bool tls = false;          // https with a serving certificate for 127.0.0.1 and localhost
  std::string faults_file;   // fault rules loaded at start
};

// The default error text of a status ("Internal Server Error", ...).
std::string status_text(int status);

class standin_server {
 public:
  standin_server(std::string name, std::shared_ptr<standin_core> core, standin_options o = {});
  ~standin_server();
  standin_server(const standin_server&) = delete;
  standin_server& operator=(const standin_server&) = delete;

  // Binds and serves; throws std::runtime_error when it cannot. A restart
  // after stop() binds the same port again (a stand-in that went "down").
  void start();
  void stop();
  bool running() const;
  std::string url() const;  // http(s)://127.0.0.1:PORT
  std::uint16_t port() const;
  std::string ca_pem() const;  // the CA of the TLS certificate ("" over plain HTTP)
  const std::string& name() const { return name_; }

  fault_list& faults() { return faults_; }
  std::vector<request_record> requests() const;
  void clear_requests();
  // Runs `f(core)` under the server's mutex (tests read or seed the state).
  template <class F>
  auto with_core(F f) {
    std::lock_guard lock(core_mu_);
    return f(*core_);
  }

 private:
  void serve(const k8s::http_request& req, k8s::http_responder& res);
  std::optional<k8s::http_response> serve_admin(const k8s::http_request& req);
  void record(const k8s::http_request& req, int status);

  std::string name_;
  std::shared_ptr<standin_core> core_;
  standin_options opts_;
  std::string cert_pem_, key_pem_, ca_pem_;
  std::unique_ptr<k8s::http_server> server_;
  std::uint16_t port_ = 0;
  fault_list faults_;
  mutable std::mutex core_mu_;
  mutable std::mutex log_mu_;
  std::vector<request_record> log_;
  std::uint64_t seq_ = 0;
};

// JSON answers.
k8s::http_response json_response(int status, const k8s::json_value& body);
k8s::http_response text_response(int status, std::string body);

}  // namespace c5c3::sim::monitoring
