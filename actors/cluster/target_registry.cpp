#include "actors/cluster/target_registry.hpp"

#include "actors/cluster/cluster_actor.hpp"
#include "actors/runtime/order_log.hpp"
#include "config/base64.hpp"
#include "config/connection.hpp"
#include "protocol/subscription.hpp"

#include <caf/all.hpp>

#include <map>
#include <optional>

namespace c5c3::cluster {

config::expected<target_secret> parse_target_secret(const k8s::object& secret) {
  std::string where = "Secret " + secret.key().to_string();
  auto label = secret.label(target_cluster_label);
  if (!label || label->empty()) {
    return config::expected<target_secret>(
        k8s::fail(where + ": label " + std::string(target_cluster_label) + " has no cluster name"));
  }
  auto encoded = secret.get_string({"data", kubeconfig_data_key});
  if (encoded.empty()) {
    return config::expected<target_secret>(k8s::fail(where + ": no data key " + std::string(kubeconfig_data_key)));
  }
  auto text = config::base64_decode(encoded);
  if (!text) return config::expected<target_secret>(k8s::fail(where + ": kubeconfig is not base64"));
  auto kc = config::parse_kubeconfig(*text);
  if (!kc.ok()) return config::expected<target_secret>(k8s::fail(where + ": kubeconfig: " + kc.error()));
  auto ctx = config::select_context(*kc, "");
  if (!ctx.ok()) return config::expected<target_secret>(k8s::fail(where + ": kubeconfig: " + ctx.error()));
  auto conn = config::connection_from_context(*ctx);
  if (!conn.ok()) return config::expected<target_secret>(k8s::fail(where + ": kubeconfig: " + conn.error()));
  return target_secret{std::string(*label), conn->client, std::move(*text)};
}

namespace {

struct engaged {
  std::string cluster;
  std::string kubeconfig;
  caf::actor handle;
};

struct registry_state {
  registry_options opts;
  std::map<std::string, engaged> by_secret;  // Secret name -> its cluster
  runtime::change_memory rejected;           // Secret name -> why its kubeconfig is refused
  static inline const char* name = "c5c3.target_registry";

  ~registry_state() {
    for (auto& [n, e] : by_secret) caf::anon_send_exit(e.handle, caf::exit_reason::user_shutdown);
  }
};

using self_ptr = caf::stateful_actor<registry_state>*;

void disengage(self_ptr self, const std::string& secret) {
  auto& st = self->state;
  auto it = st.by_secret.find(secret);
  if (it == st.by_secret.end()) return;
  self->send_exit(it->second.handle, caf::exit_reason::user_shutdown);
  for (const auto& l : st.opts.listeners)
    self->send(l, protocol::cluster_disengaged{it->second.cluster, it->second.handle.address()});
  st.opts.log.info("Target cluster disengaged", {{"cluster", it->second.cluster}, {"secret", secret}});
  st.by_secret.erase(it);
}

void on_secret(self_ptr self, const k8s::object& secret, bool gone) {
  auto& st = self->state;
  std::string name(secret.name());
  if (gone) {
    st.rejected.forget(name);
    disengage(self, name);
    return;
  }
  auto parsed = parse_target_secret(secret);
  // A kubeconfig no client can be made from (CA data that is not a
  // certificate, a bad server URL) is refused here too: its cluster actor
  // would only quit.
  std::optional<std::string> problem;
  if (!parsed.ok())
    problem = parsed.error();
  else if (auto why = client_problem(parsed->client))
    problem = "Secret " + secret.key().to_string() + ": kubeconfig: " + *why;
  if (problem) {
    runtime::log_once(st.rejected, st.opts.log, k8s::log::level::warn, name, "Target kubeconfig rejected",
                      *problem, {{"secret", secret.key().to_string()}});
    disengage(self, name);
    return;
  }
  runtime::log_recovered(st.rejected, st.opts.log, name, "Target kubeconfig accepted",
                         {{"secret", secret.key().to_string()}});
  auto it = st.by_secret.find(name);
  if (it != st.by_secret.end() && it->second.cluster == parsed->cluster &&
      it->second.kubeconfig == parsed->kubeconfig) {
    return;  // unchanged
  }
  disengage(self, name);
  auto cfg = parsed->client;
  if (st.opts.tune) st.opts.tune(cfg);
  auto handle = spawn_cluster(self->system(), {parsed->cluster, std::move(cfg)});
  st.by_secret[name] = engaged{parsed->cluster, parsed->kubeconfig, handle};
  st.opts.log.info("Target cluster engaged", {{"cluster", parsed->cluster}, {"secret", secret.key().to_string()}});
  for (const auto& l : st.opts.listeners) self->send(l, protocol::cluster_engaged{parsed->cluster, handle});
}

caf::behavior registry_actor(self_ptr self, registry_options opts) {
  self->state.opts = std::move(opts);
  const auto& o = self->state.opts;
  self->request(o.management, caf::infinite,
                protocol::subscribe_request{k8s::gvk{"", "v1", "Secret"}, o.namespace_,
                                            std::string(target_cluster_label), caf::actor{self}, false})
      .then([](const protocol::subscription_id&) {},
            [self](const caf::error& e) { self->quit(e); });
  return {
      [=](protocol::object_event& ev) { on_secret(self, ev.obj, ev.type == protocol::event_type::deleted); },
      [=](protocol::informer_synced&) {},
  };
}

}  // namespace

caf::actor spawn_target_registry(caf::actor_system& sys, registry_options opts) {
  return sys.spawn(registry_actor, std::move(opts));
}

}  // namespace c5c3::cluster
