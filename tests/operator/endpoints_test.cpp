// The option-to-server wiring without sockets: bind addresses to listen
// addresses, the probe and metrics answers, the start line, the controller
// metrics main() sets.
#include "actors/operator/endpoints.hpp"
#include "actors/operator/health.hpp"
#include "actors/operator/kinds.hpp"
#include "actors/operator/start_line.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3;
using namespace c5c3::operator_;

namespace {

k8s::http_request get(std::string path, std::string method = "GET") {
  k8s::http_request r;
  r.method = std::move(method);
  r.target = path;
  r.path = std::move(path);
  return r;
}

std::string header(const k8s::http_response& r, const std::string& name) {
  for (const auto& [k, v] : r.headers)
    if (k == name) return v;
  return {};
}

config::operator_options parse_ok(const std::vector<std::string>& args) {
  auto o = config::parse_operator_options(args, [](const std::string&) { return std::nullopt; });
  BOOST_REQUIRE_MESSAGE(o.ok(), (o.ok() ? "" : o.error()));
  return o.value();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(operator_wiring)

struct listen_case {
  std::string flag;
  std::optional<std::string> listen;
};

BOOST_AUTO_TEST_CASE(bind_addresses_become_listen_addresses) {
  const std::vector<listen_case> cases{
      {":8080", "0.0.0.0:8080"},
      {"127.0.0.1:0", "127.0.0.1:0"},
      {"localhost:9090", "localhost:9090"},
      {"[::1]:8443", "[::1]:8443"},
      {"0", std::nullopt},
  };
  for (const auto& tc : cases) {
    auto o = parse_ok({"--metrics-bind-address", tc.flag, "--health-probe-bind-address=" + tc.flag});
    BOOST_TEST((listen_address(o.metrics_bind_address) == tc.listen), tc.flag);
    BOOST_TEST((listen_address(o.health_probe_bind_address) == tc.listen), tc.flag);
  }
  // The defaults: every interface, 8080 and 8081.
  auto d = parse_ok({});
  BOOST_TEST(*listen_address(d.metrics_bind_address) == "0.0.0.0:8080");
  BOOST_TEST(*listen_address(d.health_probe_bind_address) == "0.0.0.0:8081");
}

BOOST_AUTO_TEST_CASE(disabled_servers_are_not_created) {
  auto o = parse_ok({"--metrics-bind-address=0", "--health-probe-bind-address", "0"});
  endpoints e(o, [] { return std::string(); }, std::make_shared<readiness>(),
              k8s::log::logger({k8s::log::level::info, 0, [](std::string_view) {}, {}}));
  e.start();
  BOOST_TEST(!e.metrics_port().has_value());
  BOOST_TEST(!e.health_port().has_value());
}

BOOST_AUTO_TEST_CASE(livez_always_ok_readyz_follows_readiness) {
  readiness r;
  BOOST_TEST(probe_response(get("/livez"), r).status == 200);
  BOOST_TEST(probe_response(get("/livez"), r).body == "ok");
  BOOST_TEST(probe_response(get("/readyz"), r).status == 500);
  r.set_ready(true);
  BOOST_TEST(probe_response(get("/readyz"), r).status == 200);
  BOOST_TEST(probe_response(get("/readyz"), r).body == "ok");
  // A predicate (the informers' synced state) must hold as well.
  bool synced = false;
  r.set_predicate([&] { return synced; });
  BOOST_TEST(probe_response(get("/readyz"), r).status == 500);
  BOOST_TEST(probe_response(get("/livez"), r).status == 200);
  synced = true;
  BOOST_TEST(probe_response(get("/readyz"), r).status == 200);
  r.set_ready(false);
  BOOST_TEST(probe_response(get("/readyz"), r).status == 500);
}

struct probe_case {
  std::string method;
  std::string path;
  int status;
};

BOOST_AUTO_TEST_CASE(probe_paths_and_methods) {
  readiness r;
  r.set_ready(true);
  const std::vector<probe_case> cases{
      {"GET", "/livez", 200},   {"HEAD", "/livez", 200}, {"GET", "/healthz", 200}, {"GET", "/readyz", 200},
      {"POST", "/livez", 405},  {"GET", "/metrics", 404}, {"GET", "/", 404},         {"GET", "/livez/x", 404},
  };
  for (const auto& tc : cases)
    BOOST_TEST(probe_response(get(tc.path, tc.method), r).status == tc.status, tc.method << " " << tc.path);
  BOOST_TEST(probe_response(get("/livez", "HEAD"), r).body.empty());
}

BOOST_AUTO_TEST_CASE(metrics_answer_in_the_text_format) {
  int calls = 0;
  auto render = [&] {
    ++calls;
    return std::string("# HELP x_total x\n# TYPE x_total counter\nx_total 1\n");
  };
  auto res = metrics_response(get("/metrics"), render);
  BOOST_TEST(res.status == 200);
  BOOST_TEST(header(res, "Content-Type") == "text/plain; version=0.0.4; charset=utf-8");
  BOOST_TEST(res.body == "# HELP x_total x\n# TYPE x_total counter\nx_total 1\n");
  BOOST_TEST(metrics_response(get("/livez"), render).status == 404);
  BOOST_TEST(metrics_response(get("/metrics", "DELETE"), render).status == 405);
  BOOST_TEST(calls == 1);
}

BOOST_AUTO_TEST_CASE(controller_metrics_carry_the_concurrency_limit) {
  runtime::metrics::registry reg;
  auto o = parse_ok({"--max-concurrent-reconciles", "7"});
  auto m = make_controller_metrics(reg, "rabbitmqvhost", o.max_concurrent_reconciles);
  BOOST_TEST(m->max_concurrent_reconciles.value() == 7);
  BOOST_TEST(reg.render().find("controller_runtime_max_concurrent_reconciles{controller=\"rabbitmqvhost\"} 7\n") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(start_line_names_options_never_credentials) {
  auto o = parse_ok({"--kubeconfig", "/k/config", "--context", "c1", "--namespace", "ops", "-v", "3",
                     "--max-concurrent-reconciles=4", "--metrics-bind-address=127.0.0.1:0",
                     "--controllers=orders,monitoring", "--baseURL=https://backend.example", "--token=platform-secret"});
  config::connection c;
  c.client.server = "https://10.0.0.1:6443";
  c.namespace_ = "default";
  c.source = "kubeconfig context \"c1\"";
  std::vector<std::string> lines;
  k8s::log::logger l({k8s::log::level::info, 0, [&](std::string_view s) { lines.emplace_back(s); }, {}});
  l.info("Starting c5c3-operator", start_fields(o, c));
  BOOST_REQUIRE_EQUAL(lines.size(), 1u);
  const auto& s = lines[0];
  for (const char* want :
       {R"("kubeconfig":"/k/config")", R"("context":"c1")", R"("namespace":"ops")", R"("server":"https://10.0.0.1:6443")",
        R"("metricsBindAddress":"127.0.0.1:0")", R"("healthProbeBindAddress":":8081")",
        R"("maxConcurrentReconciles":4)", R"("v":3)", R"("logLevel":"debug")", R"("controllers":"orders,monitoring")"})
    BOOST_TEST(s.find(want) != std::string::npos, want);
  BOOST_TEST(s.find("platform-secret") == std::string::npos);
  // Without --namespace, the connection's namespace.
  auto d = parse_ok({});
  lines.clear();
  l.info("x", start_fields(d, c));
  BOOST_TEST(lines[0].find(R"("namespace":"default")") != std::string::npos);
}

struct level_case {
  std::vector<std::string> args;
  k8s::log::level level;
};

BOOST_AUTO_TEST_CASE(log_level_follows_the_options) {
  const std::vector<level_case> cases{
      {{}, k8s::log::level::info},
      {{"--log-level", "error"}, k8s::log::level::error},
      {{"--log-level=warn"}, k8s::log::level::warn},
      {{"-v", "2"}, k8s::log::level::debug},
      {{"--log-level", "debug"}, k8s::log::level::debug},
  };
  for (const auto& tc : cases) BOOST_TEST((log_level_of(parse_ok(tc.args)) == tc.level));
}

BOOST_AUTO_TEST_SUITE_END()
