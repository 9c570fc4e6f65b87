#include "actors/runtime/event_recorder.hpp"

#include "actors/runtime/event_correlator.hpp"
#include "protocol/api_error.hpp"
#include "protocol/cluster_io.hpp"
#include "protocol/order.hpp"

#include <caf/event_based_actor.hpp>
#include <caf/stateful_actor.hpp>

#include <map>
#include <optional>
#include <string>
#include <utility>

namespace c5c3::runtime {

namespace {

namespace proto = ::c5c3::protocol;

struct recorder_state {
  static inline const char* name = "c5c3.event_recorder";
  event_recorder_options opts;
  event_correlator correlator;
  // Events whose create is on its way ("namespace/name"), each with the
  // newest patch of a later occurrence, held until the create answers: sent
  // at once, the patch could reach the API server first, meet NotFound and
  // make a second Event of the same key (client-go's recorder writes one
  // event at a time). A patch carries the absolute count and lastTimestamp,
  // so the newest one is all that needs to follow.
  std::map<std::string, std::optional<std::pair<recorded_event, event_write>>> creating;
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

std::string event_name(const event_write& w) { return w.namespace_ + "/" + w.name; }

void write(self_ptr self, const recorded_event& ev, event_write w);

// The create answered (either way): the patch held for it follows.
void created(self_ptr self, const std::string& name) {
  auto it = self->state.creating.find(name);
  if (it == self->state.creating.end()) return;
  auto held = std::move(it->second);
  self->state.creating.erase(it);
  if (held) write(self, held->first, std::move(held->second));
}

void write_created(self_ptr self, const recorded_event& ev, event_write w) {
  auto name = event_name(w);
  self->state.creating[name] = std::nullopt;
  self->request(ev.cluster, self->state.opts.timeout, proto::create_request{w.event, {}})
      .then([self, name](const k8s::object&) { created(self, name); },
            [self, ev, name](const caf::error& e) {
              logged(self, ev, e);
              created(self, name);
            });
}

void write(self_ptr self, const recorded_event& ev, event_write w) {
  if (w.create) return write_created(self, ev, std::move(w));
  if (auto it = self->state.creating.find(event_name(w)); it != self->state.creating.end()) {
    it->second = std::make_pair(ev, std::move(w));
    return;
  }
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
