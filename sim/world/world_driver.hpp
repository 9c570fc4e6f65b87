// Drives the simulated world over a client_world_api on a thread of its own,
// as every host of it does (`c5c3-sim world`, the embedded default, tests): a
// pass on every watch event of the simulated kinds, when a step asks to come
// back, and at least every `resync`; sooner after a failed write.
#pragma once

#include "sim/world/client_world_api.hpp"
#include "sim/world/world.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace c5c3::sim::world {

struct driver_options {
  std::chrono::milliseconds unsynced_poll{200};  // while the informers have not listed yet
  std::chrono::milliseconds error_retry{1000};   // after a pass with a failed write
  std::chrono::milliseconds resync{30'000};
};

class world_driver {
 public:
  // Starts the api's informers and the driver thread; `api` must outlive it.
  world_driver(client_world_api& api, world_options wo, driver_options o = {});
  ~world_driver();  // stop()
  world_driver(const world_driver&) = delete;
  world_driver& operator=(const world_driver&) = delete;

  // Waits until a pass had nothing to write (the world caught up with what it
  // found), at most `limit`; whether it did.
  bool wait_settled(std::chrono::milliseconds limit);
  // Ends the driver thread, then the api's informers; idempotent.
  void stop();

 private:
  void run(world_options wo);

  client_world_api& api_;
  driver_options opts_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool dirty_ = true;
  bool stopping_ = false;
  bool settled_ = false;
  std::thread thread_;
};

}  // namespace c5c3::sim::world
