// kubectl 1.32 against the in-process emulator: what sim/openapi publishes
// (discovery, OpenAPI v3, Table) must be enough for `api-resources`,
// `explain`, `get` with printer columns and categories, and client-side
// `apply` (server-side field validation, strategic merge patch of built-ins).
#include "sim/apiserver/apiserver.hpp"

#include "tests/openapi/sample_crd.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using namespace c5c3;
namespace fs = std::filesystem;

namespace {

struct result {
  int code = -1;
  std::string out;  // stdout and stderr
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

class cluster {
 public:
  cluster() : dir_(fs::temp_directory_path() / ("openapi-e2e-" + std::to_string(::getpid()))) {
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "crds");
    fs::create_directories(dir_ / "cache");
    std::ofstream(dir_ / "crds" / "rabbitmqvhosts.json") << c5c3::test::sample_crd().to_json();
    sim::apiserver_options opts;
    opts.crd_dirs = {(dir_ / "crds").string()};
    try {
      server_ = std::make_unique<sim::apiserver>(opts);
      server_->start();
      server_->write_kubeconfig((dir_ / "kubeconfig").string());
    } catch (...) {
      fs::remove_all(dir_);
      throw;
    }
  }
  ~cluster() {
    server_->stop();
    fs::remove_all(dir_);
  }

  result kubectl(const std::string& args, const std::string& stdin_text = {}) const {
    std::string cmd = "kubectl --kubeconfig " + quote((dir_ / "kubeconfig").string()) + " --cache-dir " +
                      quote((dir_ / "cache").string()) + " --request-timeout=20s " + args;
    if (!stdin_text.empty()) {
      auto in = dir_ / "stdin.yaml";
      std::ofstream(in) << stdin_text;
      cmd += " -f " + quote(in.string());
    }
    cmd += " 2>&1";
    result r;
    FILE* p = ::popen(cmd.c_str(), "r");
    BOOST_REQUIRE(p != nullptr);
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    int status = ::pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    BOOST_TEST_MESSAGE("kubectl " << args << " -> " << r.code << "\n" << r.out);
    return r;
  }

 private:
  fs::path dir_;
  std::unique_ptr<sim::apiserver> server_;
};

bool has_kubectl() { return std::system("kubectl version --client >/dev/null 2>&1") == 0; }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The header line of `kubectl get` output, with runs of spaces collapsed.
std::string squeeze(const std::string& line) {
  std::string out;
  for (char c : line)
    if (c != ' ' || (!out.empty() && out.back() != ' ')) out += c;
  while (!out.empty() && (out.back() == ' ' || out.back() == '\n')) out.pop_back();
  return out;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < text.size()) {
    auto j = text.find('\n', i);
    if (j == std::string::npos) j = text.size();
    out.push_back(squeeze(text.substr(i, j - i)));
    i = j + 1;
  }
  return out;
}

const char* const vhost_yaml = R"(apiVersion: c5c3.io/v1alpha1
kind: RabbitMQVhost
metadata:
  name: orders
  namespace: tenant-a
spec:
  controlPlaneRef:
    name: cp
)";

}  // namespace

BOOST_AUTO_TEST_SUITE(openapi_kubectl)

