// `c5c3-sim world` as an ordinary client of the emulator: it installs its
// CRDs, and objects applied with kubectl become Ready; a deleted Vhost is
// released by its finalizer; a K-ORC object says what it waits for.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <signal.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using namespace std::chrono_literals;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  if (!v) throw std::runtime_error(std::string(name) + " is not set");
  return v;
}

// A child process, ended with SIGTERM (then SIGKILL) when this goes away.
class child {
 public:
  child(std::vector<std::string> argv, const std::string& log) {
    std::fflush(nullptr);  // no buffered output duplicated into the child
    pid_ = ::fork();
    if (pid_ == 0) {
      std::FILE* f = std::freopen(log.c_str(), "w", stdout);
      (void)f;
      ::dup2(STDOUT_FILENO, STDERR_FILENO);
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
  }
  ~child() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return;
      std::this_thread::sleep_for(50ms);
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  child(const child&) = delete;
  child& operator=(const child&) = delete;

 private:
  pid_t pid_ = -1;
};

std::string run(const std::string& cmd, int* status = nullptr) {
  std::string out;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  char buf[512];
  while (auto n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int st = ::pclose(p);
  if (status) *status = st;
  return out;
}

// Polls `probe` until it answers true or `limit` passes.
template <class F>
bool eventually(F probe, std::chrono::seconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (probe()) return true;
    std::this_thread::sleep_for(200ms);
  }
  return probe();
}

}  // namespace

BOOST_AUTO_TEST_CASE(world_command_converges_objects_applied_with_kubectl) {
  const auto sim = env("C5C3_SIM");
  const auto data = env("C5C3_WORLD_DATA");
  char tmpl[] = "/tmp/c5c3-world-cli-XXXXXX";
  BOOST_TEST_REQUIRE(::mkdtemp(tmpl) != nullptr);
  const std::string dir = tmpl;
  const std::string kubeconfig = dir + "/kubeconfig";

  child apiserver({sim, "apiserver", "--listen", "127.0.0.1:0", "--kubeconfig-out", kubeconfig},
                  dir + "/apiserver.log");
  BOOST_TEST_REQUIRE(eventually([&] { return std::filesystem::exists(kubeconfig); }, 30s));
  child world({sim, "world", "--kubeconfig", kubeconfig}, dir + "/world.log");
  const std::string kubectl = "/usr/bin/kubectl --kubeconfig " + kubeconfig + " ";

  // The CRDs come from the world itself.
  std::string out;
  BOOST_TEST_REQUIRE(eventually(
      [&] {
        int st = 0;
        out = run(kubectl + "apply -f " + data + "/world.yaml", &st);
        return st == 0;
      },
      60s), out);

  auto jsonpath = [&](const std::string& what, const std::string& path) {
    return run(kubectl + "get " + what + " -o jsonpath='" + path + "'");
  };
  BOOST_TEST(eventually([&] { return jsonpath("vhost v", "{.status.conditions[?(@.type==\"Ready\")].status}") == "True"; }, 60s));
  BOOST_TEST(eventually([&] { return jsonpath("user.rabbitmq.com u", "{.status.username}") == "order-user"; }, 60s));
  BOOST_TEST(eventually([&] {
    return jsonpath("rabbitmqcluster rmq", "{.status.conditions[?(@.type==\"AllReplicasReady\")].status}") == "True";
  }, 60s));
  BOOST_TEST(eventually([&] { return jsonpath("pushsecret ps", "{.status.conditions[?(@.type==\"Ready\")].reason}") == "Synced"; }, 60s));
  BOOST_TEST(jsonpath("secret rmq-default-user", "{.data.host}") == "cm1xLmRlZmF1bHQuc3Zj");  // rmq.default.svc
  BOOST_TEST(jsonpath("vhost v", "{.metadata.finalizers[0]}") == "deletion.finalizers.vhosts.rabbitmq.com");
  BOOST_TEST(eventually([&] {
    return jsonpath("project.openstack.k-orc.cloud p", "{.status.conditions[?(@.type==\"Progressing\")].message}") ==
           "Waiting for Secret/no-such-cloud to be created";
  }, 60s));

  run(kubectl + "delete vhost v --wait=false");
  BOOST_TEST(eventually([&] {
    int st = 0;
    run(kubectl + "get vhost v", &st);
    return st != 0;
  }, 60s));

  // A real Keystone needs its admin password.
  int st = 0;
  auto refused = run(sim + " world --kubeconfig " + kubeconfig + " --keystone-url http://127.0.0.1:1", &st);
  BOOST_TEST(WEXITSTATUS(st) == 2);
  BOOST_TEST(refused.find("--keystone-url needs --keystone-admin-password-file") != std::string::npos, refused);

  std::ifstream log(dir + "/world.log");
  BOOST_TEST_MESSAGE("world log:\n" << std::string(std::istreambuf_iterator<char>(log), {}));
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
