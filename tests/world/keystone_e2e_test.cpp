// The simulated K-ORC against a REAL Keystone (Debian's, on loopback through
// tools/keystone-loopback), checked by a real client (keystoneauth1 through
// /usr/bin/python3, tests/world/keystone_check.py): every kind lands in
// Keystone and leaves it on deletion, the application credential
// authenticates, a password change through passwordRef takes the new password
// and refuses the old one; with Keystone down, a first authentication fails
// transiently and is retried, a create with a token in hand latches until
// unlatched, and nothing is duplicated once Keystone is back.
#include "sim/world/http_identity.hpp"

#include "korc_harness.hpp"
#include "loopback.hpp"

#include <rapidjson/document.h>

#include <sstream>

using namespace c5c3::sim::world;
using namespace c5c3::sim::world::test;
namespace k8s = c5c3::k8s;

namespace {

// Runs keystone_check.py on `checks` (JSON list); the answers, one per check.
std::vector<std::string> check(const loopback_service& ks, const std::string& checks,
                               const std::map<std::string, std::string>& secrets = {}) {
  ::setenv("KEYSTONE_AUTH_URL", ks.var("KEYSTONE_AUTH_URL").c_str(), 1);
  ::setenv("KEYSTONE_ADMIN_PASSWORD", ks.var("KEYSTONE_ADMIN_PASSWORD").c_str(), 1);
  for (const auto& [k, v] : secrets) ::setenv(k.c_str(), v.c_str(), 1);
  const char* script = std::getenv("C5C3_KEYSTONE_CHECK");
  std::string input = ks.dir() + "/checks.json";
  {
    std::FILE* f = std::fopen(input.c_str(), "w");
    BOOST_TEST_REQUIRE(f != nullptr);
    std::fputs(checks.c_str(), f);
    std::fclose(f);
  }
  int status = 0;
  auto out = run_capture(fmt::format("/usr/bin/python3 '{}' < '{}' 2>&1", script ? script : "tests/world/keystone_check.py", input),
                         status);
  BOOST_TEST_REQUIRE(status == 0, out);
  std::vector<std::string> answers;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    answers.push_back(d.IsString() ? d.GetString() : d.IsInt() ? std::to_string(d.GetInt()) : line);
  }
  return answers;
}

std::string one(const loopback_service& ks, const std::string& c, const std::map<std::string, std::string>& secrets = {}) {
  auto a = check(ks, "[" + c + "]", secrets);
  return a.empty() ? "(no answer)" : a.front();
}

// One Keystone for the whole run (building it is the slow part), stopped at exit.
loopback_service& shared_keystone() {
  static loopback_service ks{"C5C3_KEYSTONE_LOOPBACK", "tools/keystone-loopback", "keystone"};
  return ks;
}

struct real_keystone {
  loopback_service& ks = shared_keystone();
};

struct admin_on_keystone : real_keystone, korc_world {
  admin_on_keystone()
      : korc_world([this](world_options& wo) {
          wo.identity = std::make_shared<http_identity>(ks.var("KEYSTONE_URL"));
          wo.admin = {ks.var("KEYSTONE_ADMIN_PASSWORD"), ks.var("KEYSTONE_AUTH_URL")};
        }) {
    control_plane_ready();
  }
  // A password cloud in a Secret; `host` other than 127.0.0.1 makes another token cache key.
  std::string cloud_secret(const std::string& name, const std::string& user, const std::string& password,
                           const std::string& project, const std::string& host = "127.0.0.1") {
    cloud_config c;
    c.name = "own";
    c.auth_url = fmt::format("http://{}:{}/v3", host, ks.var("KEYSTONE_PORT"));
    c.username = user;
    c.password = password;
    c.user_domain_name = c.project_domain_name = "Default";
    c.project_name = project;
    c.region_name = "RegionOne";
    c.endpoint_type = "public";
    apply(fmt::format(R"({{"apiVersion":"v1","kind":"Secret","metadata":{{"name":"{}","namespace":"openstack"}},
      "data":{{"clouds.yaml":"{}"}}}})",
                      name, base64_encode(render_password_clouds_yaml(c))));
    return name;
  }
};

