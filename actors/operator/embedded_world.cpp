#include "actors/operator/embedded_world.hpp"

#include "sim/world/client_world_api.hpp"
#include "sim/world/kv_store.hpp"
#include "sim/world/memory_broker.hpp"
#include "sim/world/world_driver.hpp"

namespace c5c3::operator_ {

struct embedded_world::state {
  state(std::shared_ptr<k8s::client> c, sim::world::world_options wo) : api(std::move(c)), driver(api, std::move(wo)) {}
  sim::world::client_world_api api;
  sim::world::world_driver driver;  // after api: stopped first
};

namespace {

sim::world::world_options embedded_options(const k8s::log::logger& log) {
  sim::world::world_options wo;
  wo.openbao = std::make_shared<sim::world::kv_store>();
  wo.rabbitmq = std::make_shared<sim::world::memory_broker>();
  wo.log = [log](const std::string& m) { log.info(m); };
  return wo;
}

}  // namespace

embedded_world::embedded_world(std::shared_ptr<k8s::client> client, k8s::log::logger log)
    : s_(std::make_unique<state>(std::move(client), embedded_options(log))) {}

embedded_world::~embedded_world() { stop(); }

bool embedded_world::wait_settled(std::chrono::milliseconds limit) { return s_->driver.wait_settled(limit); }

void embedded_world::stop() { s_->driver.stop(); }

}  // namespace c5c3::operator_
