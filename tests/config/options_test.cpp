#include "config/options.hpp"

#include <boost/test/unit_test.hpp>

#include <map>

using namespace c5c3::config;

namespace {
env_lookup fake_env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const std::string& k) -> std::optional<std::string> {
    auto it = vars.find(k);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}
}  // namespace

BOOST_AUTO_TEST_SUITE(config_options)

BOOST_AUTO_TEST_CASE(defaults) {
  auto o = parse_operator_options({}, fake_env({}));
  BOOST_TEST_REQUIRE(o.ok());
  BOOST_TEST(o->metrics_bind_address.port == 8080);
  BOOST_TEST(o->metrics_bind_address.host == "");
  BOOST_TEST(o->health_probe_bind_address.port == 8081);
  BOOST_TEST(o->max_concurrent_reconciles == 2);  // the Go operator's default
  BOOST_TEST(o->worker_threads == 0);              // the usable cores
  BOOST_TEST((o->level == log_level::info));
  BOOST_TEST(!o->embedded);
  BOOST_TEST(!o->help);
}

BOOST_AUTO_TEST_CASE(flags_in_both_forms_and_env_fallback) {
  auto o = parse_operator_options(
      {"--kubeconfig", "/k", "--context=dev", "--namespace", "ops", "--metrics-bind-address=127.0.0.1:9090",
       "--health-probe-bind-address", "[::1]:9091", "--max-concurrent-reconciles=4", "-v", "3", "--embedded"},
      fake_env({{"C5C3_MAX_CONCURRENT_RECONCILES", "9"}, {"C5C3_LOG_LEVEL", "error"}, {"POD_NAMESPACE", "env-ns"}}));
  BOOST_TEST_REQUIRE(o.ok(), (o.ok() ? "" : o.error()));
  BOOST_TEST(o->kubeconfig == "/k");
  BOOST_TEST(o->context == "dev");
  BOOST_TEST(o->namespace_ == "ops");  // flag beats env
  BOOST_TEST(o->metrics_bind_address.host == "127.0.0.1");
  BOOST_TEST(o->metrics_bind_address.port == 9090);
  BOOST_TEST(o->health_probe_bind_address.host == "::1");
  BOOST_TEST(o->max_concurrent_reconciles == 4);
  BOOST_TEST(o->verbosity == 3);
  BOOST_TEST(o->embedded);
  auto e = parse_operator_options({"--embedded=false", "--metrics-bind-address=0"},
                                  fake_env({{"C5C3_EMBEDDED", "true"}, {"C5C3_LOG_LEVEL", "warning"}}));
  BOOST_TEST_REQUIRE(e.ok());
  BOOST_TEST(!e->embedded);
  BOOST_TEST(e->metrics_bind_address.disabled);
  BOOST_TEST((e->level == log_level::warn));
  auto h = parse_operator_options({"-h"}, fake_env({}));
  BOOST_TEST(h->help);
  BOOST_TEST(operator_usage("c5c3-operator").find("--max-concurrent-reconciles") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(controller_groups_and_the_monitoring_flags) {
  struct row {
    const char* name;
    std::vector<std::string> args;
    bool orders, monitoring;
  };
  const row rows[] = {
      {"default: the orders", {}, true, false},
      {"--embedded adds the monitoring controllers", {"--embedded"}, true, true},
      {"monitoring only (its own process, as upstream splits them)", {"--controllers=monitoring"}, false, true},
      {"both, the flag given with --embedded too", {"--embedded", "--controllers", "orders"}, true, false},
      {"both", {"--controllers=orders,monitoring"}, true, true},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      auto o = parse_operator_options(r.args, fake_env({}));
      BOOST_TEST_REQUIRE(o.ok(), (o.ok() ? "" : o.error()));
      BOOST_TEST(o->runs("orders") == r.orders);
      BOOST_TEST(o->runs("monitoring") == r.monitoring);
    }
  }
  auto m = parse_operator_options({"--baseURL=https://backend.example/", "--hubUID", "hub-1", "--platform-ca-file=/ca",
                                   "--rancher-auth-secret=ra", "--cluster-name=c1"},
                                  fake_env({{"PLATFORM_API_TOKEN", "tok"}, {"C5C3_CONTROLLERS", "monitoring"}}));
  BOOST_TEST_REQUIRE(m.ok(), (m.ok() ? "" : m.error()));
  BOOST_TEST(m->monitoring.base_url == "https://backend.example/");
  BOOST_TEST(m->monitoring.token == "tok");
  BOOST_TEST(m->monitoring.hub_uid == "hub-1");
  BOOST_TEST(m->monitoring.platform_ca_file == "/ca");
  BOOST_TEST(m->monitoring.rancher_auth_secret == "ra");
  BOOST_TEST(m->monitoring.cluster_name == "c1");
  BOOST_TEST(!m->runs("orders"));
  auto g = parse_operator_options({"--controllers=orders,monitoring,grafana", "--requeue-after-duration=30s"},
                                  fake_env({}));
  BOOST_TEST_REQUIRE(g.ok(), (g.ok() ? "" : g.error()));
  BOOST_TEST(g->runs("grafana"));
  BOOST_TEST(g->runs("monitoring"));
  BOOST_TEST((g->monitoring.requeue_after_duration == std::chrono::seconds(30)));
  BOOST_TEST((m->monitoring.requeue_after_duration == std::chrono::minutes(1)));
  auto bad = parse_operator_options({"--controllers=orders,perses"}, fake_env({}));
  BOOST_TEST_REQUIRE(!bad.ok());
  BOOST_TEST(bad.error() == "invalid value \"orders,perses\" for flag --controllers: each controller group must be "
                            "orders, monitoring or grafana");
  auto zero = parse_operator_options({"--requeue-after-duration=0s"}, fake_env({}));
  BOOST_TEST(!zero.ok());
}

struct bad_case {
  std::vector<std::string> args;
  std::map<std::string, std::string> env;
  const char* expect;
};

// Sharding (issue 17): off by default; --shard-name turns it on; the Lease duration is a Go duration.
BOOST_AUTO_TEST_CASE(sharding_flags) {
  struct row {
    const char* what;
    std::vector<std::string> args;
    std::map<std::string, std::string> env;
    bool sharding;
    const char* name;
    long lease_seconds;
  };
  const row rows[] = {
      {"default: one replica, no Lease", {}, {{"POD_NAME", "c5c3-operator-7d9f"}}, false, "", 15},
      {"--shard-name turns it on", {"--shard-name", "replica-a"}, {}, true, "replica-a", 15},
      {"--sharding alone (the name from POD_NAME at start)", {"--sharding"}, {}, true, "", 15},
      {"from the environment", {}, {{"C5C3_SHARD_NAME", "r-1.x"}, {"C5C3_SHARD_LEASE_DURATION", "1m"}}, true, "r-1.x", 60},
      {"--shard-lease-duration", {"--shard-name=b", "--shard-lease-duration=3s"}, {}, true, "b", 3},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      auto o = parse_operator_options(r.args, fake_env(r.env));
      BOOST_TEST_REQUIRE(o.ok());
      BOOST_TEST(o->sharding == r.sharding);
      BOOST_TEST(o->shard_name == r.name);
      BOOST_TEST(o->shard_lease_duration.count() == r.lease_seconds);
    }
  }
  BOOST_TEST(operator_usage("c5c3-operator").find("--shard-lease-duration") != std::string::npos);
}

