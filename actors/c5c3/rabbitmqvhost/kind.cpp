#include "actors/c5c3/rabbitmqvhost/kind.hpp"

#include "actors/c5c3/controlplane/messages.hpp"
#include "actors/c5c3/rabbitmqvhost/constants.hpp"
#include "actors/c5c3/rabbitmqvhost/order_pass.hpp"
#include "actors/runtime/order_host.hpp"
#include "protocol/clusters.hpp"

#include <caf/event_based_actor.hpp>

namespace c5c3::c5c3::rabbitmqvhost {
namespace {

struct watch {
  k8s::gvk gvk;
  std::string selector;
  protocol::watch_scope scope;
  bool optional;
};

// rabbitmqvhost-reconciler.txt "Watches", plus the kinds the pass reads from
// the caches (the RabbitmqCluster, its default-user Secret, the stores).
std::vector<watch> watches() {
  using protocol::watch_scope;
  return {
      {order_gvk(), "", watch_scope::every_cluster, true},
      {secret_gvk(), child_selector(), watch_scope::every_cluster, false},
      {push_secret_gvk(), child_selector(), watch_scope::management, true},
      {vhost_gvk(), child_selector(), watch_scope::management, true},
      {user_gvk(), child_selector(), watch_scope::management, true},
      {permission_gvk(), child_selector(), watch_scope::management, true},
      {rabbitmq_cluster_gvk(), "", watch_scope::management, true},
      {secret_gvk(), rabbitmq_secret_selector(), watch_scope::management, false},
      {secret_store_gvk("SecretStore"), "", watch_scope::management, true},
      {secret_store_gvk("ClusterSecretStore"), "", watch_scope::management, true},
  };
}

// Registers the host's watches and its ControlPlane fan-out; one argument
// besides self (see actors/runtime/README.md).
void registrar(caf::event_based_actor* self, caf::actor host, host_options opts) {
  for (auto& w : watches()) {
    protocol::watch_request req{{w.gvk, "", w.selector, host, w.optional}, w.scope};
    self->request(opts.clusters, caf::infinite, std::move(req)).then([](protocol::ok_atom) {});
  }
  if (opts.control_planes)
    self->request(opts.control_planes, caf::infinite, controlplane::cp_host_atom::value, host)
        .then([](protocol::ok_atom) {});
}

}  // namespace

caf::actor spawn_host(caf::actor_system& sys, host_options opts) {
  runtime::order_host_config hc;
  hc.controller = "rabbitmqvhost";
  hc.order_kind = order_gvk();
  hc.keys = {std::string(label_name), std::string(label_namespace), std::string(label_cluster)};
  pass_deps deps;
  deps.clusters = opts.clusters;
  deps.control_planes = opts.control_planes;
  deps.field_manager = opts.field_manager;
  deps.random = opts.random;
  deps.instrumenter = std::make_shared<sub_reconciler_metrics>(
      opts.registry ? *opts.registry : runtime::metrics::default_registry(), hc.controller);
  hc.make_pass = [deps](const protocol::order_key&) { return make_order_pass(deps); };
  hc.limiter = opts.limiter;
  hc.max_concurrent_reconciles = opts.max_concurrent_reconciles;
  hc.metrics = opts.metrics;
  hc.actor_options = opts.actor_options;
  auto host = runtime::spawn_order_host(sys, std::move(hc));
  sys.spawn(registrar, host, std::move(opts));
  return host;
}

}  // namespace c5c3::c5c3::rabbitmqvhost
