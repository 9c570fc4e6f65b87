#include "actors/operator/sync_poller.hpp"

#include "actors/runtime/order_log.hpp"
#include "protocol/clusters.hpp"

#include <caf/all.hpp>

#include <set>
#include <string>
#include <vector>

namespace c5c3::operator_ {

namespace {

using tick_atom = caf::atom_constant<caf::atom("sync_tick")>;

struct poller_state {
  static inline const char* name = "c5c3.sync_poller";
  runtime::metrics::gauge_family* reachable = nullptr;
  runtime::metrics::gauge_family* synced = nullptr;
  runtime::change_memory logged;  // "unreachable <cluster>"
  std::set<std::string> targets;  // with series, as of the last answer
};

using self_ptr = caf::stateful_actor<poller_state>*;

void on_health(self_ptr self, const poller_options& opts, const std::vector<protocol::cluster_health>& all) {
  auto& st = self->state;
  std::set<std::string> now;
  for (const auto& h : all) {
    if (h.cluster.empty()) continue;  // the management cluster: /readyz
    now.insert(h.cluster);
    if (st.reachable) st.reachable->with({h.cluster}).set(h.known && h.reachable ? 1 : 0);
    if (st.synced) st.synced->with({h.cluster}).set(h.synced ? 1 : 0);
    auto topic = "unreachable " + h.cluster;
    if (h.known && !h.reachable)
      runtime::log_once(st.logged, opts.log, k8s::log::level::warn, topic, "Target cluster unreachable",
                        h.error.empty() ? std::string("no answer from its API server") : h.error,
                        {{"cluster", h.cluster}});
    else if (h.known)
      runtime::log_recovered(st.logged, opts.log, topic, "Target cluster reachable", {{"cluster", h.cluster}});
  }
  for (const auto& gone : st.targets) {
    if (now.count(gone) != 0) continue;
    if (st.reachable) st.reachable->remove({gone});
    if (st.synced) st.synced->remove({gone});
    st.logged.forget("unreachable " + gone);
  }
  st.targets = std::move(now);
}

caf::behavior poller(self_ptr self, caf::actor directory, std::shared_ptr<std::atomic<bool>> synced,
                     poller_options opts) {
  if (opts.registry) {
    self->state.reachable = &opts.registry->gauge(
        "c5c3_target_cluster_reachable",
        "Whether the last request to the target cluster's API server got an answer (1) or none (0).", {"cluster"});
    self->state.synced = &opts.registry->gauge(
        "c5c3_target_cluster_synced", "Whether every watch on the target cluster has its initial list (1) or not (0).",
        {"cluster"});
  }
  self->send(self, tick_atom::value);
  return {
      [=](tick_atom) {
        auto next = [=] { self->delayed_send(self, opts.period, tick_atom::value); };
        self->request(directory, std::chrono::seconds(10), protocol::synced_atom::value)
            .then(
                [=](bool b) {
                  synced->store(b, std::memory_order_release);
                  next();
                },
                [=](const caf::error&) {
                  synced->store(false, std::memory_order_release);
                  next();
                });
        self->request(directory, std::chrono::seconds(10), protocol::health_atom::value)
            .then([=](const std::vector<protocol::cluster_health>& all) { on_health(self, opts, all); },
                  [](const caf::error&) {});
      },
  };
}

}  // namespace

caf::actor spawn_sync_poller(caf::actor_system& sys, caf::actor directory, std::shared_ptr<std::atomic<bool>> synced,
                             poller_options opts) {
  return sys.spawn(poller, std::move(directory), std::move(synced), std::move(opts));
}

caf::actor spawn_sync_poller(caf::actor_system& sys, caf::actor directory, std::shared_ptr<std::atomic<bool>> synced,
                             caf::timespan period) {
  poller_options o;
  o.period = period;
  return spawn_sync_poller(sys, std::move(directory), std::move(synced), std::move(o));
}

}  // namespace c5c3::operator_
