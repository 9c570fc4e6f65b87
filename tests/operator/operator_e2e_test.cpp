// The c5c3-operator binary as a process on loopback against the emulator
// binary (`c5c3-sim apiserver --plain-http`): probes (/readyz failing until
// the informers synced, 200 after), /metrics (and promtool's verdict on it), a
// clean stop on SIGTERM and SIGINT, exit codes of bad flags, and no
// credential in its log.
#include "tests/operator/child_process.hpp"
#include "tests/require_eventually.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <boost/test/unit_test.hpp>

#include <rapidjson/document.h>

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

using namespace c5c3::test;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

namespace {

const std::string token = "e2e-secret-token-7f3a9c";

std::string env_path(const char* name) {
  const char* p = std::getenv(name);
  BOOST_REQUIRE_MESSAGE(p && *p, name << " is not set");
  return p;
}

std::string operator_bin() { return env_path("C5C3_OPERATOR_BIN"); }

// A loopback port held for the emulator: listening, so no other process can
// take it, but never accepting, so nothing is served on it until the test
// releases it and starts the emulator there.
struct held_port {
  int fd = -1;
  int port = 0;
  held_port() {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);  // not inherited by the children
    BOOST_REQUIRE(fd >= 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    BOOST_REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    BOOST_REQUIRE(::listen(fd, 1) == 0);
    socklen_t len = sizeof a;
    BOOST_REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0);
    port = ntohs(a.sin_port);
  }
  void release() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  ~held_port() { release(); }
};

// A private directory with a kubeconfig naming a plain-HTTP API server on a
// free loopback port, with a bearer token the emulator accepts (its token
// file). The emulator is started separately (`start_apiserver`), so the
// operator can be started before there is a server to sync with.
struct fixture_dir {
  std::filesystem::path dir;
  std::string kubeconfig;
  std::string token_file;
  mutable held_port held;
  int api_port = held.port;
  std::string server = "http://127.0.0.1:" + std::to_string(api_port);
  fixture_dir() {
    char tmpl[] = "/tmp/c5c3-operator-e2e-XXXXXX";
    BOOST_REQUIRE(::mkdtemp(tmpl));
    dir = tmpl;
    kubeconfig = (dir / "kubeconfig").string();
    token_file = (dir / "tokens").string();
    std::ofstream(token_file) << token << ",e2e-user\n";
    std::ofstream(kubeconfig) << "apiVersion: v1\nkind: Config\ncurrent-context: e2e\n"
                                 "clusters:\n- name: e2e\n  cluster:\n    server: "
                              << server
                              << "\nusers:\n- name: e2e\n  user:\n    token: " << token
                              << "\ncontexts:\n- name: e2e\n  context:\n    cluster: e2e\n    user: e2e\n"
                                 "    namespace: c5c3-system\n";
  }
  ~fixture_dir() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  // `c5c3-sim apiserver` on api_port; returns once it listens.
  std::unique_ptr<child_process> start_apiserver() const {
    held.release();
    auto p = std::make_unique<child_process>(std::vector<std::string>{
        env_path("C5C3_SIM_BIN"), "apiserver", "--plain-http", "--listen", "127.0.0.1:" + std::to_string(api_port),
        "--token-file", token_file});
    auto line = p->wait_for_line("listening on", clock_type::now() + 60s);
    std::string out;
    for (const auto& l : p->lines()) out += l + "\n";
    BOOST_REQUIRE_MESSAGE(line, "c5c3-sim apiserver did not start: " << out);
    return p;
  }
};

rapidjson::Document parse_line(const std::string& line) {
  rapidjson::Document d;
  d.Parse(line.data(), line.size());
  BOOST_REQUIRE_MESSAGE(!d.HasParseError() && d.IsObject(), "log line is not a JSON object: " << line);
  return d;
}

int bound_port(const std::string& line) {
  auto d = parse_line(line);
  BOOST_REQUIRE(d.HasMember("bindAddress") && d["bindAddress"].IsString());
  std::string a = d["bindAddress"].GetString();
  auto colon = a.rfind(':');
  BOOST_REQUIRE(colon != std::string::npos);
  BOOST_TEST(a.substr(0, colon) == "127.0.0.1");
  int port = std::atoi(a.substr(colon + 1).c_str());
  BOOST_REQUIRE(port > 0);
  return port;
}

// A running operator on free loopback ports (and, unless told otherwise, the
// emulator it talks to).
struct running_operator {
  fixture_dir files;
  std::unique_ptr<child_process> apiserver;
  std::unique_ptr<child_process> proc;
  int metrics_port = 0;
  int health_port = 0;

