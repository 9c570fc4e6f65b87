// No secret value reaches a log line, /metrics, a condition or an event:
// `c5c3-operator --embedded -v 10` (every V-level line) runs the sample
// RabbitMQVhost to Ready, then meets a target-cluster Secret whose
// kubeconfig it must reject and one whose API server refuses connections
// (both carrying a bearer token). Then every secret value in the emulator
// (passwords, transport URLs, the default user's, the kubeconfigs' tokens)
// is searched for (tests/secret_scan.hpp) in all the operator printed, the
// metrics text, every order's conditions and every Event.
#include "tests/embedded/embedded_run.hpp"
#include "tests/secret_scan.hpp"

#include "k8s/base64.hpp"
#include "k8s/json.hpp"
#include "k8s/object.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/socket.h>
#include <netinet/in.h>

using namespace c5c3::test;

namespace {

// A loopback port nothing listens on (bound, then closed).
int closed_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

std::string kubeconfig(const std::string& server, const std::string& token, const std::string& context) {
  return "apiVersion: v1\nkind: Config\ncurrent-context: " + context +
         "\ncontexts:\n- name: edge\n  context: {cluster: edge, user: edge}\nclusters:\n- name: edge\n  cluster:\n"
         "    server: " + server + "\n    insecure-skip-tls-verify: true\nusers:\n- name: edge\n  user:\n    token: " +
         token + "\n";
}

std::string target_secret(const std::string& name, const std::string& cluster, const std::string& config) {
  return R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":")" + name +
         R"(","namespace":"default","labels":{"c5c3.io/target-cluster":")" + cluster + R"("}},"data":{"kubeconfig":")" +
         c5c3::k8s::base64_encode(config) + R"("}})";
}

int metrics_port(const embedded_run& run) {
  for (const auto& l : run.proc->lines()) {
    if (l.find("Serving metrics server") == std::string::npos) continue;
    auto at = l.find("127.0.0.1:");
    if (at != std::string::npos) return std::atoi(l.c_str() + at + 10);
  }
  return 0;
}

// The items of `kubectl get <what> -A -o json`.
std::vector<c5c3::k8s::object> items(embedded_run& run, const std::string& what) {
  auto r = run.kubectl({"get", what, "-A", "-o", "json"});
  BOOST_TEST_REQUIRE(r.first == 0, r.second);
  std::string err;
  auto list = c5c3::k8s::object::parse(r.second, &err);
  BOOST_TEST_REQUIRE(static_cast<bool>(list), err);
  std::vector<c5c3::k8s::object> out;
  const auto* arr = list->get({"items"});
  if (arr && arr->IsArray())
    for (const auto& v : arr->GetArray()) {
      auto o = c5c3::k8s::object::parse(c5c3::k8s::to_json(v), &err);
      BOOST_TEST_REQUIRE(static_cast<bool>(o), err);
      out.push_back(*o);
    }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(secrets_e2e)

BOOST_AUTO_TEST_CASE(no_secret_value_reaches_logs_metrics_conditions_or_events) {
  temp_dir dir;
  embedded_run run(dir.path, {"-v", "10", "--namespace", "default"});
  auto ready = run.kubectl({"wait", "--for=condition=Ready", "rabbitmqvhost/app", "-n", "tenant-a", "--timeout=90s"});
  BOOST_TEST_REQUIRE(ready.first == 0, ready.second + run.output());

  // A target kubeconfig naming a context it does not have: rejected, logged.
  const std::string rejected_token = "rejected-t0ken-9f3b2c7d1e";
  auto bad = run_with_input({"kubectl", "--kubeconfig", run.kubeconfig, "apply", "-f", "-"},
                            target_secret("edge-bad", "edge-bad",
                                          kubeconfig("https://127.0.0.1:1", rejected_token, "missing")));
  BOOST_TEST_REQUIRE(bad.first == 0, bad.second);
  BOOST_TEST(run.printed("Target kubeconfig rejected", clock_type::now() + 30s), run.output());
  // A usable one whose API server refuses connections: engaged, then unreachable.
  const std::string refused_token = "refused-t0ken-4a8e6b0c2f";
  auto port = closed_port();
  auto down = run_with_input({"kubectl", "--kubeconfig", run.kubeconfig, "apply", "-f", "-"},
                             target_secret("edge-down", "edge-down",
                                           kubeconfig("https://127.0.0.1:" + std::to_string(port), refused_token,
                                                      "edge")));
  BOOST_TEST_REQUIRE(down.first == 0, down.second);
  BOOST_TEST(run.printed("Target cluster unreachable", clock_type::now() + 60s), run.output());

  // What the operator showed.
  auto mport = metrics_port(run);
  BOOST_TEST_REQUIRE(mport > 0, run.output());
  auto metrics = http_get(mport, "/metrics").body;
  BOOST_TEST(metrics.find("c5c3_target_cluster_reachable{cluster=\"edge-down\"} 0") != std::string::npos, metrics);
  std::string conditions;
  for (const auto& o : items(run, "rabbitmqvhosts")) {
    const auto* c = o.get({"status", "conditions"});
    if (c) conditions += c5c3::k8s::to_json(*c) + "\n";
  }
  BOOST_TEST(conditions.find("Ready") != std::string::npos, conditions);
  std::string events;
  for (const auto& e : items(run, "events")) events += e.to_json() + "\n";
  // Every secret value there is (read before the emulator stops with the process).
  c5c3::testing::secret_scan scan;
  scan.add(rejected_token, "the rejected kubeconfig's token");
  scan.add(refused_token, "the unreachable target's token");
  scan.add_kubeconfig(run_with_input({"cat", run.kubeconfig}, "").second, "the emulator's admin kubeconfig");
  auto secrets = items(run, "secrets");
  for (const auto& s : secrets) scan.add_secret(s);
  BOOST_TEST((run.stop() == std::optional<int>(0)), run.output());

  BOOST_TEST(secrets.size() >= 4u);
  BOOST_TEST(scan.size() >= 10u);  // passwords, transport URLs, tokens: there is something to look for

  auto found = scan.scan(run.output(), "the operator's output");
  auto more = scan.scan(metrics, "/metrics");
  found.insert(found.end(), more.begin(), more.end());
  more = scan.scan(conditions, "conditions");
  found.insert(found.end(), more.begin(), more.end());
  more = scan.scan(events, "events");
  found.insert(found.end(), more.begin(), more.end());
  BOOST_TEST(found.empty(), c5c3::testing::secret_scan::report(found));
}

BOOST_AUTO_TEST_SUITE_END()
