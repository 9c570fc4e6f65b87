#include "actors/operator/embedded_world.hpp"

#include "sim/world/client_world_api.hpp"
#include "sim/world/kv_store.hpp"
#include "sim/world/memory_broker.hpp"
#include "sim/world/world.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace c5c3::operator_ {

struct embedded_world::state {
  explicit state(std::shared_ptr<k8s::client> c) : api(std::move(c)) {}
  sim::world::client_world_api api;
  std::mutex mu;
  std::condition_variable cv;
  bool dirty = true;
  bool stopping = false;
  bool stopped = false;
  bool settled = false;  // a pass wrote nothing
  std::condition_variable settled_cv;
  std::thread driver;
};

embedded_world::embedded_world(std::shared_ptr<k8s::client> client, k8s::log::logger log)
    : s_(std::make_unique<state>(std::move(client))) {
  sim::world::world_options wo;
  wo.openbao = std::make_shared<sim::world::kv_store>();
  wo.rabbitmq = std::make_shared<sim::world::memory_broker>();
  wo.log = [log](const std::string& m) { log.info(m); };
  state* s = s_.get();
  s->api.start([s] {
    std::lock_guard lock(s->mu);
    s->dirty = true;
    s->cv.notify_one();
  });
  s->driver = std::thread([s, wo = std::move(wo)]() mutable {
    sim::world::world w(s->api, std::move(wo));
    constexpr auto resync = std::chrono::seconds(30);
    auto next = k8s::clock::now() + resync;
    for (;;) {
      {
        std::unique_lock lock(s->mu);
        s->cv.wait_until(lock, next, [&] { return s->stopping || s->dirty || k8s::clock::now() >= next; });
        if (s->stopping) return;
        s->dirty = false;
      }
      if (!s->api.synced()) {
        next = k8s::clock::now() + std::chrono::milliseconds(200);
        continue;
      }
      auto r = w.pass();
      if (r.writes == 0 && r.write_errors == 0) {
        std::lock_guard lock(s->mu);
        s->settled = true;
        s->settled_cv.notify_all();
      }
      auto now = k8s::clock::now();
      next = std::min(r.next_pass.value_or(now + resync), now + resync);
      if (r.write_errors) next = std::min(next, now + std::chrono::seconds(1));
    }
  });
}

embedded_world::~embedded_world() { stop(); }

bool embedded_world::wait_settled(std::chrono::milliseconds limit) {
  std::unique_lock lock(s_->mu);
  return s_->settled_cv.wait_for(lock, limit, [this] { return s_->settled || s_->stopping; }) && s_->settled;
}

void embedded_world::stop() {
  {
    std::lock_guard lock(s_->mu);
    if (s_->stopped) return;
    s_->stopped = true;
    s_->stopping = true;
    s_->cv.notify_one();
  }
  if (s_->driver.joinable()) s_->driver.join();
  s_->api.stop();
}

}  // namespace c5c3::operator_
