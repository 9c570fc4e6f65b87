#include "config/base64.hpp"
#include "config/connection.hpp"
#include "config/kubeconfig.hpp"
#include "temp_dir.hpp"

#include <boost/test/unit_test.hpp>

#include <map>

using namespace c5c3::config;
using c5c3::testing::temp_dir;

namespace {

env_lookup fake_env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const std::string& k) -> std::optional<std::string> {
    auto it = vars.find(k);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

const char* first_file = R"(apiVersion: v1
kind: Config
current-context: alpha
clusters:
- name: shared
  cluster:
    server: https://first.example:6443
    certificate-authority: certs/ca.crt
- name: only-first
  cluster:
    server: https://only-first:6443
    certificate-authority-data: )";

const char* second_file = R"(apiVersion: v1
kind: Config
current-context: beta
clusters:
- name: shared
  cluster:
    server: https://second.example:6443
- name: only-second
  cluster:
    server: http://127.0.0.1:8080
    insecure-skip-tls-verify: true
    tls-server-name: api.internal
users:
- name: tok
  user:
    token: s3cret-token
- name: files
  user:
    tokenFile: tokens/t
    client-certificate: pki/c.crt
    client-key: pki/c.key
contexts:
- name: alpha
  context: {cluster: shared, user: tok, namespace: team-a}
- name: beta
  context: {cluster: only-second, user: tok}
- name: broken
  context: {cluster: nowhere, user: tok}
)";

}  // namespace

BOOST_AUTO_TEST_SUITE(config_kubeconfig)

BOOST_AUTO_TEST_CASE(base64_round_trip) {
  for (std::string s : {"", "a", "ab", "abc", "abcd", "-----BEGIN CERTIFICATE-----\n\x01\xff"}) {
    auto enc = base64_encode(s);
    BOOST_TEST(base64_decode(enc).value() == s);
  }
  BOOST_TEST(base64_decode("aGVs\nbG8=").value() == "hello");
  BOOST_TEST(!base64_decode("aGVsbG8"));  // Go's StdEncoding requires the padding, as client-go reads it
  BOOST_TEST(!base64_decode("a$b="));
}

BOOST_AUTO_TEST_CASE(merged_files_first_definition_wins) {
  temp_dir d;
  auto p1 = d.write("one/config", std::string(first_file) + base64_encode("CA-PEM") + "\n");
  auto p2 = d.write("two/config", second_file);
  auto kc = load_kubeconfig_list(split_kubeconfig_paths(p1 + ":" + d.file("missing") + "::" + p2 + ":" + p1));
  BOOST_TEST_REQUIRE(kc.ok(), (kc.ok() ? "" : kc.error()));
  BOOST_TEST(kc->current_context == "alpha");  // first non-empty current-context
  BOOST_TEST(kc->clusters.at("shared").server == "https://first.example:6443");
  BOOST_TEST(kc->clusters.at("shared").certificate_authority == d.path() + "/one/certs/ca.crt");
  BOOST_TEST(kc->clusters.at("only-first").certificate_authority_data == "CA-PEM");
  BOOST_TEST(kc->clusters.at("only-second").tls_server_name == "api.internal");
  BOOST_TEST(kc->clusters.at("only-second").insecure_skip_tls_verify);
  BOOST_TEST(kc->users.at("files").token_file == d.path() + "/two/tokens/t");
  BOOST_TEST(kc->users.at("files").client_key == d.path() + "/two/pki/c.key");
  BOOST_TEST(kc->contexts.at("alpha").namespace_ == "team-a");
  BOOST_TEST(split_kubeconfig_paths("a::b:a").size() == 2u);
}

BOOST_AUTO_TEST_CASE(context_selection) {
  auto kc = parse_kubeconfig(second_file, "/base");
  BOOST_TEST_REQUIRE(kc.ok());
  auto cur = select_context(kc.value(), "");
  BOOST_TEST_REQUIRE(cur.ok());
  BOOST_TEST(cur->name == "beta");
  BOOST_TEST(cur->cluster.server == "http://127.0.0.1:8080");
  auto alpha = select_context(kc.value(), "alpha");
  BOOST_TEST_REQUIRE(alpha.ok());
  BOOST_TEST(alpha->cluster.server == "https://second.example:6443");
  auto missing = select_context(kc.value(), "nope");
  BOOST_TEST(!missing.ok());
  BOOST_TEST(missing.error() == "context \"nope\" does not exist in the kubeconfig");
  auto broken = select_context(kc.value(), "broken");
  BOOST_TEST(!broken.ok());
  BOOST_TEST(broken.error().find("cluster \"nowhere\"") != std::string::npos);
  auto none = select_context(kubeconfig{}, "");
  BOOST_TEST(!none.ok());
}

BOOST_AUTO_TEST_CASE(malformed_files_are_named) {
  temp_dir d;
  auto bad = d.write("bad", "clusters: [ {name: x, cluster: {server: a}\n");
  auto r = load_kubeconfig_list({bad});
  BOOST_TEST(!r.ok());
  BOOST_TEST(r.error().find(bad) != std::string::npos);
  auto b64 = parse_kubeconfig("users:\n- name: u\n  user:\n    client-key-data: '!!!notbase64'\n");
  BOOST_TEST(!b64.ok());
  BOOST_TEST(b64.error().find("client-key-data") != std::string::npos);
  BOOST_TEST(b64.error().find("notbase64") == std::string::npos);  // content never echoed
  BOOST_TEST(parse_kubeconfig("").ok());
}