// Polls the real client until it answers `want` (Keystone revokes by whole seconds).
bool answers(const loopback_service& ks, const std::string& c, const std::string& want,
             const std::map<std::string, std::string>& secrets = {}) {
  return korc_world::eventually([&] { return one(ks, c, secrets) == want; }, 20);
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_kind_lands_in_keystone_and_leaves_it) {
  BOOST_TEST_REQUIRE(std::system("command -v keystone-manage >/dev/null") == 0, "install keystone (tools/install-deps)");
  admin_on_keystone w;
  BOOST_TEST(w.id(korc_kind::domain, "cp-domain-default") == "default");

  w.korc(korc_kind::project, "p", R"("resource":{"name":"e2e-project","domainRef":"cp-domain-default"})");
  w.korc(korc_kind::role, "r", R"("resource":{"name":"e2e-role"})");
  w.opaque_secret("pw-v1", "password", "e2e-password-one");
  w.opaque_secret("pw-v2", "password", "e2e-password-two");
  w.korc(korc_kind::user, "u", R"("resource":{"name":"e2e-user","domainRef":"cp-domain-default","passwordRef":"pw-v1"})");
  w.korc(korc_kind::role_assignment, "ra", R"("resource":{"roleRef":"r","userRef":"u","projectRef":"p"})");
  w.korc(korc_kind::service, "s", R"("resource":{"name":"e2e-service","type":"e2e-type"})");
  w.korc(korc_kind::region, "reg", R"("resource":{"name":"E2ERegion"})");
  w.korc(korc_kind::endpoint, "e", R"("resource":{"interface":"internal","url":"http://e2e.example.test","serviceRef":"s","regionRef":"reg"})");
  w.korc(korc_kind::domain, "d", R"("resource":{"name":"e2e-domain"})");
  const std::vector<std::pair<korc_kind, std::string>> all{
      {korc_kind::project, "p"},      {korc_kind::role, "r"},   {korc_kind::user, "u"},
      {korc_kind::role_assignment, "ra"}, {korc_kind::service, "s"}, {korc_kind::region, "reg"},
      {korc_kind::endpoint, "e"},     {korc_kind::domain, "d"}};
  for (const auto& [k, n] : all) {
    BOOST_TEST_INFO(korc_info(k).k8s_kind << " " << n << ": " << w.progressing(k, n));
    BOOST_TEST_REQUIRE(w.eventually([&, k = k, n = n] { return w.available(k, n); }));
  }
  const auto project = w.id(korc_kind::project, "p"), user = w.id(korc_kind::user, "u"), role = w.id(korc_kind::role, "r");
  auto where = [&](korc_kind k, const std::string& n) {
    return fmt::format(R"({{"exists":"/v3/{}/{}"}})", korc_info(k).collection, w.id(k, n));
  };
  auto grant = fmt::format(R"({{"count":"/v3/role_assignments?role.id={}&user.id={}&scope.project.id={}","key":"role_assignments"}})",
                           role, user, project);
  auto present = check(w.ks, "[" + where(korc_kind::project, "p") + "," + where(korc_kind::role, "r") + "," +
                                 where(korc_kind::user, "u") + "," + where(korc_kind::service, "s") + "," +
                                 where(korc_kind::region, "reg") + "," + where(korc_kind::endpoint, "e") + "," +
                                 where(korc_kind::domain, "d") + "," + grant + "]");
  BOOST_TEST(present == (std::vector<std::string>{"ok", "ok", "ok", "ok", "ok", "ok", "ok", "1"}), fmt::format("{}", fmt::join(present, " ")));

  // The user's password works; the application credential minted with her own cloud authenticates.
  const std::string as_user = R"({"password":{"user":"e2e-user","password_env":"E2E_PW","project":"e2e-project"}})";
  BOOST_TEST(answers(w.ks, as_user, "ok", {{"E2E_PW", "e2e-password-one"}}));
  w.cloud_secret("u-cloud", "e2e-user", "e2e-password-one", "e2e-project");
  w.opaque_secret("ac-secret", "value", "e2e-app-credential-secret-value");
  w.korc(korc_kind::application_credential, "ac", R"("resource":{"userRef":"u","secretRef":"ac-secret","roleRefs":["r"]})",
         "u-cloud", "own");
  BOOST_TEST_INFO(w.progressing(korc_kind::application_credential, "ac"));
  BOOST_TEST_REQUIRE(w.eventually([&] { return w.available(korc_kind::application_credential, "ac"); }));
  const auto appcred = fmt::format(R"({{"appcred":{{"id":"{}","secret_env":"E2E_AC"}}}})", w.id(korc_kind::application_credential, "ac"));
  BOOST_TEST(answers(w.ks, appcred, "ok", {{"E2E_AC", "e2e-app-credential-secret-value"}}));
  BOOST_TEST(w.get(korc_kind::application_credential, "ac").get_string({"status", "resource", "projectID"}) == project);

  // A password change through passwordRef: the new one works, the old one is refused.
  BOOST_TEST(w.patch(korc_kind::user, "u", R"({"spec":{"resource":{"passwordRef":"pw-v2"}}})").empty());
  BOOST_TEST_REQUIRE(w.eventually([&] {
    return w.get(korc_kind::user, "u").get_string({"status", "resource", "appliedPasswordRef"}) == "pw-v2" &&
           w.available(korc_kind::user, "u");
  }));
  BOOST_TEST(answers(w.ks, as_user, "ok", {{"E2E_PW", "e2e-password-two"}}));
  BOOST_TEST(one(w.ks, as_user, {{"E2E_PW", "e2e-password-one"}}) == "refused");

  // Deletion removes each from Keystone (the referenced ones once nothing references them).
  for (const auto& [k, n] : all) w.remove(k, n);
  w.remove(korc_kind::application_credential, "ac");
  for (const auto& [k, n] : all) {
    BOOST_TEST_INFO(korc_info(k).k8s_kind << " " << n << ": " << w.progressing(k, n));
    BOOST_TEST(w.eventually([&, k = k, n = n] { return w.gone(k, n); }));
  }
  BOOST_TEST(w.eventually([&] { return w.gone(korc_kind::application_credential, "ac"); }));
  auto after = check(w.ks, fmt::format(R"([{{"exists":"/v3/projects/{}"}},{{"exists":"/v3/users/{}"}},{{"exists":"/v3/roles/{}"}},
    {{"count":"/v3/services?type=e2e-type","key":"services"}},{{"exists":"/v3/regions/E2ERegion"}},
    {{"count":"/v3/domains?name=e2e-domain","key":"domains"}}])",
                                       project, user, role));
  BOOST_TEST(after == (std::vector<std::string>{"missing", "missing", "missing", "0", "missing", "0"}),
             fmt::format("{}", fmt::join(after, " ")));
  BOOST_TEST(one(w.ks, appcred, {{"E2E_AC", "e2e-app-credential-secret-value"}}) != "ok");
}