// The actor system's workers (issue 19: actors/operator/scheduler.hpp).
BOOST_AUTO_TEST_CASE(worker_threads_flag_and_environment) {
  auto flag = parse_operator_options({"--worker-threads=3"}, fake_env({{"C5C3_WORKER_THREADS", "8"}}));
  BOOST_TEST_REQUIRE(flag.ok());
  BOOST_TEST(flag->worker_threads == 3);  // the flag wins
  auto env = parse_operator_options({}, fake_env({{"C5C3_WORKER_THREADS", "8"}}));
  BOOST_TEST_REQUIRE(env.ok());
  BOOST_TEST(env->worker_threads == 8);
  BOOST_TEST(operator_usage("c5c3-operator").find("--worker-threads") != std::string::npos);
}

// Parking converged orders' actors (issue 19: actors/runtime/order_actor.hpp).
BOOST_AUTO_TEST_CASE(park_idle_after_flag_and_environment) {
  auto def = parse_operator_options({}, fake_env({}));
  BOOST_TEST_REQUIRE(def.ok());
  BOOST_TEST(def->park_idle_after == std::chrono::seconds(10));
  auto flag = parse_operator_options({"--park-idle-after=0"}, fake_env({{"C5C3_PARK_IDLE_AFTER", "1m"}}));
  BOOST_TEST_REQUIRE(flag.ok());
  BOOST_TEST(flag->park_idle_after.count() == 0);  // the flag wins: never park
  auto env = parse_operator_options({}, fake_env({{"C5C3_PARK_IDLE_AFTER", "1m"}}));
  BOOST_TEST_REQUIRE(env.ok());
  BOOST_TEST(env->park_idle_after == std::chrono::minutes(1));
  BOOST_TEST(operator_usage("c5c3-operator").find("--park-idle-after") != std::string::npos);
}

