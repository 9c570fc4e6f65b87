// `c5c3-operator --embedded` as a process: the emulator on a free loopback
// port with its state in a temporary data directory, the printed kubeconfig
// used with kubectl (CRDs served, samples present, the simulated world at
// work, the sample RabbitMQVhost Ready, the sample KeystoneUser and KeystoneProject Ready, the monitoring
// samples acted on), the change lines of the live table on a pipe, SIGTERM exits 0, and a
// restart on the same data directory keeps what the user did with kubectl
// (the samples are not applied again).
#include "tests/embedded/embedded_run.hpp"

#include <boost/test/unit_test.hpp>

#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <poll.h>

using namespace c5c3::test;

namespace {

std::string token_of(const std::string& kubeconfig) {
  std::ifstream in(kubeconfig);
  std::string line;
  while (std::getline(in, line))
    if (auto p = line.find("token: "); p != std::string::npos) return line.substr(p + 7);
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(embedded_e2e)

BOOST_AUTO_TEST_CASE(serves_the_samples_and_keeps_user_changes_across_a_restart) {
  temp_dir dir;
  std::string token;
  {
    embedded_run run(dir.path);
    token = token_of(run.kubeconfig);
    BOOST_TEST(!token.empty());
    BOOST_TEST(((fs::status(dir.path / "kubeconfig").permissions() & fs::perms::others_read) == fs::perms::none));

    auto crds = run.kubectl({"get", "crd", "controlplanes.c5c3.io", "rabbitmqvhosts.c5c3.io", "keystoneusers.c5c3.io",
                             "vhosts.rabbitmq.com", "pushsecrets.external-secrets.io"});
    BOOST_TEST(crds.first == 0, crds.second);
    auto vhosts = run.kubectl({"get", "rabbitmqvhosts", "-A"});
    BOOST_TEST(vhosts.first == 0, vhosts.second);
    BOOST_TEST(vhosts.second.find("tenant-a") != std::string::npos, vhosts.second);
    BOOST_TEST(vhosts.second.find("app") != std::string::npos, vhosts.second);
    auto cp = run.kubectl({"get", "controlplane", "cp", "-n", "openstack", "-o", "name"});
    BOOST_TEST(cp.first == 0, cp.second);
    BOOST_TEST(cp.second.find("controlplane.c5c3.io/cp") != std::string::npos, cp.second);
    auto store = run.kubectl({"get", "clustersecretstore", "openbao-cluster-store", "-o", "name"});
    BOOST_TEST(store.first == 0, store.second);

    // The simulated world runs: the cluster operator makes the sample RabbitmqCluster ready.
    auto cluster = run.kubectl({"wait", "--for=condition=AllReplicasReady", "rabbitmqcluster/openstack-rabbitmq",
                                "-n", "openstack", "--timeout=60s"});
    BOOST_TEST(cluster.first == 0, cluster.second);

    // The operator reconciles the sample order to Ready through the simulated world.
    auto ready = run.kubectl(
        {"wait", "--for=condition=Ready", "rabbitmqvhost/app", "-n", "tenant-a", "--timeout=60s"});
    BOOST_TEST(ready.first == 0, ready.second);
    BOOST_TEST(run.printed("RabbitMQVhost tenant-a/app READY=True", clock_type::now() + 10s), run.output());

    // The Keystone order samples (deploy/samples/orders) through the simulated K-ORC and its in-memory
    // Keystone: the KeystoneUser and the KeystoneProject Ready, the user's credentials delivered.
    auto keystone = run.kubectl({"wait", "--for=condition=Ready", "keystoneuser/workflow",
                                 "keystoneproject/workflow-project", "-n", "tenant-a", "--timeout=90s"});
    BOOST_TEST(keystone.first == 0, keystone.second);
    auto delivered = run.kubectl({"get", "secret", "workflow-credentials", "-n", "tenant-a", "-o",
                                  "jsonpath={.data.clouds\\.yaml}"});
    BOOST_TEST(delivered.first == 0, delivered.second);
    BOOST_TEST(!delivered.second.empty());

    // The monitoring samples (deploy/samples/monitoring): every controller acts. The ServiceMonitors carry
    // the Prometheus's selector label (auto and federated), the Prometheus is registered with the backend
    // stand-in and bound, the Alertmanager has the inbox AlertmanagerConfig.
    auto labelled = run.kubectl({"wait", "--for=jsonpath={.metadata.labels.release}=kube-prometheus-stack",
                                 "servicemonitor/web", "servicemonitor/web-federated", "-n", "demo", "--timeout=60s"});
    BOOST_TEST(labelled.first == 0, labelled.second);
    auto bound = run.kubectl({"wait", "--for=jsonpath={.spec.type}=Prometheus", "appbinding/default-prometheus", "-n",
                              "monitoring", "--timeout=60s"});
    BOOST_TEST(bound.first == 0, bound.second);
    auto inbox = run.kubectl({"wait", "--for=jsonpath={.spec.route.receiver}=webhook", "alertmanagerconfig/inbox-agent",
                              "-n", "monitoring", "--timeout=60s"});
    BOOST_TEST(inbox.first == 0, inbox.second);

    // Not a terminal: the live table prints a line per change.
    BOOST_TEST(run.printed("added RabbitMQVhost tenant-a/app", clock_type::now() + 30s), run.output());

    // One process per data directory.
    {
      child_process second({operator_bin(), "--embedded", "--data-dir", dir.path.string(), "--metrics-bind-address=0",
                            "--health-probe-bind-address=0"});
      auto rc = second.wait(clock_type::now() + 30s);
      second.drain(clock_type::now() + 5s);
      std::string out;
      for (const auto& l : second.lines()) out += l + "\n";
      BOOST_TEST((rc == std::optional<int>(2)), out);
      BOOST_TEST(out.find("is in use") != std::string::npos, out);
    }

    // What the user does with kubectl.
    auto cm = run.kubectl({"create", "configmap", "mine", "-n", "tenant-a", "--from-literal=k=v"});
    BOOST_TEST(cm.first == 0, cm.second);
    auto patched = run.kubectl({"patch", "rabbitmqcluster", "openstack-rabbitmq", "-n", "openstack", "--type=merge",
                                "-p", R"({"spec":{"replicas":3}})"});
    BOOST_TEST(patched.first == 0, patched.second);

    BOOST_TEST((run.stop() == std::optional<int>(0)), run.output());
    BOOST_TEST(run.output().find(token) == std::string::npos, "the admin token was printed");
  }
  {
    embedded_run again(dir.path);
    BOOST_TEST(again.output().find("Samples applied on an earlier start") != std::string::npos, again.output());
    auto cm = again.kubectl({"get", "configmap", "mine", "-n", "tenant-a", "-o", "jsonpath={.data.k}"});
    BOOST_TEST(cm.first == 0, cm.second);
    BOOST_TEST(cm.second == "v");
    auto replicas = again.kubectl(
        {"get", "rabbitmqcluster", "openstack-rabbitmq", "-n", "openstack", "-o", "jsonpath={.spec.replicas}"});
    BOOST_TEST(replicas.first == 0, replicas.second);
    BOOST_TEST(replicas.second == "3");
    auto vhosts = again.kubectl({"get", "rabbitmqvhosts", "-A", "-o", "name"});
    BOOST_TEST(vhosts.first == 0, vhosts.second);
    BOOST_TEST(vhosts.second.find("rabbitmqvhost.c5c3.io/app") != std::string::npos, vhosts.second);
    BOOST_TEST((again.stop() == std::optional<int>(0)), again.output());
    BOOST_TEST(again.output().find(token) == std::string::npos, "the admin token was printed");
  }
}

// On a terminal the table is redrawn: run the binary on a pseudo-terminal of
// 120x30 and read until a whole table with the sample order has been drawn.
// `c5c3-operator explain` asks the running operator why an order waits.
BOOST_AUTO_TEST_CASE(explain_says_where_an_order_stands) {
  temp_dir dir;
  embedded_run run(dir.path);
  std::string health;
  for (const auto& l : run.proc->lines()) {
    auto at = l.find(R"("msg":"Starting health probe server","bindAddress":")");
    if (at == std::string::npos) continue;
    auto from = l.find("127.0.0.1:", at);
    health = l.substr(from, l.find('"', from) - from);
  }
  BOOST_TEST_REQUIRE(!health.empty(), run.output());
  auto ready = run.kubectl({"wait", "--for=condition=Ready", "rabbitmqvhost/app", "-n", "tenant-a", "--timeout=90s"});
  BOOST_TEST_REQUIRE(ready.first == 0, ready.second);
  auto explain = [&](const std::string& what, const std::string& ns) {
    auto r = run_with_input({operator_bin(), "explain", what, "-n", ns, "--health-probe-bind-address", health}, "");
    run.proc->drain(clock_type::now() + 20ms);
    return r;
  };
  auto ok = explain("RabbitMQVhost/app", "tenant-a");
  BOOST_TEST(ok.first == 0, ok.second);
  BOOST_TEST(ok.second.find("rabbitmqvhost tenant-a/app on the management cluster") != std::string::npos, ok.second);
  BOOST_TEST(ok.second.find("Ready:       True AllReady") != std::string::npos, ok.second);
  BOOST_TEST(ok.second.find("Stopped at:  legs") != std::string::npos, ok.second);
  BOOST_TEST(ok.second.find("rotation 20") != std::string::npos, ok.second);

  // An order whose ControlPlane does not exist stops at admission and says so.
  auto lost = run_with_input({"kubectl", "--kubeconfig", run.kubeconfig, "apply", "-f", "-"},
                             "apiVersion: c5c3.io/v1alpha1\nkind: RabbitMQVhost\nmetadata: {name: lost, namespace: "
                             "tenant-a}\nspec: {controlPlaneRef: {name: nowhere}}\n");
  BOOST_TEST_REQUIRE(lost.first == 0, lost.second);
  std::pair<int, std::string> why;
  auto deadline = clock_type::now() + 60s;
  do {
    run.proc->drain(clock_type::now() + 200ms);
    why = explain("rabbitmqvhosts/lost", "tenant-a");
  } while (why.second.find("ControlPlaneNotFound") == std::string::npos && clock_type::now() < deadline);
  BOOST_TEST(why.second.find("Blocked by:  VhostReady=False ControlPlaneNotFound: ControlPlane tenant-a/nowhere") !=
                 std::string::npos,
             why.second);
  BOOST_TEST(why.second.find("Stopped at:  admission") != std::string::npos, why.second);

  auto none = explain("rabbitmqvhost/absent", "tenant-a");
  BOOST_TEST(none.second.find("no order actor holds it") != std::string::npos, none.second);
  auto unknown = explain("gizmo/x", "tenant-a");
  BOOST_TEST(unknown.first == 2);
  BOOST_TEST((run.stop() == std::optional<int>(0)));
}

BOOST_AUTO_TEST_CASE(on_a_terminal_the_table_is_drawn) {
  temp_dir dir;
  winsize ws{};
  ws.ws_col = 120;
  ws.ws_row = 30;
  int master = -1;
  std::string bin = operator_bin();
  std::string data = dir.path.string();
  std::fflush(nullptr);
  pid_t pid = ::forkpty(&master, nullptr, nullptr, &ws);
  BOOST_REQUIRE(pid >= 0);
  if (pid == 0) {
    std::vector<std::string> argv{bin, "--embedded", "--data-dir", data, "--metrics-bind-address=0",
                                  "--health-probe-bind-address=0"};
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    // The logs stay off the terminal, as the README suggests.
    std::FILE* f = std::freopen((data + "/stderr.log").c_str(), "w", stderr);
    (void)f;
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  std::string seen;
  auto deadline = clock_type::now() + 120s;
  auto drawn = [&] {
    // A frame: clear screen, the header, the titles, the orders, the count.
    auto frame = seen.rfind("\x1b[H\x1b[2J");
    if (frame == std::string::npos) return false;
    auto f = seen.substr(frame);
    return f.find("Ctrl-C stops") != std::string::npos && f.find("NAMESPACE") != std::string::npos &&
           f.find("RabbitMQVhost") != std::string::npos &&
           f.find("6 orders, ") != std::string::npos;  // the RabbitMQVhost and the five Keystone order samples
  };
  while (!drawn() && clock_type::now() < deadline) {
    char buf[4096];
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) continue;
    auto n = ::read(master, buf, sizeof buf);
    if (n <= 0) break;
    seen.append(buf, static_cast<std::size_t>(n));
  }
  BOOST_TEST(drawn(), seen);
  for (auto& line : [&] {
         std::vector<std::string> ls;
         std::istringstream in(seen);
         std::string l;
         while (std::getline(in, l)) ls.push_back(l);
         return ls;
       }()) {
    auto visible = line;
    if (auto e = visible.rfind("\x1b[2J"); e != std::string::npos) visible = visible.substr(e + 4);
    while (!visible.empty() && visible.back() == '\r') visible.pop_back();
    BOOST_TEST(visible.size() <= 120u, visible);
  }
  ::kill(pid, SIGTERM);
  int status = -1;
  for (int i = 0; i < 600 && ::waitpid(pid, &status, WNOHANG) == 0; ++i) {
    char buf[4096];
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 100) > 0 && ::read(master, buf, sizeof buf) <= 0) std::this_thread::sleep_for(100ms);
  }
  ::close(master);
  BOOST_TEST(WIFEXITED(status));
  BOOST_TEST(WEXITSTATUS(status) == 0);
}

BOOST_AUTO_TEST_CASE(a_source_dir_without_manifests_exits_two) {
  temp_dir dir;
  child_process p({operator_bin(), "--embedded", "--data-dir", (dir.path / "state").string(), "--source-dir",
                   dir.path.string(), "--metrics-bind-address=0", "--health-probe-bind-address=0"});
  auto rc = p.wait(clock_type::now() + 30s);
  p.drain(clock_type::now() + 5s);
  std::string out;
  for (const auto& l : p.lines()) out += l + "\n";
  BOOST_TEST((rc == std::optional<int>(2)), out);
  BOOST_TEST(out.find("--source-dir") != std::string::npos, out);
}

BOOST_AUTO_TEST_SUITE_END()
