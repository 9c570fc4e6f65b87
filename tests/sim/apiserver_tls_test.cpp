// TLS, authentication (admin token, token file, client certificates), the
// kubeconfig and state that survives a restart (and a crash) with a data dir.
#include "k8s/yaml.hpp"
#include "tests/sim/fixture.hpp"

#include <boost/test/unit_test.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace c5c3;
using namespace c5c3::sim::test;

namespace {

std::string str(const k8s::json_value& v, std::initializer_list<std::string_view> p) {
  return std::string(k8s::get_string(v, p));
}

std::filesystem::path temp_dir(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() / ("c5c3-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(apiserver_tls)

BOOST_AUTO_TEST_CASE(https_with_token_and_client_certificates) {
  server_fixture f;
  BOOST_TEST(f.server->url().rfind("https://127.0.0.1:", 0) == 0u);
  auto c = f.client();
  BOOST_TEST(c.get("/api/v1/namespaces/default").status == 200);

  auto cert = f.server->issue_client_certificate("alice", {"devs"});
  auto o = f.client_opts();
  o.token.clear();
  o.cert_pem = cert.cert_pem;
  o.key_pem = cert.key_pem;
  http_client alice(o);
  auto r = alice.post("/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"from-alice"}})");
  BOOST_TEST(r.status == 201);
  BOOST_TEST(f.server->write_log().back().client == "alice");

  auto anon = f.client_opts();
  anon.token.clear();
  BOOST_TEST(http_client(anon).get("/api/v1/namespaces").status == 401);

  // A certificate from another CA fails the handshake.
  sim::apiserver_options other_opts;
  sim::apiserver other(other_opts);
  other.start();
  auto foreign = other.issue_client_certificate("mallory");
  auto m = f.client_opts();
  m.token.clear();
  m.cert_pem = foreign.cert_pem;
  m.key_pem = foreign.key_pem;
  BOOST_TEST(http_client(m).get("/api/v1/namespaces").status != 200);
}

BOOST_AUTO_TEST_CASE(token_file_users_and_kubeconfig) {
  auto dir = temp_dir("tokens");
  {
    std::ofstream out(dir / "tokens.csv");
    out << "# comment\nsecret-1,bob,uid-1,\"a,b\"\nbare-token\n";
  }
  auto o = sim::apiserver_options{};
  o.token_file = (dir / "tokens.csv").string();
  server_fixture f(o);
  auto co = f.client_opts();
  co.token = "secret-1";
  http_client bob(co);
  auto br = bob.post("/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"b"}})");
  BOOST_TEST_REQUIRE(br.status == 201, br.error << br.body);
  BOOST_TEST(f.server->write_log().back().client == "bob");
  co.token = "bare-token";
  BOOST_TEST(http_client(co).get("/api/v1/namespaces").status == 200);
  co.token = "nope";
  BOOST_TEST(http_client(co).get("/api/v1/namespaces").status == 401);

  auto kc = k8s::yaml_to_json(f.server->kubeconfig_yaml());
  BOOST_TEST_REQUIRE(kc.has_value());
  const auto& clusters = *k8s::member(*kc, "clusters");
  BOOST_TEST(str(clusters[0], {"cluster", "server"}) == f.server->url());
  BOOST_TEST(!str(clusters[0], {"cluster", "certificate-authority-data"}).empty());
  BOOST_TEST(str((*k8s::member(*kc, "users"))[0], {"user", "token"}) == f.server->token());
  f.server->write_kubeconfig((dir / "kc").string());
  BOOST_TEST(std::filesystem::exists(dir / "kc"));
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(data_dir_state_survives_restart) {
  auto dir = temp_dir("data");
  std::string token, uid, ca;
  std::int64_t rv = 0;
  {
    sim::apiserver_options o;
    o.data_dir = dir.string();
    server_fixture f(o);
    auto c = f.client();
    auto r = c.post("/api/v1/namespaces/default/secrets", R"({"metadata":{"name":"keep"},"stringData":{"a":"b"}})");
    BOOST_TEST_REQUIRE(r.status == 201);
    uid = str(r.json(), {"metadata", "uid"});
    token = f.server->token();
    ca = f.server->ca_pem();
    rv = f.server->current_resource_version();
    f.server->stop();
  }
  sim::apiserver_options o;
  o.data_dir = dir.string();
  server_fixture f(o);
  BOOST_TEST(f.server->token() == token);
  BOOST_TEST(f.server->ca_pem() == ca);
  BOOST_TEST(f.server->current_resource_version() == rv);
  auto c = f.client();
  auto got = c.get("/api/v1/namespaces/default/secrets/keep");
  BOOST_TEST(got.status == 200);
  BOOST_TEST(str(got.json(), {"metadata", "uid"}) == uid);
  auto next = c.post("/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"after"}})");
  BOOST_TEST(std::stoll(str(next.json(), {"metadata", "resourceVersion"})) > rv);
  std::filesystem::remove_all(dir);
}

// --data-dir keeps a snapshot and an append-only log: the files as a running
// server leaves them (no stop, as after kill -9) hold every change, a torn
// last line is ignored, and a restart compacts the log into the snapshot.
BOOST_AUTO_TEST_CASE(data_dir_log_survives_a_crash_and_compacts) {
  auto dir = temp_dir("data-log");
  auto crashed = temp_dir("data-crashed");
  std::int64_t rv = 0;
  {
    sim::apiserver_options o = plain();
    o.data_dir = dir.string();
    server_fixture f(o);
    auto c = f.client();
    const std::string cms = "/api/v1/namespaces/default/configmaps";
    for (int i = 0; i < 20; ++i)
      BOOST_REQUIRE_EQUAL(c.post(cms, fmt::format(R"({{"metadata":{{"name":"cm-{}"}}}})", i)).status, 201);
    BOOST_REQUIRE_EQUAL(c.patch(cms + "/cm-1", R"({"data":{"k":"v"}})", "application/merge-patch+json").status, 200);
    BOOST_REQUIRE_EQUAL(c.del(cms + "/cm-2").status, 200);
    rv = f.server->current_resource_version();
    auto snapshot_size = std::filesystem::file_size(dir / "state.json");
    // Each write appended to the log; the snapshot was not rewritten.
    BOOST_TEST(std::filesystem::file_size(dir / "state.log") > 0u);
    std::ifstream log(dir / "state.log");
    BOOST_TEST(std::count(std::istreambuf_iterator<char>(log), {}, '\n') == 22);
    BOOST_TEST(std::filesystem::file_size(dir / "state.json") == snapshot_size);
    std::filesystem::copy(dir, crashed, std::filesystem::copy_options::recursive);
    std::ofstream torn(crashed / "state.log", std::ios::app);
    torn << R"({"rv":99999,"resource":"configmaps","obj)";
  }
  sim::apiserver_options o = plain();
  o.data_dir = crashed.string();
  server_fixture f(o);
  BOOST_TEST(f.server->current_resource_version() == rv);
  auto c = f.client();
  const std::string cms = "/api/v1/namespaces/default/configmaps";
  BOOST_TEST(c.get(cms + "/cm-19").status == 200);
  BOOST_TEST(str(c.get(cms + "/cm-1").json(), {"data", "k"}) == "v");
  BOOST_TEST(c.get(cms + "/cm-2").status == 404);
  BOOST_TEST(std::filesystem::file_size(crashed / "state.log") == 0u);  // compacted at start
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(crashed);
}

BOOST_AUTO_TEST_SUITE_END()
