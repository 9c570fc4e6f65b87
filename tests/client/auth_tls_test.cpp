// Authentication and TLS against the emulator: a client-certificate user, an
// exec plugin (a small shell script) re-run after 401, and peer verification.
#include "harness.hpp"

#include "config/base64.hpp"
#include "config/exec_credential.hpp"

#include <sys/stat.h>

using namespace c5c3;
using namespace c5c3::testing;
using k8s::object;

BOOST_AUTO_TEST_SUITE(client_auth_tls)

BOOST_FIXTURE_TEST_CASE(client_certificate_user, emulator_fixture) {
  auto cert = server.issue_client_certificate("alice", {"system:masters"});
  // Through a kubeconfig with *-data fields, as a user would write it.
  auto path = temp_path("cert-kubeconfig");
  std::ofstream(path) << "apiVersion: v1\nkind: Config\ncurrent-context: alice\n"
                      << "clusters:\n- name: sim\n  cluster:\n    server: " << server.url()
                      << "\n    certificate-authority-data: " << config::base64_encode(server.ca_pem())
                      << "\nusers:\n- name: alice\n  user:\n    client-certificate-data: "
                      << config::base64_encode(cert.cert_pem)
                      << "\n    client-key-data: " << config::base64_encode(cert.key_pem)
                      << "\ncontexts:\n- name: alice\n  context: {cluster: sim, user: alice}\n";
  auto conn = config::load_connection({path, "", ""});
  BOOST_TEST_REQUIRE(conn.ok(), (conn.ok() ? "" : conn.error()));
  BOOST_TEST(!conn->client.credentials);
  auto c = make_client(conn->client);
  auto r = await<object>([&](auto cb) { c->create(configmap("default", "by-alice", "x"), {}, cb); });
  BOOST_TEST_REQUIRE(r.ok(), why(r));
  // The write was not made as the token's admin user.
  bool found = false;
  for (const auto& w : server.write_log())
    if (w.verb == "create" && w.resource == "configmaps") {
      BOOST_TEST_MESSAGE("create by " << w.client);
      found = found || (!w.client.empty() && w.client != "admin");
    }
  BOOST_TEST(found);

  // Without any credentials the server answers 401, and nothing secret shows.
  k8s::client_config anon = conn->client;
  anon.tls.client_cert_pem.clear();
  anon.tls.client_key_pem.clear();
  auto a = make_client(anon);
  auto denied = await<object>([&](auto cb) { a->get(configmap_kind, "default", "by-alice", cb); });
  BOOST_TEST_REQUIRE(!denied.ok());
  BOOST_TEST(denied.error().unauthorized());
}

BOOST_FIXTURE_TEST_CASE(exec_plugin_user_rerun_on_401, emulator_fixture) {
  auto dir = std::filesystem::path(temp_path("x")).parent_path().string();
  // First run: a wrong token; later runs: the real one. The count is kept in a file.
  std::string script = dir + "/plugin.sh";
  std::ofstream(script) << "#!/bin/sh\n"
                        << "n=$(cat \"" << dir << "/count\" 2>/dev/null || echo 0)\n"
                        << "n=$((n+1)); echo $n > \"" << dir << "/count\"\n"
                        << "tok=\"$GOOD\"; if [ $n -eq 1 ]; then tok=wrong; fi\n"
                        << "printf '{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\",\"kind\":\"ExecCredential\","
                           "\"status\":{\"token\":\"%s\"}}' \"$tok\"\n";
  ::chmod(script.c_str(), 0755);
  std::string kc = dir + "/kubeconfig";
  std::ofstream(kc) << "current-context: exec\nclusters:\n- name: sim\n  cluster:\n    server: " << server.url()
                    << "\n    certificate-authority-data: " << config::base64_encode(server.ca_pem())
                    << "\nusers:\n- name: plugin\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n"
                    << "      command: ./plugin.sh\n      env:\n      - {name: GOOD, value: '" << server.token()
                    << "'}\ncontexts:\n- name: exec\n  context: {cluster: sim, user: plugin}\n";
  auto conn = config::load_connection({kc, "", ""});
  BOOST_TEST_REQUIRE(conn.ok(), (conn.ok() ? "" : conn.error()));
  auto provider = std::dynamic_pointer_cast<config::exec_credential_provider>(conn->client.credentials);
  BOOST_TEST_REQUIRE(provider);
  auto cfg = conn->client;
  cfg.observer = counters;
  auto c = make_client(cfg);
  auto r = await<object>([&](auto cb) { c->create(configmap("default", "by-exec", "x"), {}, cb); });
  BOOST_TEST_REQUIRE(r.ok(), why(r));
  BOOST_TEST(provider->runs() == 2);  // 401 with "wrong", re-run, success
  // The first request (discovery or the create) was refused once.
  BOOST_TEST(counters->requests("GET", "401") + counters->requests("POST", "401") == 1u);
  auto again = await<object>([&](auto cb) { c->get(configmap_kind, "default", "by-exec", cb); });
  BOOST_TEST_REQUIRE(again.ok());
  BOOST_TEST(provider->runs() == 2);  // cached
  std::filesystem::remove_all(dir);
}

BOOST_FIXTURE_TEST_CASE(peer_verification, emulator_fixture) {
  auto good = base_config();
  // A CA that did not sign the server: refused.
  auto other = sim::apiserver();
  other.start();
  auto wrong_ca = good;
  wrong_ca.tls.ca_pem = other.ca_pem();
  wrong_ca.retry.max_retries = 0;
  auto c1 = make_client(wrong_ca);
  auto r1 = await<object>([&](auto cb) { c1->get(namespace_kind, "", "default", cb); });
  BOOST_TEST_REQUIRE(!r1.ok());
  BOOST_TEST(r1.error().transport());
  BOOST_TEST(r1.error().message.find("TLS handshake") != std::string::npos, r1.error().message);
  BOOST_TEST(r1.error().message.find(good.server.substr(8)) != std::string::npos);  // names the server
  // A name the certificate does not carry: refused.
  auto wrong_name = good;
  wrong_name.tls.server_name = "not-the-server.example";
  wrong_name.retry.max_retries = 0;
  auto c2 = make_client(wrong_name);
  auto r2 = await<object>([&](auto cb) { c2->get(namespace_kind, "", "default", cb); });
  BOOST_TEST_REQUIRE(!r2.ok());
  BOOST_TEST(r2.error().transport());
  // insecure-skip-tls-verify: accepted without a CA.
  auto insecure = good;
  insecure.tls.ca_pem.clear();
  insecure.tls.insecure_skip_verify = true;
  auto c3 = make_client(insecure);
  auto r3 = await<object>([&](auto cb) { c3->get(namespace_kind, "", "default", cb); });
  BOOST_TEST(r3.ok());
  // Secrets never in error messages: a token that is refused does not show.
  auto bad_token = good;
  bad_token.credentials = std::make_shared<k8s::static_token>("very-secret-token-value");
  auto c4 = make_client(bad_token);
  auto r4 = await<object>([&](auto cb) { c4->get(namespace_kind, "", "default", cb); });
  BOOST_TEST_REQUIRE(!r4.ok());
  BOOST_TEST(r4.error().unauthorized());
  BOOST_TEST(r4.error().describe().find("very-secret") == std::string::npos);
  // A bad CA PEM is reported when the client is made.
  auto garbage = good;
  garbage.tls.ca_pem = "not a pem";
  auto c5 = k8s::client::create(threads.io, garbage);
  BOOST_TEST(!c5.ok());
}

BOOST_AUTO_TEST_SUITE_END()