  explicit running_operator(std::vector<std::string> extra = {}, bool with_apiserver = true) {
    if (with_apiserver) apiserver = files.start_apiserver();
    std::vector<std::string> argv{operator_bin(), "--kubeconfig", files.kubeconfig, "--metrics-bind-address",
                                  "127.0.0.1:0", "--health-probe-bind-address=127.0.0.1:0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    proc = std::make_unique<child_process>(argv);
    auto deadline = clock_type::now() + 60s;
    auto m = proc->wait_for_line("Serving metrics server", deadline);
    BOOST_REQUIRE_MESSAGE(m, "no metrics server line; output so far: " << joined());
    metrics_port = bound_port(*m);
    auto h = proc->wait_for_line("Starting health probe server", deadline);
    BOOST_REQUIRE_MESSAGE(h, "no health probe server line; output so far: " << joined());
    health_port = bound_port(*h);
  }

  std::string joined() const {
    std::string s;
    for (const auto& l : proc->lines()) s += l + "\n";
    return s;
  }

  // Polls /readyz until it answers 200 (bounded).
  bool wait_ready() {
    auto deadline = clock_type::now() + 30s;
    while (clock_type::now() < deadline) {
      if (http_get(health_port, "/readyz").status == 200) return true;
      proc->next_line(clock_type::now() + 20ms);
    }
    return false;
  }

  // Signals the process and returns its exit status (nullopt if it outlives 30 s).
  std::optional<int> stop(int sig) {
    proc->signal(sig);
    auto rc = proc->wait(clock_type::now() + 30s);
    proc->drain(clock_type::now() + 5s);
    return rc;
  }

  ~running_operator() {
    if (apiserver) {
      apiserver->signal(SIGTERM);
      apiserver->wait(clock_type::now() + 30s);
    }
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(operator_binary)

BOOST_AUTO_TEST_CASE(probes_and_metrics_answer_then_sigterm_exits_zero) {
  running_operator op;
  auto live = http_get(op.health_port, "/livez");
  BOOST_TEST(live.status == 200);
  BOOST_TEST(live.body == "ok");
  BOOST_TEST(op.wait_ready());
  BOOST_TEST(http_get(op.health_port, "/readyz").body == "ok");
  BOOST_TEST(http_get(op.health_port, "/nope").status == 404);

  auto m = http_get(op.metrics_port, "/metrics");
  BOOST_TEST(m.status == 200);
  BOOST_TEST(m.headers.find("text/plain; version=0.0.4; charset=utf-8") != std::string::npos, m.headers);
  BOOST_TEST(m.body.find("# TYPE process_start_time_seconds gauge\n") != std::string::npos, m.body);
  BOOST_TEST(http_get(op.metrics_port, "/livez").status == 404);

  auto rc = op.stop(SIGTERM);
  BOOST_REQUIRE_MESSAGE(rc.has_value(), "still running 30 s after SIGTERM; output: " << op.joined());
  BOOST_TEST(*rc == 0, op.joined());
  BOOST_TEST(op.joined().find("\"signal\":\"SIGTERM\"") != std::string::npos);
  BOOST_TEST(op.joined().find("\"msg\":\"Stopped\"") != std::string::npos);
}

// Not ready answers 500 with the failed check, as controller-runtime's
// healthz handler does (kubelet treats any status >= 400 as not ready).
BOOST_AUTO_TEST_CASE(readyz_fails_until_the_informers_sync) {
  // The operator starts before its API server exists: nothing can sync.
  running_operator op{{}, false};
  BOOST_TEST(http_get(op.health_port, "/livez").status == 200);
  for (int i = 0; i < 20; ++i) {
    auto r = http_get(op.health_port, "/readyz");
    BOOST_TEST(r.status == 500, r.body);
    BOOST_TEST(r.body.find("readyz check failed") != std::string::npos, r.body);
    op.proc->next_line(clock_type::now() + 20ms);
  }
  // The server comes up: the subscriptions resolve, the informers sync.
  op.apiserver = op.files.start_apiserver();
  C5C3_CHECK_EVENTUALLY(op.wait_ready(), op.joined());
  BOOST_TEST(http_get(op.health_port, "/readyz").body == "ok");
  auto m = http_get(op.metrics_port, "/metrics");
  BOOST_TEST(m.body.find("rest_client_requests_total{code=\"200\",method=\"GET\"") != std::string::npos, m.body);
  auto rc = op.stop(SIGTERM);
  BOOST_REQUIRE_MESSAGE(rc.has_value(), "still running 30 s after SIGTERM; output: " << op.joined());
  BOOST_TEST(*rc == 0, op.joined());
}

BOOST_AUTO_TEST_CASE(sigterm_without_an_api_server_exits_zero) {
  running_operator op{{}, false};
  BOOST_TEST(http_get(op.health_port, "/readyz").status == 500);
  auto rc = op.stop(SIGTERM);
  BOOST_REQUIRE_MESSAGE(rc.has_value(), "still running 30 s after SIGTERM; output: " << op.joined());
  BOOST_TEST(*rc == 0, op.joined());
}

BOOST_AUTO_TEST_CASE(sigint_exits_zero) {
  running_operator op;
  BOOST_TEST(op.wait_ready());
  auto rc = op.stop(SIGINT);
  BOOST_REQUIRE(rc.has_value());
  BOOST_TEST(*rc == 0, op.joined());
}

BOOST_AUTO_TEST_CASE(promtool_check_metrics_passes) {
  auto dir = find_in_path("promtool");
  BOOST_REQUIRE_MESSAGE(!dir.empty(), "promtool not found: install Debian's prometheus package");
  running_operator op{{"--max-concurrent-reconciles", "3"}};
  auto m = http_get(op.metrics_port, "/metrics");
  BOOST_REQUIRE(m.status == 200);
  BOOST_REQUIRE(!m.body.empty());
  auto [rc, out] = run_with_input({dir + "/promtool", "check", "metrics"}, m.body);
  BOOST_TEST(rc == 0, "promtool: " << out << "\nmetrics:\n" << m.body);
  BOOST_TEST((op.stop(SIGTERM) == std::optional<int>(0)));
}

BOOST_AUTO_TEST_CASE(log_lines_are_json_and_carry_no_token) {
  running_operator op{{"-v", "2"}};
  BOOST_TEST(op.wait_ready());
  BOOST_TEST((op.stop(SIGTERM) == std::optional<int>(0)));
  const auto& lines = op.proc->lines();
  BOOST_REQUIRE(!lines.empty());
  bool start_line = false;
  for (const auto& l : lines) {
    auto d = parse_line(l);
    BOOST_TEST(d.HasMember("level"));
    BOOST_TEST(d.HasMember("ts"));
    BOOST_TEST(d.HasMember("msg"));
    BOOST_TEST(l.find(token) == std::string::npos, "token in log line: " << l);
    if (d["msg"].GetString() == std::string("Starting c5c3-operator")) {
      start_line = true;
      BOOST_TEST(d["namespace"].GetString() == std::string("c5c3-system"));
      BOOST_TEST(d["server"].GetString() == op.files.server);
      BOOST_TEST(d["v"].GetInt() == 2);
    }
  }
  BOOST_TEST(start_line);
}

struct exit_case {
  std::vector<std::string> args;
  int code;
  std::string needle;  // in the output
};

BOOST_AUTO_TEST_CASE(exit_codes_of_flags) {
  fixture_dir files;
  // A kubeconfig whose CA data is not a certificate: no client can be made.
  const auto bad_ca = (files.dir / "bad-ca").string();
  std::ofstream(bad_ca) << "apiVersion: v1\nkind: Config\ncurrent-context: e2e\n"
                           "clusters:\n- name: e2e\n  cluster:\n    server: https://127.0.0.1:6443\n"
                           "    certificate-authority-data: bm90IGEgY2VydGlmaWNhdGU=\n"
                           "users:\n- name: e2e\n  user:\n    token: "
                        << token << "\ncontexts:\n- name: e2e\n  context:\n    cluster: e2e\n    user: e2e\n";
  const std::vector<exit_case> cases{
      {{"--help"}, 0, "--metrics-bind-address"},
      {{"-h"}, 0, "--health-probe-bind-address"},
      {{"--no-such-flag"}, 2, "--no-such-flag"},
      {{"--max-concurrent-reconciles", "zero"}, 2, "--max-concurrent-reconciles"},
      {{"--metrics-bind-address=nowhere"}, 2, "--metrics-bind-address"},
      {{"--health-probe-bind-address", "1.2.3.4:99999"}, 2, "--health-probe-bind-address"},
      {{"--log-level", "loud"}, 2, "--log-level"},
      {{"-v", "11"}, 2, "-v"},
      {{"--kubeconfig"}, 2, "--kubeconfig"},
      {{"--kubeconfig", (files.dir / "missing").string(), "--metrics-bind-address=0",
        "--health-probe-bind-address=0"},
       1,
       "unable to get kubeconfig"},
      {{"--kubeconfig", bad_ca, "--metrics-bind-address=0", "--health-probe-bind-address=0"},
       1,
       "unable to create the API client"},
  };
  for (const auto& tc : cases) {
    std::vector<std::string> argv{operator_bin()};
    argv.insert(argv.end(), tc.args.begin(), tc.args.end());
    child_process p(argv);
    auto rc = p.wait(clock_type::now() + 30s);
    p.drain(clock_type::now() + 5s);
    std::string out;
    for (const auto& l : p.lines()) out += l + "\n";
    BOOST_TEST_CONTEXT(tc.args[0]) {
      BOOST_TEST((rc == std::optional<int>(tc.code)), out);
      BOOST_TEST(out.find(tc.needle) != std::string::npos, out);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_taken_port_exits_one) {
  running_operator first;
  std::vector<std::string> argv{operator_bin(),           "--kubeconfig", first.files.kubeconfig,
                                "--metrics-bind-address", "127.0.0.1:" + std::to_string(first.metrics_port),
                                "--health-probe-bind-address=0"};
  child_process second(argv);
  auto rc = second.wait(clock_type::now() + 30s);
  second.drain(clock_type::now() + 5s);
  BOOST_TEST((rc == std::optional<int>(1)));
  BOOST_TEST((first.stop(SIGTERM) == std::optional<int>(0)));
}

BOOST_AUTO_TEST_SUITE_END()
