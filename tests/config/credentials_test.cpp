#include "config/connection.hpp"
#include "config/exec_credential.hpp"
#include "config/token_file.hpp"
#include "temp_dir.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
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

// Replaces `path` the way kubelet rotates projected tokens: a new file renamed over it.
void rotate(const std::string& path, const std::string& content) {
  std::ofstream(path + ".new", std::ios::trunc) << content;
  std::filesystem::rename(path + ".new", path);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(config_credentials)

BOOST_AUTO_TEST_CASE(in_cluster_from_a_fake_service_account_dir) {
  temp_dir d;
  d.write("sa/token", "token-one\n");
  d.write("sa/ca.crt", "CA-PEM");
  d.write("sa/namespace", "operators\n");
  auto c = in_cluster_connection(fake_env({{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"}}),
                                 d.file("sa"));
  BOOST_TEST_REQUIRE(c.ok(), (c.ok() ? "" : c.error()));
  BOOST_TEST(c->client.server == "https://10.96.0.1:443");
  BOOST_TEST(c->client.tls.ca_pem == "CA-PEM");
  BOOST_TEST(c->namespace_ == "operators");
  BOOST_TEST(c->source == "in-cluster");
  std::string err;
  BOOST_TEST(c->client.credentials->bearer_token(&err).value() == "token-one");
  rotate(d.file("sa/token"), "token-two\n");
  BOOST_TEST(c->client.credentials->bearer_token(&err).value() == "token-two");
  // A vanished file keeps the last good token.
  std::filesystem::remove(d.file("sa/token"));
  BOOST_TEST(c->client.credentials->bearer_token(&err).value() == "token-two");

  auto v6 = in_cluster_connection(fake_env({{"KUBERNETES_SERVICE_HOST", "fd00::1"}, {"KUBERNETES_SERVICE_PORT", "6443"}}),
                                  d.file("sa"));
  BOOST_TEST(!v6.ok());  // the token file is gone now
  d.write("sa/token", "t");
  v6 = in_cluster_connection(fake_env({{"KUBERNETES_SERVICE_HOST", "fd00::1"}, {"KUBERNETES_SERVICE_PORT", "6443"}}),
                             d.file("sa"));
  BOOST_TEST_REQUIRE(v6.ok());
  BOOST_TEST(v6->client.server == "https://[fd00::1]:6443");

  auto no_env = in_cluster_connection(fake_env({}), d.file("sa"));
  BOOST_TEST(!no_env.ok());
  BOOST_TEST(no_env.error().find("KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined") !=
             std::string::npos);
  // The loader picks in-cluster when no kubeconfig is given.
  auto loaded = load_connection({"", "", d.file("sa")},
                                fake_env({{"KUBERNETES_SERVICE_HOST", "10.0.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"}}));
  BOOST_TEST_REQUIRE(loaded.ok());
  BOOST_TEST(loaded->source == "in-cluster");
}

BOOST_AUTO_TEST_CASE(token_file_rereads_only_on_change) {
  temp_dir d;
  auto p = d.write("t", "a\n");
  token_file_provider tp(p);
  std::string err;
  BOOST_TEST(tp.bearer_token(&err).value() == "a");
  BOOST_TEST(tp.bearer_token(&err).value() == "a");
  BOOST_TEST(tp.reads() == 1);
  rotate(p, "bb");
  BOOST_TEST(tp.bearer_token(&err).value() == "bb");
  BOOST_TEST(tp.reads() == 2);
  BOOST_TEST(tp.invalidate());
  BOOST_TEST(tp.bearer_token(&err).value() == "bb");
  BOOST_TEST(tp.reads() == 3);
  token_file_provider missing(d.file("none"));
  BOOST_TEST(!missing.bearer_token(&err));
  BOOST_TEST(err.find(d.file("none")) != std::string::npos);
}

struct exec_output_case {
  const char* what;
  const char* output;
  bool ok;
  const char* expect;  // token, or a piece of the error
};

BOOST_AUTO_TEST_CASE(exec_credential_outputs) {
  const exec_output_case cases[] = {
      {"token", R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"tk"}})",
       true, "tk"},
      {"expiry",
       R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"tk2","expirationTimestamp":"2030-01-01T00:00:00Z"}})",
       true, "tk2"},
      {"cert", R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientCertificateData":"C","clientKeyData":"K"}})",
       true, ""},
      {"wrong version", R"({"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"x"}})",
       false, "plugin returned version client.authentication.k8s.io/v1beta1"},
      {"no status", R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential"})", false,
       "didn't return a status field"},
      {"empty status", R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{}})", false,
       "didn't return a token or cert/key pair"},
      {"half a pair", R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientKeyData":"K"}})",
       false, "only one of"},
      {"bad time",
       R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"x","expirationTimestamp":"soon"}})",
       false, "invalid expirationTimestamp"},
      {"not json", "hello", false, "not an ExecCredential"},
  };
  for (const auto& c : cases) {
    BOOST_TEST_CONTEXT(c.what) {
      auto r = parse_exec_credential(c.output, "client.authentication.k8s.io/v1");
      BOOST_TEST(r.ok() == c.ok);
      if (r.ok()) BOOST_TEST(r->token == c.expect);
      else BOOST_TEST(r.error().find(c.expect) != std::string::npos, r.error());
    }
  }
  exec_config ec;
  ec.api_version = "client.authentication.k8s.io/v1beta1";
  ec.provide_cluster_info = true;
  cluster_entry cl;
  cl.server = "https://s:1";
  cl.certificate_authority_data = "CA";
  auto info = exec_info(ec, cl);
  BOOST_TEST(info ==
             R"({"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"interactive":false,"cluster":{"server":"https://s:1","certificate-authority-data":"Q0E="}}})");
}

