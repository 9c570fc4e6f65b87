#include "config/options.hpp"

#include "k8s/time.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <map>

namespace c5c3::config {

namespace {

std::optional<long> parse_int(std::string_view s) {
  long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<bool> parse_bool(std::string_view s) {
  // Go's strconv.ParseBool.
  if (s == "1" || s == "t" || s == "T" || s == "true" || s == "TRUE" || s == "True") return true;
  if (s == "0" || s == "f" || s == "F" || s == "false" || s == "FALSE" || s == "False") return false;
  return std::nullopt;
}

}  // namespace

expected<bind_address> parse_bind_address(std::string_view s) {
  bind_address b;
  b.text = std::string(s);
  if (s == "0") {
    b.disabled = true;
    return b;
  }
  auto colon = s.rfind(':');
  if (colon == std::string_view::npos) return std::string("must be host:port, :port or 0");
  std::string_view host = s.substr(0, colon);
  if (!host.empty() && host.front() == '[') {
    if (host.back() != ']') return std::string("unterminated IPv6 address");
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    return std::string("an IPv6 address must be in brackets");
  }
  auto port = parse_int(s.substr(colon + 1));
  if (!port || *port < 0 || *port > 65535) return std::string("the port must be a number from 0 to 65535");
  b.host = std::string(host);
  b.port = static_cast<int>(*port);
  return b;
}

std::optional<log_level> parse_log_level(std::string_view s) {
  if (s == "debug") return log_level::debug;
  if (s == "info") return log_level::info;
  if (s == "warn" || s == "warning") return log_level::warn;
  if (s == "error") return log_level::error;
  return std::nullopt;
}

std::string_view to_string(log_level l) {
  switch (l) {
    case log_level::debug: return "debug";
    case log_level::info: return "info";
    case log_level::warn: return "warn";
    case log_level::error: return "error";
  }
  return "info";
}

expected<operator_options> parse_operator_options(const std::vector<std::string>& args, const env_lookup& env) {
  operator_options o;
  std::vector<std::string> errors;
  using setter = std::function<void(const std::string& value, const std::string& origin)>;
  auto bad = [&](const std::string& origin, const std::string& value, const std::string& why) {
    errors.push_back("invalid value \"" + value + "\" for " + origin + ": " + why);
  };
  auto address = [&](bind_address& into) -> setter {
    return [&, p = &into](const std::string& v, const std::string& origin) {
      auto a = parse_bind_address(v);
      if (!a.ok()) return bad(origin, v, a.error());
      *p = a.value();
    };
  };
  // A duration from 0 (never) to a day.
  auto up_to_a_day = [&](std::chrono::nanoseconds& into, const char* example) -> setter {
    return [&, p = &into, example](const std::string& v, const std::string& origin) {
      auto d = k8s::parse_go_duration(v);
      if (!d || *d < std::chrono::nanoseconds(0) || *d > std::chrono::hours(24))
        return bad(origin, v, std::string("must be a duration from 0 (never) to 24h (e.g. ") + example + ")");
      *p = *d;
    };
  };
  struct flag {
    bool boolean;
    setter set;
    std::vector<std::string> env;
  };
  std::map<std::string, flag> flags{
      {"kubeconfig", {false, [&](const std::string& v, const std::string&) { o.kubeconfig = v; }, {}}},
      {"context", {false, [&](const std::string& v, const std::string&) { o.context = v; }, {"C5C3_CONTEXT"}}},
      {"namespace",
       {false, [&](const std::string& v, const std::string&) { o.namespace_ = v; }, {"POD_NAMESPACE", "C5C3_NAMESPACE"}}},
      {"metrics-bind-address", {false, address(o.metrics_bind_address), {"C5C3_METRICS_BIND_ADDRESS"}}},
      {"health-probe-bind-address", {false, address(o.health_probe_bind_address), {"C5C3_HEALTH_PROBE_BIND_ADDRESS"}}},
      {"max-concurrent-reconciles",
       {false,
        [&](const std::string& v, const std::string& origin) {
          auto n = parse_int(v);
          if (!n || *n < 1 || *n > 10000) return bad(origin, v, "must be an integer from 1 to 10000");
          o.max_concurrent_reconciles = static_cast<int>(*n);
        },
        {"C5C3_MAX_CONCURRENT_RECONCILES"}}},
      {"worker-threads",
       {false,
        [&](const std::string& v, const std::string& origin) {
          auto n = parse_int(v);
          if (!n || *n < 0 || *n > 1024) return bad(origin, v, "must be an integer from 0 to 1024 (0: the usable cores)");
          o.worker_threads = static_cast<int>(*n);
        },
        {"C5C3_WORKER_THREADS"}}},
      {"v",
       {false,
        [&](const std::string& v, const std::string& origin) {
          auto n = parse_int(v);
          if (!n || *n < 0 || *n > 10) return bad(origin, v, "must be an integer from 0 to 10");
          o.verbosity = static_cast<int>(*n);
          if (o.verbosity > 0) o.level = log_level::debug;
        },
        {"C5C3_VERBOSITY"}}},
      {"log-level",
       {false,
        [&](const std::string& v, const std::string& origin) {
          auto l = parse_log_level(v);
          if (!l) return bad(origin, v, "must be one of debug, info, warn, error");
          o.level = *l;
        },
        {"C5C3_LOG_LEVEL"}}},
      {"embedded",
       {true,
        [&](const std::string& v, const std::string& origin) {
          auto b = parse_bool(v);
          if (!b) return bad(origin, v, "must be true or false");
          o.embedded = *b;
        },
        {"C5C3_EMBEDDED"}}},
      {"data-dir", {false, [&](const std::string& v, const std::string&) { o.data_dir = v; }, {"C5C3_DATA_DIR"}}},
      {"embedded-port",
       {false,
        [&](const std::string& v, const std::string& origin) {
          auto n = parse_int(v);
          if (!n || *n < 0 || *n > 65535) return bad(origin, v, "must be a port number from 0 to 65535");
          o.embedded_port = static_cast<int>(*n);
        },
        {"C5C3_EMBEDDED_PORT"}}},
      {"source-dir", {false, [&](const std::string& v, const std::string&) { o.source_dir = v; }, {"C5C3_SOURCE_DIR"}}},
      {"controllers",
       {false,
        [&](const std::string& v, const std::string& origin) {
          o.controllers.clear();
          std::size_t start = 0;
          while (start <= v.size()) {
            auto comma = v.find(',', start);
            auto item = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            if (item != "orders" && item != "monitoring" && item != "grafana")
              return bad(origin, v, "each controller group must be orders, monitoring or grafana");
            o.controllers.push_back(item);
            if (comma == std::string::npos) break;
            start = comma + 1;
          }
        },
        {"C5C3_CONTROLLERS"}}},
      {"baseURL", {false, [&](const std::string& v, const std::string&) { o.monitoring.base_url = v; }, {"C5C3_BASE_URL"}}},
      {"token", {false, [&](const std::string& v, const std::string&) { o.monitoring.token = v; }, {"PLATFORM_API_TOKEN"}}},
      {"platform-ca-file",
       {false, [&](const std::string& v, const std::string&) { o.monitoring.platform_ca_file = v; }, {"C5C3_PLATFORM_CA_FILE"}}},
      {"hubUID", {false, [&](const std::string& v, const std::string&) { o.monitoring.hub_uid = v; }, {"C5C3_HUB_UID"}}},
      {"rancher-auth-secret",
       {false, [&](const std::string& v, const std::string&) { o.monitoring.rancher_auth_secret = v; },
        {"C5C3_RANCHER_AUTH_SECRET"}}},
      {"cluster-name",
       {false, [&](const std::string& v, const std::string&) { o.monitoring.cluster_name = v; }, {"C5C3_CLUSTER_NAME"}}},
      {"sharding",
       {true,
        [&](const std::string& v, const std::string& origin) {
          auto b = parse_bool(v);
          if (!b) return bad(origin, v, "must be true or false");
          o.sharding = *b;
        },
        {"C5C3_SHARDING"}}},
      {"shard-name",
       {false,
        [&](const std::string& v, const std::string& origin) {
          bool ok = !v.empty() && v.size() <= 200 && std::isalnum(static_cast<unsigned char>(v.front())) &&
                    std::isalnum(static_cast<unsigned char>(v.back()));
          for (char c : v)
            ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.');
          if (!ok) return bad(origin, v, "must be a lower-case DNS name (a-z, 0-9, '-', '.')");
          o.shard_name = v;
          o.sharding = true;
        },
        {"C5C3_SHARD_NAME"}}},
      {"shard-lease-duration",
       {false,
        [&](const std::string& v, const std::string& origin) {
          auto d = k8s::parse_go_duration(v);
          if (!d || *d < std::chrono::seconds(1) || *d > std::chrono::hours(1))
            return bad(origin, v, "must be a duration from 1s to 1h (e.g. 15s)");
          o.shard_lease_duration = std::chrono::duration_cast<std::chrono::seconds>(*d);
        },
        {"C5C3_SHARD_LEASE_DURATION"}}},
      {"requeue-after-duration",
       {false,
        [&](const std::string& v, const std::string& origin) {
          auto d = k8s::parse_go_duration(v);
          if (!d || *d <= std::chrono::nanoseconds(0)) return bad(origin, v, "must be a positive duration (e.g. 1m)");
          o.monitoring.requeue_after_duration = *d;
        },
        {"C5C3_REQUEUE_AFTER_DURATION"}}},
      {"park-idle-after", {false, up_to_a_day(o.park_idle_after, "10s"), {"C5C3_PARK_IDLE_AFTER"}}},
      {"memory-trim-interval",
       {false, up_to_a_day(o.memory_trim_interval, "30s"), {"C5C3_MEMORY_TRIM_INTERVAL"}}},
      {"help", {true, [&](const std::string&, const std::string&) { o.help = true; }, {}}},
  };
  // Environment first; flags then override.
  for (auto& [name, f] : flags)
    for (const auto& e : f.env)
      if (auto v = env(e); v && !v->empty()) f.set(*v, "environment variable " + e);

  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 2 || a[0] != '-') {
      errors.push_back("unexpected argument \"" + a + "\"");
      continue;
    }
    std::string body = a.substr(a.rfind('-', 1) == 1 ? 2 : 1);
    if (a == "--") break;
    std::optional<std::string> value;
    if (auto eq = body.find('='); eq != std::string::npos) {
      value = body.substr(eq + 1);
      body = body.substr(0, eq);
    }
    if (body == "h") body = "help";
    auto it = flags.find(body);
    if (it == flags.end()) {
      errors.push_back("unknown flag: " + a.substr(0, a.find('=')));
      continue;
    }
    std::string origin = "flag " + std::string(body.size() == 1 ? "-" : "--") + body;
    if (!value) {
      if (it->second.boolean) value = "true";
      else if (i + 1 < args.size()) value = args[++i];
      else {
        errors.push_back("flag needs an argument: " + origin.substr(5));
        continue;
      }
    }
    it->second.set(*value, origin);
  }
  if (!errors.empty()) {
    std::string msg;
    for (const auto& e : errors) msg += (msg.empty() ? "" : "\n") + e;
    return msg;
  }
  return o;
}

