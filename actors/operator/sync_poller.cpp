#include "actors/operator/sync_poller.hpp"

#include "protocol/clusters.hpp"

#include <caf/all.hpp>

namespace c5c3::operator_ {

namespace {

using tick_atom = caf::atom_constant<caf::atom("sync_tick")>;

caf::behavior poller(caf::event_based_actor* self, caf::actor directory, std::shared_ptr<std::atomic<bool>> synced,
                     caf::timespan period) {
  self->send(self, tick_atom::value);
  return {
      [=](tick_atom) {
        self->request(directory, std::chrono::seconds(10), protocol::synced_atom::value)
            .then(
                [=](bool b) {
                  synced->store(b, std::memory_order_release);
                  self->delayed_send(self, period, tick_atom::value);
                },
                [=](const caf::error&) {
                  synced->store(false, std::memory_order_release);
                  self->delayed_send(self, period, tick_atom::value);
                });
      },
  };
}

}  // namespace

caf::actor spawn_sync_poller(caf::actor_system& sys, caf::actor directory, std::shared_ptr<std::atomic<bool>> synced,
                             caf::timespan period) {
  return sys.spawn(poller, std::move(directory), std::move(synced), period);
}

}  // namespace c5c3::operator_
