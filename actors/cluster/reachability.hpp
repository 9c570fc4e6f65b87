// Whether an API server answers: a client_observer the cluster actor puts in
// front of the one its client was configured with (the rest_client metrics),
// recording the outcome of the last HTTP exchange that ended: an answer
// (any status code) or none (a refused or reset connection, a timeout).
// Thread-safe: the client reports from its io thread, the actor reads.
#pragma once

#include "k8s/client/observer.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

namespace c5c3::cluster {

class reachability_observer : public k8s::client_observer {
 public:
  explicit reachability_observer(std::shared_ptr<k8s::client_observer> inner) : inner_(std::move(inner)) {}

  void on_request(const k8s::request_observation& o) override;
  void on_retry(std::string_view method, std::string_view reason) override;

  // Some exchange has ended.
  bool known() const { return state_.load(std::memory_order_acquire) != unknown; }
  // The last exchange that ended got an HTTP answer.
  bool reachable() const { return state_.load(std::memory_order_acquire) == answered; }
  // What the last exchange without an answer met ("" before any).
  std::string last_failure() const;

 private:
  enum : int { unknown, answered, no_answer };
  std::shared_ptr<k8s::client_observer> inner_;
  std::atomic<int> state_{unknown};
  mutable std::mutex mu_;
  std::string failure_;  // guarded by mu_
};

}  // namespace c5c3::cluster
