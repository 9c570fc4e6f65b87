// The simulated world of the embedded default: sim/world's controllers
// (RabbitMQ cluster and topology operators over an in-memory broker, External
// Secrets over an in-memory OpenBao) driven as `c5c3-sim world --kubeconfig`
// drives them, on a thread of their own, through their own client of the
// emulator. Passes run on every watch event and when a step asks to come back.
#pragma once

#include "k8s/client/client.hpp"
#include "k8s/log.hpp"

#include <chrono>
#include <memory>

namespace c5c3::operator_ {

class embedded_world {
 public:
  // Starts the informers and the driver thread.
  embedded_world(std::shared_ptr<k8s::client> client, k8s::log::logger log);
  ~embedded_world();  // stop()
  embedded_world(const embedded_world&) = delete;
  embedded_world& operator=(const embedded_world&) = delete;

  // Waits until a pass has nothing left to write (the world has caught up
  // with what it found), at most `limit`; whether it did.
  bool wait_settled(std::chrono::milliseconds limit);

  // Ends the driver thread and the informers; idempotent.
  void stop();

  struct state;

 private:
  std::unique_ptr<state> s_;
};

}  // namespace c5c3::operator_