// The plugin is a shell script: it counts its runs in a file, records
// KUBERNETES_EXEC_INFO and an env value, and prints a token with the count.
BOOST_AUTO_TEST_CASE(exec_plugin_runs_caches_and_reruns) {
  temp_dir d;
  auto script = d.write("plugin.sh", R"(#!/bin/sh
dir="$1"
n=$(cat "$dir/count" 2>/dev/null || echo 0)
n=$((n+1))
echo "$n" > "$dir/count"
printf '%s' "$KUBERNETES_EXEC_INFO" > "$dir/info"
printf '%s' "$GREETING" > "$dir/env"
exp=""
if [ -n "$EXPIRY" ]; then exp=",\"expirationTimestamp\":\"$EXPIRY\""; fi
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"tok-%s"%s}}' "$n" "$exp"
)");
  ::chmod(script.c_str(), 0755);
  exec_config ec;
  ec.api_version = "client.authentication.k8s.io/v1";
  ec.command = script;
  ec.args = {d.path()};
  ec.env = {{"GREETING", "hi"}};
  ec.interactive_mode = "Never";
  BOOST_TEST(!validate_exec_config(ec));
  auto now = c5c3::k8s::clock::now();
  auto fake_now = now;
  exec_credential_provider p(ec, cluster_entry{}, [&] { return fake_now; });
  std::string err;
  BOOST_TEST(p.bearer_token(&err).value() == "tok-1");
  BOOST_TEST(p.bearer_token(&err).value() == "tok-1");  // cached (no expiry)
  BOOST_TEST(p.runs() == 1);
  std::ifstream info(d.file("info"));
  std::string info_text((std::istreambuf_iterator<char>(info)), {});
  BOOST_TEST(info_text ==
             R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false}})");
  std::ifstream env(d.file("env"));
  std::string env_text((std::istreambuf_iterator<char>(env)), {});
  BOOST_TEST(env_text == "hi");
  BOOST_TEST(p.invalidate());  // the server said 401
  BOOST_TEST(p.bearer_token(&err).value() == "tok-2");
  BOOST_TEST(p.runs() == 2);

  // With an expiry: cached until it passes.
  exec_config ec2 = ec;
  ec2.env.emplace_back("EXPIRY", c5c3::k8s::format_rfc3339(now + std::chrono::minutes(10)));
  exec_credential_provider p2(ec2, cluster_entry{}, [&] { return fake_now; });
  BOOST_TEST(p2.bearer_token(&err).value() == "tok-3");
  fake_now = now + std::chrono::minutes(5);
  BOOST_TEST(p2.bearer_token(&err).value() == "tok-3");
  fake_now = now + std::chrono::minutes(11);
  BOOST_TEST(p2.bearer_token(&err).value() == "tok-4");
  BOOST_TEST(p2.runs() == 2);

  // A failing plugin: exit code reported, install hint appended.
  exec_config bad = ec;
  bad.command = "false";
  bad.install_hint = "install the thing";
  exec_credential_provider p3(bad, cluster_entry{});
  BOOST_TEST(!p3.bearer_token(&err));
  BOOST_TEST(err.find("failed with exit code 1") != std::string::npos, err);
  BOOST_TEST(err.find("install the thing") != std::string::npos);
  exec_config missing = ec;
  missing.command = d.file("does-not-exist");
  exec_credential_provider p4(missing, cluster_entry{});
  BOOST_TEST(!p4.bearer_token(&err));
  BOOST_TEST(err.find("cannot run") != std::string::npos, err);
}

BOOST_AUTO_TEST_SUITE_END()
