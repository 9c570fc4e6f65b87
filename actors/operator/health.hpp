// The probe endpoints: /livez answers ok while the process serves at all (no
// dependency checks); /readyz answers ok once the readiness predicate holds
// (the informers have synced). Until the cluster actor exists, readiness is a
// flag main() sets; the cluster actor plugs its own predicate in later.
#pragma once

#include "k8s/server/http_server.hpp"

#include <atomic>
#include <functional>
#include <mutex>

namespace c5c3::operator_ {

class readiness {
 public:
  // Ready when the flag is set and, if a predicate is installed, it holds.
  bool ready() const;
  void set_ready(bool r) { ready_.store(r, std::memory_order_release); }
  void set_predicate(std::function<bool()> p);

 private:
  std::atomic<bool> ready_{false};
  mutable std::mutex mutex_;
  std::function<bool()> predicate_;
};

// The answer to one request on the health probe address: GET or HEAD of
// /livez, /readyz (and /healthz as /livez); 404 otherwise, 405 for other methods.
k8s::http_response probe_response(const k8s::http_request& req, const readiness& r);

// The answer on the metrics address: GET /metrics renders the registry.
k8s::http_response metrics_response(const k8s::http_request& req, const std::function<std::string()>& render);

}  // namespace c5c3::operator_