// Giving the heap's free memory back (actors/operator/memory_trim.hpp).
BOOST_AUTO_TEST_CASE(memory_trim_interval_flag_and_environment) {
  auto def = parse_operator_options({}, fake_env({}));
  BOOST_TEST_REQUIRE(def.ok());
  BOOST_TEST(def->memory_trim_interval == std::chrono::seconds(30));
  auto flag = parse_operator_options({"--memory-trim-interval=0"}, fake_env({{"C5C3_MEMORY_TRIM_INTERVAL", "5m"}}));
  BOOST_TEST_REQUIRE(flag.ok());
  BOOST_TEST(flag->memory_trim_interval.count() == 0);  // the flag wins: never
  auto env = parse_operator_options({}, fake_env({{"C5C3_MEMORY_TRIM_INTERVAL", "5m"}}));
  BOOST_TEST_REQUIRE(env.ok());
  BOOST_TEST(env->memory_trim_interval == std::chrono::minutes(5));
  auto bad = parse_operator_options({"--memory-trim-interval=-1s"}, fake_env({}));
  BOOST_TEST_REQUIRE(!bad.ok());
  BOOST_TEST(bad.error().find("must be a duration from 0 (never) to 24h") != std::string::npos);
  BOOST_TEST(operator_usage("c5c3-operator").find("--memory-trim-interval") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(each_bad_value_gets_a_clear_message) {
  const bad_case cases[] = {
      {{"--max-concurrent-reconciles=0"}, {}, "invalid value \"0\" for flag --max-concurrent-reconciles: must be an integer from 1 to 10000"},
      {{"--max-concurrent-reconciles", "lots"}, {}, "invalid value \"lots\" for flag --max-concurrent-reconciles"},
      {{}, {{"C5C3_MAX_CONCURRENT_RECONCILES", "-2"}}, "invalid value \"-2\" for environment variable C5C3_MAX_CONCURRENT_RECONCILES"},
      {{"--metrics-bind-address=8080"}, {}, "invalid value \"8080\" for flag --metrics-bind-address: must be host:port, :port or 0"},
      {{"--health-probe-bind-address=:70000"}, {}, "the port must be a number from 0 to 65535"},
      {{"--health-probe-bind-address=::1:80"}, {}, "an IPv6 address must be in brackets"},
      {{"--log-level=loud"}, {}, "invalid value \"loud\" for flag --log-level: must be one of debug, info, warn, error"},
      {{"-v=11"}, {}, "invalid value \"11\" for flag -v: must be an integer from 0 to 10"},
      {{"--embedded=maybe"}, {}, "invalid value \"maybe\" for flag --embedded: must be true or false"},
      {{"--frobnicate"}, {}, "unknown flag: --frobnicate"},
      {{"stray"}, {}, "unexpected argument \"stray\""},
      {{"--context"}, {}, "flag needs an argument: --context"},
      {{"--shard-name=Replica_1"}, {}, "invalid value \"Replica_1\" for flag --shard-name: must be a lower-case DNS name"},
      {{"--shard-lease-duration=500ms"}, {}, "invalid value \"500ms\" for flag --shard-lease-duration: must be a duration from 1s to 1h"},
      {{"--sharding=perhaps"}, {}, "invalid value \"perhaps\" for flag --sharding: must be true or false"},
      {{"--worker-threads=-1"}, {}, "invalid value \"-1\" for flag --worker-threads: must be an integer from 0 to 1024"},
      {{}, {{"C5C3_WORKER_THREADS", "many"}}, "invalid value \"many\" for environment variable C5C3_WORKER_THREADS"},
      {{"--park-idle-after=-1s"}, {}, "invalid value \"-1s\" for flag --park-idle-after: must be a duration from 0 (never) to 24h"},
      {{"--park-idle-after=48h"}, {}, "invalid value \"48h\" for flag --park-idle-after"},
  };
  for (const auto& c : cases) {
    BOOST_TEST_CONTEXT(c.expect) {
      auto o = parse_operator_options(c.args, fake_env(c.env));
      BOOST_TEST_REQUIRE(!o.ok());
      BOOST_TEST(o.error().find(c.expect) != std::string::npos, o.error());
    }
  }
  // Several problems: one line each.
  auto many = parse_operator_options({"--log-level=x", "--max-concurrent-reconciles=y"}, fake_env({}));
  BOOST_TEST_REQUIRE(!many.ok());
  BOOST_TEST(std::count(many.error().begin(), many.error().end(), '\n') == 1);
}

BOOST_AUTO_TEST_SUITE_END()
