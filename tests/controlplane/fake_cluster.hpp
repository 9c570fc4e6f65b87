// A stand-in for the management cluster actor: answers get requests from an
// in-memory map, serves subscriptions (the matching objects as `added`, then
// informer_synced) and pushes object events when the test puts or erases an
// object. Plus a recorder standing in for an order host.
#pragma once

#include "protocol/api_error.hpp"
#include "protocol/cluster_io.hpp"
#include "protocol/control_plane.hpp"
#include "protocol/subscription.hpp"

#include <caf/event_based_actor.hpp>
#include <caf/stateful_actor.hpp>

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace c5c3::testing {

using put_atom = caf::atom_constant<caf::atom("put")>;
using erase_atom = caf::atom_constant<caf::atom("erase")>;
using gets_atom = caf::atom_constant<caf::atom("gets")>;
using subs_atom = caf::atom_constant<caf::atom("subs")>;

struct fake_cluster_state {
  using key = std::tuple<std::string, std::string, std::string>;  // kind, namespace, name
  struct subscription {
    protocol::subscription_id id;
    k8s::gvk gvk;
    std::string namespace_;
    caf::actor subscriber;
  };
  std::map<key, k8s::object> objects;
  std::vector<subscription> subscriptions;
  std::uint64_t next_id = 1;
  std::uint32_t gets = 0;
};

inline fake_cluster_state::key key_of(const k8s::object& o) {
  return {std::string(o.kind()), std::string(o.namespace_()), std::string(o.name())};
}

inline void notify(caf::stateful_actor<fake_cluster_state>* self, protocol::event_type type,
                   const k8s::object& obj, const k8s::object& old) {
  for (auto& s : self->state.subscriptions) {
    if (s.gvk.kind != obj.kind()) continue;
    if (!s.namespace_.empty() && s.namespace_ != obj.namespace_()) continue;
    self->send(s.subscriber, protocol::object_event{s.id, "", type, obj, old});
  }
}

// `initial` objects are in place before anyone subscribes.
inline caf::behavior fake_cluster(caf::stateful_actor<fake_cluster_state>* self,
                                  std::vector<k8s::object> initial) {
  for (auto& o : initial) self->state.objects[key_of(o)] = o;
  return {
      [self](const protocol::get_request& r) -> caf::result<k8s::object> {
        ++self->state.gets;
        auto i = self->state.objects.find({r.ref.gvk.kind, r.ref.namespace_, r.ref.name});
        if (i == self->state.objects.end())
          return protocol::make_error(protocol::api_errc::not_found,
                                      r.ref.gvk.kind + " " + r.ref.namespace_ + "/" + r.ref.name + " not found");
        return i->second;
      },
      [self](const protocol::subscribe_request& r) {
        protocol::subscription_id id{self->state.next_id++};
        self->state.subscriptions.push_back({id, r.gvk, r.namespace_, r.subscriber});
        for (auto& [k, o] : self->state.objects)
          if (o.kind() == r.gvk.kind && (r.namespace_.empty() || o.namespace_() == r.namespace_))
            self->send(r.subscriber, protocol::object_event{id, "", protocol::event_type::added, o, {}});
        self->send(r.subscriber, protocol::informer_synced{id, "", r.gvk});
        return id;
      },
      [self](put_atom, const k8s::object& o) {
        auto& slot = self->state.objects[key_of(o)];
        auto old = slot;
        slot = o;
        notify(self, old ? protocol::event_type::modified : protocol::event_type::added, o, old);
      },
      [self](erase_atom, const k8s::object& o) {
        auto i = self->state.objects.find(key_of(o));
        if (i == self->state.objects.end()) return;
        auto last = i->second;
        self->state.objects.erase(i);
        notify(self, protocol::event_type::deleted, last, {});
      },
      [self](gets_atom) { return self->state.gets; },
      [self](subs_atom) { return static_cast<std::uint32_t>(self->state.subscriptions.size()); },
  };
}

struct host_record {
  std::vector<protocol::control_plane_changed> changes;
};

inline caf::behavior recording_host(caf::event_based_actor*, std::shared_ptr<host_record> rec) {
  return {
      [rec](const protocol::control_plane_changed& c) { rec->changes.push_back(c); },
  };
}

// Stands in for an order host: records the fan-out and tells `directory`
// the orders it is told have left it (cp_forget_atom), from its own address.
inline caf::behavior forgetting_host(caf::event_based_actor* self, std::shared_ptr<host_record> rec,
                                     caf::actor directory) {
  return {
      [rec](const protocol::control_plane_changed& c) { rec->changes.push_back(c); },
      [self, directory](protocol::cp_forget_atom a, const protocol::order_key& k) { self->send(directory, a, k); },
      [](protocol::ok_atom) {},
  };
}

// Stands in for an order actor: asks `directory` for the admissions it is
// sent, from its own address (so it can die and take its orders with it).
inline caf::behavior admitting_order(caf::event_based_actor* self, caf::actor directory) {
  return {
      [self, directory](const protocol::admission_request& r) {
        self->request(directory, caf::infinite, r).then([](const protocol::admission_answer&) {});
      },
  };
}

}  // namespace c5c3::testing
