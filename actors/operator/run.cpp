#include "actors/operator/run.hpp"

#include "actors/operator/embedded.hpp"
#include "actors/operator/endpoints.hpp"
#include "actors/operator/explain.hpp"
#include "actors/operator/handoff_sharing.hpp"
#include "actors/operator/kinds.hpp"
#include "actors/operator/scheduler.hpp"
#include "actors/operator/start_line.hpp"
#include "actors/operator/memory_trim.hpp"
#include "actors/operator/sync_poller.hpp"
#include "actors/c5c3/controlplane/control_plane_actor.hpp"
#include "actors/cluster/cluster_actor.hpp"
#include "actors/cluster/cluster_directory.hpp"
#include "actors/cluster/target_registry.hpp"
#include "actors/runtime/controller_metrics.hpp"
#include "actors/runtime/limiter.hpp"
#include "actors/runtime/metrics.hpp"
#include "actors/runtime/shard/membership.hpp"
#include "k8s/log.hpp"
#include "protocol/order.hpp"
#include "protocol/registry.hpp"

#include <boost/asio/io_context.hpp>
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/scoped_actor.hpp>
#include <caf/send.hpp>

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>

namespace c5c3::operator_ {

namespace {

using clock = std::chrono::steady_clock;

const char* signal_name(int sig) {
  switch (sig) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    default: return "signal";
  }
}

// Asks `a` to stop and waits for its ok until `deadline`; false on timeout or error.
bool stop_and_wait(caf::scoped_actor& self, const caf::actor& a, clock::time_point deadline) {
  auto left = deadline - clock::now();
  if (left <= clock::duration::zero()) return false;
  bool ok = false;
  self->request(a, std::chrono::duration_cast<std::chrono::milliseconds>(left), protocol::stop_atom::value)
      .receive([&](protocol::ok_atom) { ok = true; }, [&](caf::error&) { ok = false; });
  return ok;
}

void register_process_metrics(runtime::metrics::registry& reg) {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  reg.gauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds.")
      .get()
      .set(std::chrono::duration<double>(now).count());
}

// rest_client_requests_total{code,method,host} from every cluster actor's client.
class rest_observer : public k8s::client_observer {
 public:
  explicit rest_observer(runtime::metrics::registry& reg) : metrics_(reg) {}
  void on_request(const k8s::request_observation& o) override {
    int code = std::atoi(o.code.c_str());
    metrics_.request(code, o.method, o.host);
  }

 private:
  runtime::rest_client_metrics metrics_;
};

// GET /debug/orders/<controller>/<namespace>/<name>[?cluster=]: the order
// actor's probe rendered by explain.hpp.
k8s::http_response debug_response(caf::actor_system& sys, const std::map<std::string, caf::actor>& hosts,
                                  const k8s::http_request& req) {
  k8s::http_response res;
  res.headers = {{"Content-Type", "text/plain; charset=utf-8"}, {"X-Content-Type-Options", "nosniff"}};
  auto r = parse_debug_path(req.path, req.param("cluster").value_or(""));
  auto host = r ? hosts.find(r->controller) : hosts.end();
  if (!r || host == hosts.end()) {
    res.status = 404;
    res.body = "404 page not found: /debug/orders/<controller>/<namespace>/<name>[?cluster=<name>]\n";
    return res;
  }
  std::optional<protocol::order_probe> probe;
  caf::scoped_actor self{sys};
  self->request(host->second, std::chrono::seconds(5), protocol::probe_atom::value,
                protocol::order_key{r->cluster, r->namespace_, r->name})
      .receive([&](protocol::order_probe& p) { probe = std::move(p); }, [](caf::error&) {});
  res.body = render_explain(*r, probe);
  return res;
}

// --shard-name, else POD_NAME, else the host name.
std::string replica_name(const config::operator_options& opts, const config::env_lookup& env) {
  if (!opts.shard_name.empty()) return opts.shard_name;
  if (auto p = env("POD_NAME"); p && !p->empty()) return *p;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0 && host[0]) return host;
  return "c5c3-operator";
}

}  // namespace