BOOST_AUTO_TEST_CASE(keystone_down_for_a_while) {
  admin_on_keystone w;
  // Keystone goes away. A cloud never used has no token: its first
  // authentication fails, a TransientError retried with backoff.
  w.cloud_secret("fresh-cloud", "admin", w.ks.var("KEYSTONE_ADMIN_PASSWORD"), "admin", "localhost");
  w.ks.stop();
  w.korc(korc_kind::role, "patient", R"("resource":{"name":"e2e-patient"})", "fresh-cloud", "own");
  BOOST_TEST(w.eventually([&] {
    auto c = w.get(korc_kind::role, "patient").find_condition("Progressing");
    return c && c->reason == "TransientError" && c->message.find("dial tcp 127.0.0.1:") != std::string::npos &&
           c->message.find("connection refused") != std::string::npos;
  }));
  // The admin cloud holds a token: the create goes out and fails without an
  // answer, which K-ORC latches (InvalidConfiguration) until the orders unlatch it.
  w.korc(korc_kind::project, "latched", R"("resource":{"name":"e2e-latched","domainRef":"cp-domain-default"})");
  BOOST_TEST(w.eventually([&] {
    return w.terminal(korc_kind::project, "latched", "InvalidConfiguration", "invalid configuration creating resource: Post");
  }));
  w.ks.start();
  BOOST_TEST(w.eventually([&] { return w.available(korc_kind::role, "patient"); }));
  BOOST_TEST(korc_terminal_error(w.get(korc_kind::project, "latched")).has_value());
  BOOST_TEST(w.unlatch(korc_kind::project, "latched").empty());
  BOOST_TEST(w.eventually([&] { return w.available(korc_kind::project, "latched"); }));
  // Nothing duplicated, and nothing left behind after deletion.
  BOOST_TEST(one(w.ks, R"({"count":"/v3/projects?name=e2e-latched","key":"projects"})") == "1");
  BOOST_TEST(one(w.ks, R"({"count":"/v3/roles?name=e2e-patient","key":"roles"})") == "1");
  w.remove(korc_kind::project, "latched");
  w.remove(korc_kind::role, "patient");
  BOOST_TEST(w.eventually([&] { return w.gone(korc_kind::project, "latched") && w.gone(korc_kind::role, "patient"); }));
  BOOST_TEST(one(w.ks, R"({"count":"/v3/projects?name=e2e-latched","key":"projects"})") == "0");
  BOOST_TEST(one(w.ks, R"({"count":"/v3/roles?name=e2e-patient","key":"roles"})") == "0");
}