BOOST_AUTO_TEST_CASE(kubectl_reads_discovery_openapi_and_tables) {
  if (!has_kubectl()) {
    BOOST_TEST_MESSAGE("kubectl is not installed; skipped");
    return;
  }
  cluster c;

  auto ar = c.kubectl("api-resources");
  BOOST_TEST(ar.code == 0);
  auto ar_lines = lines(ar.out);
  auto has_line = [&](const std::string& want) {
    return std::find(ar_lines.begin(), ar_lines.end(), want) != ar_lines.end();
  };
  BOOST_TEST(has_line("rabbitmqvhosts rmqvhost c5c3.io/v1alpha2 true RabbitMQVhost"));
  BOOST_TEST(has_line("configmaps cm v1 true ConfigMap"));
  BOOST_TEST(has_line("namespaces ns v1 false Namespace"));
  BOOST_TEST(has_line("customresourcedefinitions crd,crds apiextensions.k8s.io/v1 false CustomResourceDefinition"));
  BOOST_TEST(has_line("leases coordination.k8s.io/v1 true Lease"));

  // (`kubectl create namespace` would send protobuf, which the emulator does not read.)
  BOOST_TEST(c.kubectl("apply", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: tenant-a\n").code == 0);
  // Client-side apply: kubectl learns from OpenAPI v3 that the server
  // validates fields, so no client-side (v2) validation is needed.
  auto applied = c.kubectl("apply", vhost_yaml);
  BOOST_TEST(applied.code == 0);
  BOOST_TEST(contains(applied.out, "rabbitmqvhost.c5c3.io/orders created"));
  // Applying again changes nothing: the three-way JSON merge patch is empty.
  auto again = c.kubectl("apply", vhost_yaml);
  BOOST_TEST(again.code == 0);
  BOOST_TEST(contains(again.out, "rabbitmqvhost.c5c3.io/orders unchanged"));

  auto patched = c.kubectl(
      "patch rabbitmqvhost.v1alpha1.c5c3.io orders -n tenant-a --subresource=status --type=merge -p " +
      quote(R"({"status": {"conditions": [{"type": "Ready", "status": "True", "reason": "AllReady", "message": "",
                           "lastTransitionTime": "2026-01-01T00:00:00Z"}], "vhost": "orders-1a2b3c4d",
                           "passwordGeneration": 2}})"));
  BOOST_TEST(patched.code == 0);

  auto get = c.kubectl("get rabbitmqvhosts.v1alpha1.c5c3.io -n tenant-a");
  BOOST_TEST(get.code == 0);
  auto get_lines = lines(get.out);
  BOOST_REQUIRE(get_lines.size() >= 2u);
  BOOST_TEST(get_lines[0] == "NAME READY CONTROLPLANE GENERATION NEXTROTATION AGE");
  // Empty cells print as nothing; Age is the server's humanized date.
  BOOST_TEST(get_lines[1].rfind("orders True cp 2 ", 0) == 0u, get_lines[1]);
  auto wide = c.kubectl("get rabbitmqvhosts.v1alpha1.c5c3.io -n tenant-a -o wide");
  BOOST_TEST(lines(wide.out)[0] == "NAME READY CONTROLPLANE VHOST GENERATION NEXTROTATION AGE");
  auto category = c.kubectl("get c5c3 -n tenant-a");
  BOOST_TEST(category.code == 0);
  BOOST_TEST(lines(category.out)[0] == "NAME AGE");  // the preferred version, v1alpha2, has no columns
  BOOST_TEST(lines(category.out)[1].rfind("orders ", 0) == 0u);
  auto short_name = c.kubectl("get rmqvhost -n tenant-a -o name");
  BOOST_TEST(contains(short_name.out, "rabbitmqvhost.c5c3.io/orders"));

  auto explain = c.kubectl("explain rabbitmqvhosts.spec.controlPlaneRef --api-version=c5c3.io/v1alpha1");
  BOOST_TEST(explain.code == 0);
  BOOST_TEST(contains(explain.out, "KIND:       RabbitMQVhost"));
  BOOST_TEST(contains(explain.out, "ControlPlane the order is served by."));
  BOOST_TEST(contains(explain.out, "Name of the ControlPlane."));
  auto explain_builtin = c.kubectl("explain secrets.stringData");
  BOOST_TEST(explain_builtin.code == 0);
  BOOST_TEST(contains(explain_builtin.out, "Write-only convenience"));
  auto explain_meta = c.kubectl("explain configmaps.metadata.ownerReferences");
  BOOST_TEST(contains(explain_meta.out, "UID of the owner."));

  // Client-side apply of a built-in: a strategic merge patch keyed by port.
  const std::string svc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: rabbitmq\n  namespace: tenant-a\n"
                          "spec:\n  selector:\n    app: rabbitmq\n  ports:\n";
  BOOST_TEST(c.kubectl("apply", svc + "  - name: amqp\n    port: 5672\n").code == 0);
  BOOST_TEST(c.kubectl("apply", svc + "  - name: amqp\n    port: 5672\n  - name: http\n    port: 15672\n").code == 0);
  auto ports = c.kubectl("get svc rabbitmq -n tenant-a -o jsonpath={.spec.ports[*].name}");
  BOOST_TEST(squeeze(ports.out) == "amqp http");
  BOOST_TEST(c.kubectl("apply", svc + "  - name: http\n    port: 15672\n").code == 0);
  ports = c.kubectl("get svc rabbitmq -n tenant-a -o jsonpath={.spec.ports[*].name}");
  BOOST_TEST(squeeze(ports.out) == "http");
  auto svc_get = c.kubectl("get svc -n tenant-a");
  BOOST_TEST(lines(svc_get.out)[0] == "NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE");

  BOOST_TEST(c.kubectl("apply", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\n  namespace: tenant-a\n"
                                "type: Opaque\nstringData:\n  password: s3cret\n").code == 0);
  auto secrets = c.kubectl("get secrets -n tenant-a");
  BOOST_TEST(lines(secrets.out)[0] == "NAME TYPE DATA AGE");
  BOOST_TEST(lines(secrets.out)[1].rfind("creds Opaque 1 ", 0) == 0u, lines(secrets.out)[1]);
  auto ns = c.kubectl("get namespace tenant-a");
  BOOST_TEST(lines(ns.out)[0] == "NAME STATUS AGE");
  BOOST_TEST(lines(ns.out)[1].rfind("tenant-a Active ", 0) == 0u, lines(ns.out)[1]);
  auto roles = c.kubectl("explain rolebindings.roleRef");
  BOOST_TEST(contains(roles.out, "Role or ClusterRole."));

  BOOST_TEST(c.kubectl("apply", "apiVersion: v1\nkind: Event\nmetadata:\n  name: orders.1\n  namespace: tenant-a\n"
                                "involvedObject:\n  kind: RabbitMQVhost\n  name: orders\n  namespace: tenant-a\n"
                                "reason: Provisioned\nmessage: vhost is ready\ntype: Normal\n"
                                "source:\n  component: c5c3\n").code == 0);
  auto events = c.kubectl("get events -n tenant-a");
  BOOST_TEST(lines(events.out)[0] == "LAST SEEN TYPE REASON OBJECT MESSAGE");
  BOOST_TEST(contains(lines(events.out)[1], "Normal Provisioned rabbitmqvhost/orders vhost is ready"),
             lines(events.out)[1]);

  auto crds = c.kubectl("get crds");
  BOOST_TEST(lines(crds.out)[0] == "NAME CREATED AT");
  BOOST_TEST(contains(crds.out, "rabbitmqvhosts.c5c3.io"));
}

BOOST_AUTO_TEST_SUITE_END()
