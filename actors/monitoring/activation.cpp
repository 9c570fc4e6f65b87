#include "actors/monitoring/activation.hpp"

#include "actors/monitoring/constants.hpp"
#include "protocol/clusters.hpp"
#include "protocol/order.hpp"
#include "protocol/subscription.hpp"

#include <caf/event_based_actor.hpp>
#include <caf/send.hpp>
#include <caf/stateful_actor.hpp>

#include <map>
#include <set>

namespace c5c3::monitoring {

namespace {

namespace proto = ::c5c3::protocol;

struct activation_state {
  static inline const char* name = "c5c3.monitoring.activation";
  activation_options opts;
  std::set<std::size_t> done;          // indexes of groups set up
  std::vector<std::string> activated;  // "group/Kind", in order
  std::vector<caf::actor> hosts;
  std::map<std::string, caf::actor> by_controller;

  ~activation_state() {
    for (const auto& h : hosts) caf::anon_send_exit(h, caf::exit_reason::user_shutdown);
    for (const auto& a : opts.owned) caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
  }
};

using self_ptr = caf::stateful_actor<activation_state>*;

void keep_hosts(self_ptr self, std::vector<std::pair<std::string, caf::actor>> hosts, k8s::log::fields where) {
  auto& st = self->state;
  std::string names;
  for (const auto& [name, host] : hosts) {
    names += (names.empty() ? "" : ",") + name;
    st.hosts.push_back(host);
    st.by_controller[name] = host;
  }
  where.push_back({"controllers", names});
  st.opts.log.info("Starting controllers", where);
}

void on_crd(self_ptr self, const k8s::object& crd) {
  auto& st = self->state;
  const auto group = crd.get_string({"spec", "group"});
  const auto kind = crd.get_string({"spec", "names", "kind"});
  for (std::size_t i = 0; i < st.opts.groups.size(); ++i) {
    const auto& g = st.opts.groups[i];
    if (g.group != group || g.kind != kind || st.done.contains(i)) continue;
    st.done.insert(i);
    st.activated.push_back(g.group + "/" + g.kind);
    auto hosts = g.setup ? g.setup(self->system()) : std::vector<std::pair<std::string, caf::actor>>{};
    keep_hosts(self, std::move(hosts), {{"crd", std::string(crd.name())}, {"kind", g.group + "/" + g.kind}});
  }
}

caf::behavior activation(self_ptr self, activation_options opts) {
  self->state.opts = std::move(opts);
  if (self->state.opts.at_start) keep_hosts(self, self->state.opts.at_start(self->system()), {});
  proto::watch_request req{{crd_gvk, "", "", caf::actor_cast<caf::actor>(self), false}, proto::watch_scope::management};
  self->request(self->state.opts.clusters, caf::infinite, std::move(req)).then([](proto::ok_atom) {});
  return {
      [self](const proto::object_event& ev) {
        if (ev.type != proto::event_type::deleted && ev.obj) on_crd(self, ev.obj);
      },
      [](const proto::informer_synced&) {},
      [](const proto::kind_availability&) {},
      [](const proto::cluster_disengaged&) {},
      [self](proto::probe_atom) { return self->state.activated; },
      [self](proto::probe_atom, const std::string& controller,
             const proto::order_key& key) -> caf::result<proto::order_probe> {
        auto it = self->state.by_controller.find(controller);
        if (it == self->state.by_controller.end()) {
          proto::order_probe none;
          none.key = key;
          return none;
        }
        self->delegate(it->second, proto::probe_atom::value, key);
        return caf::delegated<proto::order_probe>{};
      },
      [self](proto::stop_atom) {
        auto rp = self->make_response_promise();
        auto hosts = self->state.hosts;
        if (hosts.empty()) {
          rp.deliver(proto::ok_atom::value);
          self->quit();
          return;
        }
        auto left = std::make_shared<std::size_t>(hosts.size());
        for (const auto& h : hosts) {
          auto done = [self, rp, left]() mutable {
            if (--*left > 0) return;
            rp.deliver(proto::ok_atom::value);
            self->quit();
          };
          self->request(h, caf::infinite, proto::stop_atom::value)
              .then([done](proto::ok_atom) mutable { done(); }, [done](const caf::error&) mutable { done(); });
        }
      },
  };
}

}  // namespace

caf::actor spawn_activation(caf::actor_system& sys, activation_options opts) {
  return sys.spawn(activation, std::move(opts));
}

}  // namespace c5c3::monitoring
