// The CRD bootstrap's actor (crd_bootstrap.hpp): every CRD written in turn
// (read from the API server; absent: create, AlreadyExists: read again;
// present: PUT of crd_update, Conflict: read again), then polled from the API
// server until each is Established, one fails, or the limit passes.
#include "actors/monitoring/crd_bootstrap.hpp"

#include "actors/monitoring/constants.hpp"
#include "protocol/api_error.hpp"
#include "protocol/cluster_io.hpp"
#include "protocol/clusters.hpp"

#include <caf/event_based_actor.hpp>
#include <caf/stateful_actor.hpp>

#include <fmt/format.h>

#include <memory>

namespace c5c3::monitoring {

namespace {

namespace proto = ::c5c3::protocol;
using poll_atom = caf::atom_constant<caf::atom("crdpoll")>;

constexpr int max_write_attempts = 5;

struct bootstrap_state {
  static inline const char* name = "c5c3.monitoring.crd_bootstrap";
  crd_bootstrap_options opts;
  caf::actor cluster;
  std::vector<caf::response_promise> waiting;  // answered by the run in flight
  bool running = false;
  std::uint64_t run = 0;  // the run a poll message belongs to
  caf::actor_clock::time_point deadline{};
};

using self_ptr = caf::stateful_actor<bootstrap_state>*;

std::string who(const k8s::object& crd) { return "CustomResourceDefinition " + std::string(crd.name()); }

// "5 min", "3 s", "300 ms".
std::string spelled(std::chrono::milliseconds d) {
  const auto ms = d.count();
  if (ms % 60'000 == 0) return fmt::format("{} min", ms / 60'000);
  if (ms % 1'000 == 0) return fmt::format("{} s", ms / 1'000);
  return fmt::format("{} ms", ms);
}

proto::resource_ref ref_of(const k8s::object& crd) { return {crd_gvk, "", std::string(crd.name())}; }

void finish(self_ptr self, const std::string& error) {
  auto& st = self->state;
  if (error.empty())
    st.opts.log.info("CRDs established", {{"count", static_cast<std::int64_t>(st.opts.crds.size())}});
  else
    st.opts.log.error("CRD bootstrap failed", error);
  st.running = false;
  ++st.run;
  auto waiting = std::move(st.waiting);
  st.waiting.clear();
  for (auto& rp : waiting) rp.deliver(error);
}

void poll(self_ptr self);

void write_from(self_ptr self, std::size_t i, int attempt) {
  auto& st = self->state;
  if (i == st.opts.crds.size()) return poll(self);
  const auto& wanted = st.opts.crds[i];
  if (attempt > max_write_attempts)
    return finish(self, who(wanted) + ": still conflicting after " + std::to_string(max_write_attempts) + " writes");
  const proto::write_options wo{st.opts.field_manager, false};
  auto next = [self, i] { write_from(self, i + 1, 1); };
  auto again = [self, i, attempt] { write_from(self, i, attempt + 1); };
  auto failed = [self, wanted](const char* what, const caf::error& e) {
    finish(self, who(wanted) + ": " + what + " failed: " + proto::describe(e));
  };
  self->request(st.cluster, caf::infinite, proto::get_request{ref_of(wanted), proto::read_from::server})
      .then(
          [self, wanted, wo, next, again, failed](const k8s::object& live) {
            self->request(self->state.cluster, caf::infinite, proto::update_request{crd_update(live, wanted), "", wo})
                .then([next](const k8s::object&) { next(); },
                      [again, failed](const caf::error& e) {
                        if (proto::is_conflict(e)) return again();
                        failed("updating it", e);
                      });
          },
          [self, wanted, wo, next, again, failed](const caf::error& e) {
            if (!proto::is_not_found(e)) return failed("reading it", e);
            self->request(self->state.cluster, caf::infinite, proto::create_request{wanted, wo})
                .then([next](const k8s::object&) { next(); },
                      [again, failed](const caf::error& e) {
                        if (proto::api_errc_of(e) == proto::api_errc::already_exists) return again();
                        failed("creating it", e);
                      });
          });
}

// Reads every CRD; `left` counts the answers still to come.
void poll(self_ptr self) {
  auto& st = self->state;
  const auto run = st.run;
  auto checks = std::make_shared<std::vector<crd_check>>(st.opts.crds.size());
  auto left = std::make_shared<std::size_t>(st.opts.crds.size());
  auto decide = [self, run, checks] {
    auto& s = self->state;
    if (s.run != run) return;
    std::string pending;
    for (std::size_t i = 0; i < checks->size(); ++i) {
      const auto& c = (*checks)[i];
      if (c.state == crd_state::failed) return finish(self, who(s.opts.crds[i]) + " failed: " + c.detail);
      if (c.state != crd_state::established && pending.empty())
        pending = who(s.opts.crds[i]) + " (" + c.detail + ")";
    }
    if (pending.empty()) return finish(self, {});
    if (self->system().clock().now() >= s.deadline)
      return finish(self, pending + " is not Established after " + spelled(s.opts.limit));
    self->delayed_send(self, s.opts.poll, poll_atom::value, run);
  };
  for (std::size_t i = 0; i < st.opts.crds.size(); ++i) {
    auto done = [left, decide] {
      if (--*left == 0) decide();
    };
    self->request(st.cluster, caf::infinite, proto::get_request{ref_of(st.opts.crds[i]), proto::read_from::server})
        .then(
            [checks, i, done](const k8s::object& o) {
              (*checks)[i] = check_crd(o);
              done();
            },
            [checks, i, done](const caf::error& e) {
              (*checks)[i] = proto::is_not_found(e) ? crd_check{crd_state::missing, "not found"}
                                                    : crd_check{crd_state::pending, proto::describe(e)};
              done();
            });
  }
  if (st.opts.crds.empty()) decide();
}

void start(self_ptr self) {
  auto& st = self->state;
  st.running = true;
  st.deadline = self->system().clock().now() + st.opts.limit;
  if (st.cluster) return write_from(self, 0, 1);
  self->request(st.opts.clusters, caf::infinite, proto::lookup_cluster_atom::value, std::string())
      .then(
          [self](const caf::actor& c) {
            self->state.cluster = c;
            write_from(self, 0, 1);
          },
          [self](const caf::error& e) { finish(self, "the management cluster: " + proto::describe(e)); });
}

caf::behavior bootstrap(self_ptr self, crd_bootstrap_options opts) {
  self->state.opts = std::move(opts);
  return {
      [self](ensure_crds_atom) {
        self->state.waiting.push_back(self->make_response_promise());
        if (!self->state.running) start(self);
      },
      [self](poll_atom, std::uint64_t run) {
        if (run == self->state.run && self->state.running) poll(self);
      },
  };
}

}  // namespace

caf::actor spawn_crd_bootstrap(caf::actor_system& sys, crd_bootstrap_options opts) {
  return sys.spawn(bootstrap, std::move(opts));
}

}  // namespace c5c3::monitoring