int run_operator(const std::string& program, const std::vector<std::string>& args, const config::env_lookup& env,
                 run_hooks hooks) {
  if (!args.empty() && args.front() == "explain") {
    std::vector<std::string> controllers;
    for (const auto& k : operator_kinds()) controllers.push_back(k.controller);
    return run_explain({args.begin() + 1, args.end()}, controllers);
  }
  auto parsed = config::parse_operator_options(args, env);
  if (!parsed.ok()) {
    std::cerr << parsed.error() << "\nRun '" << program << " --help' for usage.\n";
    return 2;
  }
  config::operator_options opts = parsed.value();
  if (opts.help) {
    std::cout << config::operator_usage(program);
    return 0;
  }
  k8s::log::logger root({log_level_of(opts), opts.verbosity, {}, {}});
  k8s::log::set_root(root);
  auto setup = root.named("setup");

  std::unique_ptr<embedded_stack> embedded;
  if (opts.embedded) {
    std::string why;
    embedded = start_embedded(opts, env, root.named("embedded"), why);
    if (!embedded) {
      std::cerr << why << "\n";
      return 2;
    }
  }
  if (embedded && opts.runs("monitoring") && opts.monitoring.base_url.empty())
    std::tie(opts.monitoring.base_url, opts.monitoring.token) = embedded->monitoring_backend();
  auto conn = embedded ? config::load_connection({embedded->kubeconfig_path(), ""}, env)
                       : config::load_connection({opts.kubeconfig, opts.context}, env);
  if (!conn.ok()) {
    setup.error("unable to get kubeconfig", conn.error());
    return 1;
  }
  setup.info("Starting c5c3-operator", start_fields(opts, conn.value()));
  // A client that cannot be made (a bad server URL, CA or client certificate
  // data that is not usable) would leave the management cluster actor dead
  // and the operator unready for good: say so and exit 1, as for an unusable
  // kubeconfig.
  if (auto why = cluster::client_problem(conn.value().client)) {
    setup.error("unable to create the API client", *why);
    if (embedded) embedded->stop();
    return 1;
  }

  auto& reg = runtime::metrics::default_registry();
  register_process_metrics(reg);
  auto ready = std::make_shared<readiness>();

  int rc = 0;
  {
    caf::actor_system_config cfg;
    protocol::register_types(cfg);
    const auto workers = worker_threads(opts.worker_threads, usable_cores());
    use_handoff_sharing(cfg, workers);
    caf::actor_system sys{cfg};
    auto max = static_cast<std::uint32_t>(opts.max_concurrent_reconciles);

    // The management cluster, the directory that keeps every kind's watches
    // on the engaged clusters, and for the orders the target clusters of
    // labelled kubeconfig Secrets in the operator's namespace and the
    // ControlPlane directory (the monitoring controllers use neither, so a
    // process of them alone needs no rule for Secrets or ControlPlanes).
    auto observer = std::make_shared<rest_observer>(reg);
    auto management_client = conn.value().client;
    management_client.observer = observer;
    const std::string shard_name = opts.sharding ? replica_name(opts, env) : std::string();
    if (!shard_name.empty()) management_client.user_agent = "c5c3-operator/" + shard_name;
    // Sharded: the Leases get a connection and cluster actor of their own, so
    // that renewals never queue behind the orders' informers and passes.
    caf::actor lease_cluster;
    if (!shard_name.empty()) lease_cluster = cluster::spawn_cluster(sys, {"", management_client});
    auto management = cluster::spawn_cluster(sys, {"", std::move(management_client)});
    auto directory = cluster::spawn_cluster_directory(sys, management);
    cluster::registry_options ro;
    ro.management = management;
    ro.namespace_ = opts.namespace_.empty() ? conn.value().namespace_ : opts.namespace_;
    const std::string ro_namespace = ro.namespace_;
    ro.listeners = {directory};
    ro.tune = [observer, shard_name](k8s::client_config& c) {
      c.observer = observer;
      if (!shard_name.empty()) c.user_agent = "c5c3-operator/" + shard_name;
    };
    ro.log = root.named("targets");
    const bool orders = opts.runs("orders");
    auto targets = orders ? cluster::spawn_target_registry(sys, std::move(ro)) : caf::actor{};
    auto control_planes =
        orders ? ::c5c3::c5c3::controlplane::spawn_control_plane_directory(sys, management) : caf::actor{};
    auto synced = std::make_shared<std::atomic<bool>>(false);
    poller_options po;
    po.log = root.named("clusters");
    po.registry = &reg;
    auto poller = spawn_sync_poller(sys, directory, synced, std::move(po));
    auto trimmer = spawn_memory_trim(sys, {opts.memory_trim_interval, &reg});
    ready->set_predicate([synced] { return synced->load(std::memory_order_acquire); });

    // Sharded: one ring (and one Lease of this replica) per controller group.
    std::map<std::string, caf::actor> memberships;
    std::map<std::string, std::shared_ptr<runtime::shard::lease_fence>> fences;  // per ring: the write fence
    if (!shard_name.empty()) {
      for (const char* group : {"orders", "monitoring", "grafana"}) {
        if (!opts.runs(group)) continue;
        runtime::shard::membership_config mc;
        mc.cluster = lease_cluster;
        mc.namespace_ = ro_namespace;
        mc.name = shard_name;
        mc.ring = group;
        mc.duration = opts.shard_lease_duration;
        mc.log = root.named("shard");
        mc.fence = fences[group] = std::make_shared<runtime::shard::lease_fence>();
        memberships[group] = runtime::shard::spawn_membership(sys, std::move(mc));
      }
      setup.info("Sharding", {{"shardName", shard_name}, {"leaseDuration", opts.shard_lease_duration}});
    }

    std::vector<caf::actor> hosts;
    std::map<std::string, caf::actor> hosts_by_controller;
    // One limiter per kind (controller-runtime's MaxConcurrentReconciles is
    // per controller), each with a token pool per cluster.
    std::vector<caf::actor> limiters;
    for (auto& kind : operator_kinds()) {
      if (!opts.runs(kind.group)) continue;
      limiters.push_back(runtime::spawn_limiter(sys, max));
      kind_context ctx{sys,
                       opts,
                       limiters.back(),
                       max,
                       kind.metrics ? make_controller_metrics(reg, kind.controller, opts.max_concurrent_reconciles)
                                    : nullptr,
                       root.named("controller").with({{"controller", kind.controller}}),
                       directory,
                       control_planes,
                       ro_namespace};
      if (!shard_name.empty()) {
        ctx.shard = {shard_name, memberships[kind.group], directory, "c5c3-operator", &reg, fences[kind.group]};
        // C5C3_SHARD_WATCH_ALL=1: every replica watches everything (a
        // before/after of the scoped watches in one bench run).
        auto all = env("C5C3_SHARD_WATCH_ALL");
        ctx.shard.scope_watches = !(all && *all == "1");
      }
      auto host = kind.spawn_host(ctx);
      if (!host) {
        rc = 1;
        continue;
      }
      hosts.push_back(host);
      hosts_by_controller[kind.controller] = hosts.back();
      setup.info("Starting controller", {{"controller", kind.controller}});
    }

    endpoints servers(opts, [&reg] { return reg.render(); }, ready, root.named("controller-runtime.metrics"));
    servers.set_debug([&sys, hosts_by_controller](const k8s::http_request& req) {
      return debug_response(sys, hosts_by_controller, req);
    });
    bool serving = rc == 0;
    try {
      if (serving) servers.start();
    } catch (const std::exception& e) {
      setup.error("unable to start the metrics or health probe server", e.what());
      serving = false;
      rc = 1;
    }

    if (serving) {
      // Ready once the directory says every subscription synced (the predicate).
      ready->set_ready(true);
      setup.info("Operator started", {{"controllers", static_cast<std::uint64_t>(hosts.size())}});
      if (embedded) embedded->start_table();
      int sig = hooks.wait_for_stop ? hooks.wait_for_stop() : wait_for_stop_signal();
      setup.info("Stopping: no new passes, waiting for the passes in flight",
                 {{"signal", signal_name(sig)}, {"budget", drain_budget}});
    }
    ready->set_ready(false);

    auto deadline = clock::now() + drain_budget;
    bool drained = true;
    {
      caf::scoped_actor self{sys};
      for (const auto& l : limiters) drained = stop_and_wait(self, l, deadline) && drained;
      for (const auto& h : hosts) drained = stop_and_wait(self, h, deadline) && drained;
      // Only now, with no pass and no write in flight (an order actor quits
      // once its writes answered), the Leases go: the other replicas take this
      // one's orders over at once. A drain past its budget keeps them: they
      // run out as after kill -9, so a write still in flight cannot land after
      // another replica took its order over.
      if (drained)
        for (const auto& [group, m] : memberships) stop_and_wait(self, m, clock::now() + std::chrono::seconds(5));
    }
    if (serving) {
      if (drained) setup.info("Passes drained");
      else setup.warn("Drain budget exceeded; exiting with passes still in flight", {{"budget", drain_budget}});
    }
    servers.stop();
    // Whatever did not stop within the budget is told to quit now, so the
    // actor system's destructor does not wait for it.
    for (const auto& l : limiters) caf::anon_send_exit(l, caf::exit_reason::user_shutdown);
    for (const auto& h : hosts) caf::anon_send_exit(h, caf::exit_reason::user_shutdown);
    for (const auto& [group, m] : memberships) caf::anon_send_exit(m, caf::exit_reason::user_shutdown);
    // Then what the hosts used: the directories, the target clusters (the
    // registry takes its cluster actors with it) and the management cluster.
    for (const auto& a : {poller, trimmer, control_planes, targets, directory, management, lease_cluster})
      if (a) caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
    if (!drained) sys.await_actors_before_shutdown(false);
  }
  if (embedded) embedded->stop();
  if (rc == 0) setup.info("Stopped");
  return rc;
}

}  // namespace c5c3::operator_
