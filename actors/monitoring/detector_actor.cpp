#include "actors/monitoring/detector_actor.hpp"

#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/gate.hpp"
#include "protocol/api_error.hpp"
#include "protocol/cluster_io.hpp"
#include "protocol/clusters.hpp"
#include "protocol/service.hpp"

#include <caf/event_based_actor.hpp>
#include <caf/stateful_actor.hpp>

#include <memory>
#include <optional>
#include <vector>

namespace c5c3::monitoring {

namespace {

namespace proto = ::c5c3::protocol;

struct detector_state {
  static inline const char* name = "c5c3.monitoring.detector";
  detector_options opts;
  std::optional<flavour> latched;
  std::vector<caf::response_promise> waiting;
  bool running = false;
};

using self_ptr = caf::stateful_actor<detector_state>*;

proto::service_response response_of(const runtime::service_answer& a) {
  return proto::service_response{a.status, a.body, std::nullopt};
}

void answer_all(self_ptr self, const runtime::service_answer& a) {
  auto& st = self->state;
  st.running = false;
  auto waiting = std::move(st.waiting);
  st.waiting.clear();
  for (auto& rp : waiting) rp.deliver(response_of(a));
}

// Whether `cluster` serves `gvk` (the RESTMapper check): a read of a name
// nobody uses, NoMatch meaning not served and any answer of the API server
// (NotFound, Forbidden: the operator need not read the kind) served. A
// failure to reach the server is the detection's error (nullopt).
void served(self_ptr self, const caf::actor& cluster, const k8s::gvk& gvk,
            std::function<void(std::optional<bool>, std::string)> then) {
  self->request(cluster, self->state.opts.timeout,
                proto::get_request{{gvk, "", "c5c3-monitoring-served-probe"}, proto::read_from::server})
      .then([then](const k8s::object&) { then(true, {}); },
            [then](const caf::error& e) {
              if (proto::is_no_match(e)) return then(false, {});
              auto code = proto::api_errc_of(e);
              if (code == proto::api_errc::not_found || code == proto::api_errc::forbidden) return then(true, {});
              then(std::nullopt, proto::describe(e));
            });
}

void run_detection(self_ptr self) {
  auto& st = self->state;
  st.running = true;
  const auto which = st.opts.which;
  const auto gvk = which == detector_kind::prometheus ? prometheus_gvk : alertmanager_gvk;
  self->request(st.opts.clusters, st.opts.timeout, proto::lookup_cluster_atom::value, std::string())
      .then(
          [self, gvk, which](caf::actor cluster) {
            self->request(cluster, self->state.opts.timeout, proto::list_request{gvk, "", "", "", proto::read_from::cache})
                .then(
                    [self, cluster, which](proto::object_list& l) {
                      if (l.items.empty()) return answer_all(self, unknown_answer());
                      auto items = std::make_shared<std::vector<k8s::object>>(std::move(l.items));
                      served(self, cluster, rancher_cluster_gvk, [self, cluster, which, items](std::optional<bool> rancher,
                                                                                                  std::string e1) {
                        if (!rancher) return answer_all(self, unknown_answer(e1));
                        served(self, cluster, openshift_project_gvk, [self, which, items, rancher](std::optional<bool> openshift,
                                                                                                   std::string e2) {
                          if (!openshift) return answer_all(self, unknown_answer(e2));
                          auto d = detect(which, *items, *rancher, *openshift);
                          if (d.outcome == detection_outcome::ready) {
                            self->state.latched = d.result;
                            return answer_all(self, ready_answer(d.result));
                          }
                          answer_all(self, d.outcome == detection_outcome::not_ready ? not_ready_answer()
                                                                                      : unknown_answer());
                        });
                      });
                    },
                    [self](const caf::error& e) { answer_all(self, unknown_answer(proto::describe(e))); });
          },
          [self](const caf::error& e) { answer_all(self, unknown_answer(proto::describe(e))); });
}

caf::behavior detector(self_ptr self, detector_options opts) {
  self->state.opts = std::move(opts);
  return {
      [self](const proto::service_request&) -> caf::result<proto::service_response> {
        auto& st = self->state;
        if (st.latched) return response_of(ready_answer(*st.latched));
        st.waiting.push_back(self->make_response_promise());
        if (!st.running) run_detection(self);
        return caf::delegated<proto::service_response>();
      },
  };
}

}  // namespace

caf::actor spawn_detector(caf::actor_system& sys, detector_options opts) { return sys.spawn(detector, std::move(opts)); }

}  // namespace c5c3::monitoring