struct refusal_case {
  const char* what;
  const char* cluster_yaml;
  const char* user_yaml;
  const char* expect;
};

BOOST_AUTO_TEST_CASE(unsupported_settings_are_refused_clearly) {
  const refusal_case cases[] = {
      {"proxy", "server: https://x:1\n    proxy-url: http://proxy:3128", "token: t", "proxy-url is not supported"},
      {"basic auth", "server: https://x:1", "username: admin\n    password: hunter2",
       "basic authentication (username/password) is not supported"},
      {"auth provider", "server: https://x:1", "auth-provider: {name: oidc}", "auth-provider plugins are not supported"},
      {"no server", "insecure-skip-tls-verify: true", "token: t", "has no server defined"},
      {"insecure with CA", "server: https://x:1\n    insecure-skip-tls-verify: true\n    certificate-authority-data: Q0E=",
       "token: t", "with the insecure flag is not allowed"},
      {"cert without key", "server: https://x:1", "client-certificate-data: Q0VSVA==", "needs both"},
      {"exec v1 without interactiveMode", "server: https://x:1",
       "exec: {apiVersion: client.authentication.k8s.io/v1, command: x}", "interactiveMode must be specified"},
      {"exec Always", "server: https://x:1",
       "exec: {apiVersion: client.authentication.k8s.io/v1, command: x, interactiveMode: Always}", "needs a terminal"},
      {"exec old version", "server: https://x:1",
       "exec: {apiVersion: client.authentication.k8s.io/v1alpha1, command: x}", "unsupported apiVersion"},
  };
  for (const auto& c : cases) {
    BOOST_TEST_CONTEXT(c.what) {
      std::string text = std::string("clusters:\n- name: c\n  cluster:\n    ") + c.cluster_yaml +
                         "\nusers:\n- name: u\n  user:\n    " + c.user_yaml +
                         "\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n";
      auto kc = parse_kubeconfig(text);
      BOOST_TEST_REQUIRE(kc.ok(), (kc.ok() ? "" : kc.error()));
      auto s = select_context(kc.value(), "");
      BOOST_TEST_REQUIRE(s.ok());
      auto conn = connection_from_context(s.value());
      BOOST_TEST_REQUIRE(!conn.ok());
      BOOST_TEST(conn.error().find(c.expect) != std::string::npos, conn.error());
      BOOST_TEST(conn.error().find("hunter2") == std::string::npos);
    }
  }
}

BOOST_AUTO_TEST_CASE(connection_from_files_and_data) {
  temp_dir d;
  d.write("pki/ca.crt", "CA-FROM-FILE");
  d.write("pki/c.crt", "CERT");
  d.write("pki/c.key", "KEY");
  d.write("tok", "file-token\n");
  auto kc = d.write("config", R"(current-context: x
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:6443", certificate-authority: pki/ca.crt, tls-server-name: kubernetes}
users:
- name: u
  user: {client-certificate: pki/c.crt, client-key: pki/c.key, tokenFile: tok, token: inline-token}
contexts:
- name: x
  context: {cluster: c, user: u, namespace: ops}
- name: other
  context: {cluster: c, user: u}
)");
  auto conn = load_connection({kc, "", ""}, fake_env({}));
  BOOST_TEST_REQUIRE(conn.ok(), (conn.ok() ? "" : conn.error()));
  BOOST_TEST(conn->client.server == "https://127.0.0.1:6443");
  BOOST_TEST(conn->client.tls.ca_pem == "CA-FROM-FILE");
  BOOST_TEST(conn->client.tls.server_name == "kubernetes");
  BOOST_TEST(conn->client.tls.client_cert_pem == "CERT");
  BOOST_TEST(conn->client.tls.client_key_pem == "KEY");
  BOOST_TEST(conn->namespace_ == "ops");
  std::string err;
  BOOST_TEST(conn->client.credentials->bearer_token(&err).value() == "file-token");  // tokenFile wins
  auto y = load_connection({kc, "other", ""}, fake_env({}));
  BOOST_TEST_REQUIRE(y.ok());
  BOOST_TEST(y->namespace_ == "default");

  // Precedence: --kubeconfig, then KUBECONFIG, then in-cluster, then ~/.kube/config.
  auto missing = load_connection({d.file("nope"), "", ""}, fake_env({{"KUBECONFIG", kc}}));
  BOOST_TEST(!missing.ok());
  BOOST_TEST(missing.error().find("does not exist") != std::string::npos);
  auto via_env = load_connection({"", "other", ""}, fake_env({{"KUBECONFIG", kc}, {"KUBERNETES_SERVICE_HOST", "10.0.0.1"}}));
  BOOST_TEST_REQUIRE(via_env.ok());
  BOOST_TEST(via_env->source == "kubeconfig context \"other\"");
  d.write("home/.kube/config", "current-context: h\nclusters:\n- name: c\n  cluster: {server: 'http://home:1'}\n"
                               "contexts:\n- name: h\n  context: {cluster: c}\n");
  auto home = load_connection({}, fake_env({{"HOME", d.file("home")}}));
  BOOST_TEST_REQUIRE(home.ok(), (home.ok() ? "" : home.error()));
  BOOST_TEST(home->client.server == "http://home:1");
  BOOST_TEST(!home->client.credentials);
  auto nothing = load_connection({}, fake_env({{"HOME", d.file("nohome")}}));
  BOOST_TEST(!nothing.ok());
}

BOOST_AUTO_TEST_SUITE_END()
