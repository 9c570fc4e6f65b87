// The simulated world (sim/world) driven against an API server on its own
// client and threads, as `c5c3-sim world` runs it: a pass on every watch
// event and when a step asks to come back. Plus a blocking client for the
// test's own writes. Its requests are not the operator's: the operator's
// cluster actor has a client of its own.
#pragma once

#include "k8s/client/blocking.hpp"
#include "k8s/client/client.hpp"
#include "sim/world/client_world_api.hpp"
#include "sim/world/memory_broker.hpp"
#include "sim/world/memory_identity.hpp"
#include "sim/world/world_driver.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <functional>
#include <memory>
#include <map>
#include <string>
#include <thread>

namespace c5c3::testing {

class world_runner {
 public:
  std::shared_ptr<sim::world::memory_broker> broker = std::make_shared<sim::world::memory_broker>();
  std::shared_ptr<sim::world::kv_store> openbao = std::make_shared<sim::world::kv_store>();
  // The Keystone K-ORC talks to; `configure` (set before start) may replace
  // it with a real one, or change K-ORC's timings.
  std::shared_ptr<sim::world::memory_identity> identity = std::make_shared<sim::world::memory_identity>();
  std::function<void(sim::world::world_options&)> configure;

  explicit world_runner(const k8s::client_config& cfg)
      : guard_(boost::asio::make_work_guard(io_)), io_thread_([this] { io_.run(); }) {
    auto c = k8s::client::create(io_, cfg);
    if (!c.ok()) throw std::runtime_error("world client: " + c.error());
    client_ = c.value();
    api_ = std::make_unique<sim::world::client_world_api>(client_);
  }

  ~world_runner() { stop(); }

  // What OpenBao holds under the first remote key starting with `prefix`,
  // against `want` (the values delivered under those keys): "none", "same",
  // or "differs:" and the keys that differ.
  std::string pushed(const std::string& prefix, const std::map<std::string, std::string>& want) const {
    for (const auto& key : openbao->keys()) {
      if (key.rfind(prefix, 0) != 0) continue;
      auto entry = openbao->get(key);
      if (!entry) continue;
      std::string differs;
      for (const auto& [k, v] : want)
        if (auto it = entry->find(k); it == entry->end() || it->second != v) differs += " " + k;
      return differs.empty() ? "same" : "differs:" + differs;
    }
    return "none";
  }

  void start() {
    sim::world::world_options wo;
    wo.rabbitmq = broker;
    wo.openbao = openbao;
    wo.identity = identity;
    if (configure) configure(wo);
    // Quicker than the defaults: tests wait on the world.
    driver_ = std::make_unique<sim::world::world_driver>(
        *api_, wo, sim::world::driver_options{std::chrono::milliseconds(50), std::chrono::milliseconds(200)});
  }

  void stop() {
    if (driver_) driver_->stop();
    guard_.reset();
    io_.stop();
    if (io_thread_.joinable()) io_thread_.join();
  }

  k8s::client& client() { return *client_; }

  // Blocking calls for the test's own writes.
  k8s::result<k8s::object> create(const k8s::object& o) {
    return k8s::wait_for<k8s::object>(
        [&](k8s::callback<k8s::object> cb) { client_->create(o, {"test", false}, std::move(cb)); });
  }
  k8s::result<k8s::object> merge_patch(const k8s::gvk& gvk, const std::string& ns, const std::string& name,
                                       const std::string& body) {
    k8s::patch_options po;
    po.field_manager = "test";
    return k8s::wait_for<k8s::object>([&](k8s::callback<k8s::object> cb) {
      client_->patch(gvk, ns, name, k8s::patch_type::merge, body, po, std::move(cb));
    });
  }
  k8s::result<k8s::object> remove(const k8s::gvk& gvk, const std::string& ns, const std::string& name) {
    return k8s::wait_for<k8s::object>(
        [&](k8s::callback<k8s::object> cb) { client_->remove(gvk, ns, name, {}, std::move(cb)); });
  }

 private:
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_;
  std::thread io_thread_;
  std::shared_ptr<k8s::client> client_;
  std::unique_ptr<sim::world::client_world_api> api_;
  std::unique_ptr<sim::world::world_driver> driver_;
};

}  // namespace c5c3::testing