bool operator_options::runs(std::string_view group) const {
  if (controllers.empty()) return group == "orders" || (embedded && group == "monitoring");
  return std::find(controllers.begin(), controllers.end(), group) != controllers.end();
}

std::string operator_usage(std::string_view program) {
  return "Usage: " + std::string(program) +
         " [flags]\n"
         "  --kubeconfig PATH                 kubeconfig file (default: KUBECONFIG, in-cluster, ~/.kube/config)\n"
         "  --context NAME                    kubeconfig context (default: current-context)\n"
         "  --namespace NS                    the operator's own namespace\n"
         "  --metrics-bind-address ADDR       metrics endpoint (default :8080, 0 disables)\n"
         "  --health-probe-bind-address ADDR  health probes (default :8081, 0 disables)\n"
         "  --max-concurrent-reconciles N     concurrent passes per kind and cluster (default 2)\n"
         "  --worker-threads N                actor system worker threads (default 0: the usable cores, at\n"
         "                                    least 2; the CPU affinity and the cgroup's CPU limit count)\n"
         "  -v N                              log verbosity 0..10\n"
         "  --log-level LEVEL                 debug, info, warn or error (default info)\n"
         "  --embedded                        run the API server emulator, the simulated world and the\n"
         "                                    samples in this process (prints how to point kubectl at it)\n"
         "  --data-dir DIR                    --embedded state (default $XDG_STATE_HOME/c5c3-operator or\n"
         "                                    ~/.local/state/c5c3-operator)\n"
         "  --embedded-port N                 --embedded API server port on 127.0.0.1 (default 0: a free port)\n"
         "  --source-dir DIR                  folder holding deploy/ and sim/crds (default: the source tree)\n"
         "  --controllers LIST                controller groups: orders, monitoring, grafana (default orders;\n"
         "                                    orders,monitoring with --embedded)\n"
         "  --baseURL URL                     monitoring: the backend registration API\n"
         "  --token T                         monitoring: the backend's bearer token (PLATFORM_API_TOKEN)\n"
         "  --platform-ca-file PATH           monitoring: the CA the backend is verified with\n"
         "  --hubUID UID                      monitoring: the hub's UID sent on registration\n"
         "  --rancher-auth-secret NAME        monitoring: the Rancher auth Secret in the operator's namespace\n"
         "  --cluster-name NAME               monitoring: the cluster's name when kube-system names none\n"
         "  --requeue-after-duration D        grafana: when a failed GrafanaDashboard is retried (default 1m)\n"
         "  --sharding                        shard the orders among replicas (a Lease each)\n"
         "  --shard-name NAME                 this replica in the ring (implies --sharding; default\n"
         "                                    POD_NAME, else the host name)\n"
         "  --shard-lease-duration D          how long a replica's Lease lasts unrenewed (default 15s)\n"
         "  --park-idle-after D               park a converged order's actor after D without a pass\n"
         "                                    (an event or its next timer brings it back; 0: never;\n"
         "                                    default 10s)\n"
         "  --memory-trim-interval D          give the heap's free memory back to the system every D\n"
         "                                    when a quarter of it is free (0: never; default 30s)\n"
         "  -h, --help                        this text\n";
}

}  // namespace c5c3::config
