#include "sim/monitoring/standin_server.hpp"

#include "sim/apiserver/pki.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <thread>

namespace c5c3::sim::monitoring {

namespace {

std::string scheme_of(std::string_view authorization) {
  auto sp = authorization.find(' ');
  return std::string(authorization.substr(0, sp == std::string_view::npos ? 0 : sp));
}

}  // namespace

std::string status_text(int status) {
  switch (status) {
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 409: return "Conflict";
    case 412: return "Precondition Failed";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "Error";
  }
}

k8s::http_response json_response(int status, const k8s::json_value& body) {
  return {status, {{"Content-Type", "application/json"}}, k8s::to_json(body)};
}

k8s::http_response text_response(int status, std::string body) {
  return {status, {{"Content-Type", "text/plain; charset=utf-8"}}, std::move(body)};
}

standin_server::standin_server(std::string name, std::shared_ptr<standin_core> core, standin_options o)
    : name_(std::move(name)), core_(std::move(core)), opts_(std::move(o)) {
  if (opts_.tls) {
    auto ca = make_ca("c5c3-sim-" + name_ + "-ca");
    auto serving = make_signed(ca, "c5c3-sim-" + name_, {}, true, {"localhost"}, {"127.0.0.1"});
    ca_pem_ = ca.cert_pem;
    cert_pem_ = serving.cert_pem;
    key_pem_ = serving.key_pem;
  }
  if (!opts_.faults_file.empty()) {
    std::string text;
    if (FILE* f = std::fopen(opts_.faults_file.c_str(), "rb")) {
      char buf[4096];
      std::size_t n;
      while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
      std::fclose(f);
    } else {
      throw std::runtime_error("cannot read " + opts_.faults_file);
    }
    for (auto& r : faults_from_text(text)) faults_.add(r);
  }
}

standin_server::~standin_server() { stop(); }

void standin_server::start() {
  if (server_) return;
  std::string listen = opts_.listen;
  if (port_ != 0) listen = listen.substr(0, listen.rfind(':')) + ":" + std::to_string(port_);
  std::optional<k8s::tls_config> tls;
  if (opts_.tls) tls = k8s::tls_config{cert_pem_, key_pem_, ""};
  server_ = std::make_unique<k8s::http_server>(
      listen, tls, [this](const k8s::http_request& req, k8s::http_responder& res) { serve(req, res); });
  server_->start();
  port_ = server_->port();
}

void standin_server::stop() {
  if (!server_) return;
  server_->stop();
  server_.reset();
}

bool standin_server::running() const { return static_cast<bool>(server_); }

std::uint16_t standin_server::port() const { return port_; }

std::string standin_server::url() const {
  return fmt::format("{}://127.0.0.1:{}", opts_.tls ? "https" : "http", port_);
}

std::string standin_server::ca_pem() const { return ca_pem_; }

std::vector<request_record> standin_server::requests() const {
  std::lock_guard lock(log_mu_);
  return log_;
}

void standin_server::clear_requests() {
  std::lock_guard lock(log_mu_);
  log_.clear();
}

void standin_server::record(const k8s::http_request& req, int status) {
  std::lock_guard lock(log_mu_);
  request_record r;
  r.seq = ++seq_;
  r.method = req.method;
  r.path = req.path;
  r.query = req.query;
  r.status = status;
  r.auth = scheme_of(req.header("Authorization"));
  r.body = req.body.substr(0, 64 * 1024);
  log_.push_back(std::move(r));
}

std::optional<k8s::http_response> standin_server::serve_admin(const k8s::http_request& req) {
  const std::string& p = req.path;
  k8s::json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  if (p == "/sim/faults" || p.rfind("/sim/faults/", 0) == 0) {
    if (req.method == "GET") {
      k8s::json_value rules(rapidjson::kArrayType), fired(rapidjson::kObjectType);
      for (auto& r : faults_.rules()) rules.PushBack(fault_to_json(r, a), a);
      for (auto& [id, n] : faults_.fired()) fired.AddMember(k8s::make_string(id, a), k8s::json_value(n), a);
      d.AddMember("rules", std::move(rules), a);
      d.AddMember("fired", std::move(fired), a);
      return json_response(200, d);
    }
    if (req.method == "POST") {
      try {
        k8s::json_value ids(rapidjson::kArrayType);
        for (auto& r : faults_from_text(req.body)) ids.PushBack(k8s::make_string(faults_.add(r), a), a);
        d.AddMember("ids", std::move(ids), a);
        return json_response(201, d);
      } catch (const std::exception& e) {
        return text_response(400, std::string(e.what()) + "\n");
      }
    }
    if (req.method == "DELETE") {
      if (p == "/sim/faults") {
        faults_.clear();
        return text_response(200, "ok\n");
      }
      return faults_.remove(p.substr(std::string("/sim/faults/").size())) ? text_response(200, "ok\n")
                                                                          : text_response(404, "no such rule\n");
    }
    return text_response(405, "method not allowed\n");
  }
  if (p == "/sim/requests") {
    if (req.method == "DELETE") {
      clear_requests();
      return text_response(200, "ok\n");
    }
    k8s::json_value list(rapidjson::kArrayType);
    for (auto& r : requests()) {
      k8s::json_value e(rapidjson::kObjectType);
      e.AddMember("seq", static_cast<std::uint64_t>(r.seq), a);
      e.AddMember("method", k8s::make_string(r.method, a), a);
      e.AddMember("path", k8s::make_string(r.path, a), a);
      e.AddMember("query", k8s::make_string(r.query, a), a);
      e.AddMember("status", r.status, a);
      e.AddMember("auth", k8s::make_string(r.auth, a), a);
      list.PushBack(std::move(e), a);
    }
    d.AddMember("requests", std::move(list), a);
    return json_response(200, d);
  }
  std::lock_guard lock(core_mu_);
  if (p == "/sim/state" && req.method == "GET") return json_response(200, core_->state());
  return core_->admin(req);
}

void standin_server::serve(const k8s::http_request& req, k8s::http_responder& res) {
  if (req.path.rfind("/sim/", 0) == 0) {
    auto answer = serve_admin(req);
    res.send(answer ? std::move(*answer) : text_response(404, "404 page not found\n"));
    return;
  }
  if (auto f = faults_.match(req.method, req.path)) {
    if (f->latency.count() > 0) std::this_thread::sleep_for(f->latency);
    if (f->reset) {
      record(req, 0);
      res.reset_connection();
      return;
    }
    if (f->status > 0) {
      k8s::http_response r;
      {
        std::lock_guard lock(core_mu_);
        r = core_->error(f->status, f->message.empty() ? status_text(f->status) : f->message);
      }
      record(req, r.status);
      res.send(std::move(r));
      return;
    }
  }
  k8s::http_response r;
  {
    std::lock_guard lock(core_mu_);
    // Absolute URLs in answers (Rancher's links) use the address the client dialled.
    auto host = req.header("Host");
    r = core_->handle(req, host.empty() ? url() : (opts_.tls ? "https://" : "http://") + std::string(host));
  }
  record(req, r.status);
  res.send(std::move(r));
}

}  // namespace c5c3::sim::monitoring
