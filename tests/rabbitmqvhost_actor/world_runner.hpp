// The simulated world (sim/world) driven against an API server on its own
// client and threads, as `c5c3-sim world` runs it: a pass on every watch
// event and when a step asks to come back. Plus a blocking client for the
// test's own writes. Its requests are not the operator's: the operator's
// cluster actor has a client of its own.
#pragma once

#include "k8s/client/client.hpp"
#include "sim/world/client_world_api.hpp"
#include "sim/world/memory_broker.hpp"
#include "sim/world/world.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <thread>

namespace c5c3::testing {

class world_runner {
 public:
  std::shared_ptr<sim::world::memory_broker> broker = std::make_shared<sim::world::memory_broker>();
  std::shared_ptr<sim::world::kv_store> openbao = std::make_shared<sim::world::kv_store>();

  explicit world_runner(const k8s::client_config& cfg)
      : guard_(boost::asio::make_work_guard(io_)), io_thread_([this] { io_.run(); }) {
    auto c = k8s::client::create(io_, cfg);
    if (!c.ok()) throw std::runtime_error("world client: " + c.error());
    client_ = c.value();
    api_ = std::make_unique<sim::world::client_world_api>(client_);
  }

  ~world_runner() { stop(); }

  void start() {
    sim::world::world_options wo;
    wo.rabbitmq = broker;
    wo.openbao = openbao;
    world_ = std::make_unique<sim::world::world>(*api_, wo);
    api_->start([this] {
      std::lock_guard lock(mu_);
      dirty_ = true;
      cv_.notify_one();
    });
    loop_ = std::thread([this] { run(); });
  }

  void stop() {
    {
      std::lock_guard lock(mu_);
      if (stopped_) return;
      stopped_ = true;
      cv_.notify_one();
    }
    if (loop_.joinable()) loop_.join();
    api_->stop();
    guard_.reset();
    io_.stop();
    if (io_thread_.joinable()) io_thread_.join();
  }

  k8s::client& client() { return *client_; }

  // Blocking calls for the test's own writes.
  k8s::result<k8s::object> create(const k8s::object& o) {
    std::promise<k8s::result<k8s::object>> p;
    auto f = p.get_future();
    client_->create(o, {"test", false}, [&p](k8s::result<k8s::object> r) { p.set_value(std::move(r)); });
    return f.get();
  }
  k8s::result<k8s::object> merge_patch(const k8s::gvk& gvk, const std::string& ns, const std::string& name,
                                       const std::string& body) {
    std::promise<k8s::result<k8s::object>> p;
    auto f = p.get_future();
    k8s::patch_options po;
    po.field_manager = "test";
    client_->patch(gvk, ns, name, k8s::patch_type::merge, body, po,
                   [&p](k8s::result<k8s::object> r) { p.set_value(std::move(r)); });
    return f.get();
  }
  k8s::result<k8s::object> remove(const k8s::gvk& gvk, const std::string& ns, const std::string& name) {
    std::promise<k8s::result<k8s::object>> p;
    auto f = p.get_future();
    client_->remove(gvk, ns, name, {}, [&p](k8s::result<k8s::object> r) { p.set_value(std::move(r)); });
    return f.get();
  }

 private:
  void run() {
    constexpr auto resync = std::chrono::seconds(30);
    auto next = k8s::clock::now();
    for (;;) {
      {
        std::unique_lock lock(mu_);
        cv_.wait_until(lock, next, [&] { return stopped_ || dirty_ || k8s::clock::now() >= next; });
        if (stopped_) return;
        dirty_ = false;
      }
      if (!api_->synced()) {
        next = k8s::clock::now() + std::chrono::milliseconds(50);
        continue;
      }
      auto r = world_->pass();
      auto now = k8s::clock::now();
      next = std::min(r.next_pass.value_or(now + resync), now + resync);
      if (r.write_errors) next = std::min(next, now + std::chrono::milliseconds(200));
    }
  }

  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_;
  std::thread io_thread_;
  std::shared_ptr<k8s::client> client_;
  std::unique_ptr<sim::world::client_world_api> api_;
  std::unique_ptr<sim::world::world> world_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool dirty_ = true;
  bool stopped_ = false;
  std::thread loop_;
};

}  // namespace c5c3::testing
