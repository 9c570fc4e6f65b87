#include "actors/runtime/event_recorder.hpp"

#include "actors/runtime/event_correlator.hpp"
#include "protocol/api_error.hpp"
#include "protocol/cluster_io.hpp"
#include "protocol/order.hpp"

#include <caf/event_based_actor.hpp>
#include <caf/stateful_actor.hpp>

namespace c5c3::runtime {

namespace {

namespace proto = ::c5c3::protocol;

struct recorder_state {
  static inline const char* name = "c5c3.event_recorder";
  event_recorder_options opts;
  event_correlator correlator;
};

using self_ptr = caf::stateful_actor<recorder_state>*;

void logged(self_ptr self, const recorded_event& ev, const caf::error& e) {
  self->state.opts.log.warn("Event not written",
                            {{"kind", std::string(ev.involved.kind())},
                             {"namespace", std::string(ev.involved.namespace_())},
                             {"name", std::string(ev.involved.name())},
                             {"reason", ev.record.reason},
                             {"error", proto::describe(e)}});
}

void write_created(self_ptr self, const recorded_event& ev, event_write w) {
  self->request(ev.cluster, self->state.opts.timeout, proto::create_request{w.event, {}})
      .then([](const k8s::object&) {}, [self, ev](const caf::error& e) { logged(self, ev, e); });
}

void write(self_ptr self, const recorded_event& ev, event_write w) {
  if (w.create) return write_created(self, ev, std::move(w));
  proto::patch_request p{{{"", "v1", "Event"}, w.namespace_, w.name}, proto::patch_type::merge, w.patch, "", {}};
  self->request(ev.cluster, self->state.opts.timeout, std::move(p))
      .then([](const k8s::object&) {},
            [self, ev](const caf::error& e) {
              if (!proto::is_not_found(e)) return logged(self, ev, e);
              write_created(self, ev,
                            self->state.correlator.recreate(involved_of(ev.involved), ev.record,
                                                            std::chrono::system_clock::now()));
            });
}

caf::behavior recorder(self_ptr self, event_recorder_options opts) {
  self->state.correlator = event_correlator(opts.component);
  self->state.opts = std::move(opts);
  return {
      [self](const recorded_event& ev) {
        if (!ev.cluster || !ev.involved) return;
        write(self, ev,
              self->state.correlator.observe(involved_of(ev.involved), ev.record, std::chrono::system_clock::now()));
      },
      [self](proto::probe_atom) { return self->state.correlator.size(); },
  };
}

}  // namespace

caf::actor spawn_event_recorder(caf::actor_system& sys, event_recorder_options opts) {
  return sys.spawn(recorder, std::move(opts));
}

}  // namespace c5c3::runtime
