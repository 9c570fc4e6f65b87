#include "sim/world/world_driver.hpp"

namespace c5c3::sim::world {

world_driver::world_driver(client_world_api& api, world_options wo, driver_options o) : api_(api), opts_(o) {
  api_.start([this] {
    std::lock_guard lock(mu_);
    dirty_ = true;
    cv_.notify_all();
  });
  thread_ = std::thread([this, wo = std::move(wo)]() mutable { run(std::move(wo)); });
}

world_driver::~world_driver() { stop(); }

void world_driver::run(world_options wo) {
  world w(api_, std::move(wo));
  auto next = k8s::clock::now();
  for (;;) {
    {
      std::unique_lock lock(mu_);
      cv_.wait_until(lock, next, [&] { return stopping_ || dirty_ || k8s::clock::now() >= next; });
      if (stopping_) return;
      dirty_ = false;
    }
    if (!api_.synced()) {
      next = k8s::clock::now() + opts_.unsynced_poll;
      continue;
    }
    auto r = w.pass();
    if (r.writes == 0 && r.write_errors == 0) {
      std::lock_guard lock(mu_);
      settled_ = true;
      cv_.notify_all();
    }
    auto now = k8s::clock::now();
    next = std::min(r.next_pass.value_or(now + opts_.resync), now + opts_.resync);
    if (r.write_errors) next = std::min(next, now + opts_.error_retry);
  }
}

bool world_driver::wait_settled(std::chrono::milliseconds limit) {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, limit, [this] { return settled_ || stopping_; }) && settled_;
}

void world_driver::stop() {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    cv_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
  api_.stop();
}

}  // namespace c5c3::sim::world
