#include "actors/cluster/reachability.hpp"

namespace c5c3::cluster {

void reachability_observer::on_request(const k8s::request_observation& o) {
  bool failed = o.code == "<error>";
  if (failed) {
    std::lock_guard<std::mutex> l(mu_);
    failure_ = o.error;
  }
  state_.store(failed ? no_answer : answered, std::memory_order_release);
  if (inner_) inner_->on_request(o);
}

std::string reachability_observer::last_failure() const {
  std::lock_guard<std::mutex> l(mu_);
  return failure_;
}

void reachability_observer::on_retry(std::string_view method, std::string_view reason) {
  if (inner_) inner_->on_retry(method, reason);
}

}  // namespace c5c3::cluster
