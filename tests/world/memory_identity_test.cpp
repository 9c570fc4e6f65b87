// The in-memory Keystone through the sessions K-ORC uses: tokens, Keystone's
// rules the orders meet, the error words, and the clouds.yaml documents.
#include "sim/world/keystone_session.hpp"
#include "sim/world/memory_identity.hpp"

#include "fixtures.hpp"

#include <fmt/format.h>

using namespace c5c3::sim::world;
using namespace c5c3::sim::world::test;
namespace k8s = c5c3::k8s;

namespace {

struct keystone {
  k8s::time_point now = t0();
  std::shared_ptr<memory_identity> ks =
      std::make_shared<memory_identity>(memory_identity_options{"admin-secret"}, [this] { return now; });
  keystone_sessions sessions{ks, [this] { return now; }};

  static cloud_config cloud(std::string user, std::string password, std::string project = "") {
    cloud_config c;
    c.name = "c";
    c.auth_url = "http://keystone.test:5000/v3";
    c.username = std::move(user);
    c.password = std::move(password);
    c.user_domain_name = "Default";
    c.project_name = std::move(project);
    c.project_domain_name = "Default";
    return c;
  }
  cloud_config admin() const { return cloud("admin", "admin-secret", "admin"); }
  identity_answer as_admin(std::string method, std::string path, std::string body = "") {
    return sessions.run(admin(), {std::move(method), std::move(path), std::move(body)});
  }
  std::string make(std::string collection, std::string body) {
    auto a = as_admin("POST", "/v3/" + collection, std::move(body));
    BOOST_TEST_REQUIRE(static_cast<bool>(a), (a.error ? a.error->message : ""));
    auto one = collection.substr(0, collection.size() - 1);
    return std::string(a.body.get_string({one, "id"}));
  }
  // alice, with a password, member on project p.
  std::pair<std::string, std::string> alice() {
    auto p = make("projects", R"({"project":{"name":"p","domain_id":"default"}})");
    auto u = make("users", R"({"user":{"name":"alice","domain_id":"default","password":"pw-1"}})");
    auto member = std::string(ks->named("roles", "member").at(0).get_string({"id"}));
    BOOST_TEST_REQUIRE(static_cast<bool>(as_admin("PUT", "/v3/projects/" + p + "/users/" + u + "/roles/" + member)));
    return {u, p};
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(bootstrap_and_tokens) {
  keystone k;
  BOOST_TEST(!k.sessions.authenticate(k.admin()));
  BOOST_TEST(k.ks->named("domains", "Default").size() == 1u);
  BOOST_TEST(k.ks->named("regions", "RegionOne").size() == 1u);
  BOOST_TEST(k.ks->named("services", "keystone").size() == 1u);
  BOOST_TEST(k.ks->list("endpoints").size() == 3u);
  auto bad = k.sessions.authenticate(keystone::cloud("admin", "wrong", "admin"));
  BOOST_TEST_REQUIRE(bad.has_value());
  BOOST_TEST(bad->status == 401);
  BOOST_TEST(bad->message.find("Expected HTTP response code [201] when accessing [POST http://keystone.test:5000/v3/auth/tokens], "
                               "but got 401 instead: ") == 0,
             bad->message);
  BOOST_TEST(bad->message.find("Unauthorized") != std::string::npos);
  BOOST_TEST(bad->message.find("wrong") == std::string::npos);  // no password in a message
  // A token is reused: one token request for several calls.
  auto before = k.ks->requests();
  for (int i = 0; i < 3; ++i) BOOST_TEST(static_cast<bool>(k.as_admin("GET", "/v3/projects")));
  BOOST_TEST(k.ks->requests() - before == 3u);
  // ... until half its lifetime.
  k.now += std::chrono::minutes(31);
  before = k.ks->requests();
  BOOST_TEST(static_cast<bool>(k.as_admin("GET", "/v3/projects")));
  BOOST_TEST(k.ks->requests() - before == 2u);
}

BOOST_AUTO_TEST_CASE(names_are_unique_per_domain_and_lists_filter) {
  keystone k;
  k.make("projects", R"({"project":{"name":"same","domain_id":"default"}})");
  auto dup = k.as_admin("POST", "/v3/projects", R"({"project":{"name":"same","domain_id":"default"}})");
  BOOST_TEST_REQUIRE(dup.error.has_value());
  BOOST_TEST(dup.error->status == 409);
  BOOST_TEST(!dup.error->retryable());
  auto other = k.make("domains", R"({"domain":{"name":"other"}})");
  k.make("projects", fmt::format(R"({{"project":{{"name":"same","domain_id":"{}"}}}})", other));
  auto listed = k.as_admin("GET", "/v3/projects?name=same&domain_id=default");
  BOOST_TEST(listed.body.get({"projects"})->Size() == 1u);
  BOOST_TEST(k.as_admin("GET", "/v3/projects?name=same").body.get({"projects"})->Size() == 2u);
  auto missing = k.as_admin("GET", "/v3/projects/0000");
  BOOST_TEST(missing.error->not_found());
  // An enabled domain is not deleted; a disabled one is.
  BOOST_TEST(k.as_admin("DELETE", "/v3/domains/" + other).error->status == 403);
  BOOST_TEST(static_cast<bool>(k.as_admin("PATCH", "/v3/domains/" + other, R"({"domain":{"enabled":false}})")));
  BOOST_TEST(static_cast<bool>(k.as_admin("DELETE", "/v3/domains/" + other)));
}

BOOST_AUTO_TEST_CASE(application_credentials_follow_keystone) {
  keystone k;
  auto [user, project] = k.alice();
  auto alice = keystone::cloud("alice", "pw-1", "p");
  // The admin may not mint one for alice.
  auto denied = k.as_admin("POST", "/v3/users/" + user + "/application_credentials",
                           R"({"application_credential":{"name":"x","secret":"s"}})");
  BOOST_TEST_REQUIRE(denied.error.has_value());
  BOOST_TEST(denied.error->status == 403);
  BOOST_TEST(denied.error->message.find("identity:create_application_credential") != std::string::npos);
  // Alice mints one, scoped to her token's project; the secret is answered once.
  auto made = k.sessions.run(alice, {"POST", "/v3/users/" + user + "/application_credentials",
                                     R"({"application_credential":{"name":"ci","secret":"s3cret","expires_at":"2026-12-01T01:00:00Z"}})"});
  BOOST_TEST_REQUIRE(static_cast<bool>(made));
  BOOST_TEST(made.body.get_string({"application_credential", "secret"}) == "s3cret");
  BOOST_TEST(made.body.get_string({"application_credential", "project_id"}) == project);
  auto id = std::string(made.body.get_string({"application_credential", "id"}));
  auto shown = k.sessions.run(alice, {"GET", "/v3/users/" + user + "/application_credentials/" + id, ""});
  BOOST_TEST(shown.body.get({"application_credential", "secret"}) == nullptr);
  cloud_config ac;
  ac.name = "ac";
  ac.auth_url = "http://keystone.test:5000/v3";
  ac.application_credential_id = id;
  ac.application_credential_secret = "s3cret";
  BOOST_TEST(!k.sessions.authenticate(ac));
  // A restricted application credential cannot mint another.
  auto nested = k.sessions.run(ac, {"POST", "/v3/users/" + user + "/application_credentials",
                                    R"({"application_credential":{"name":"nested"}})"});
  BOOST_TEST(nested.error->status == 403);
  // Expired: refused; in the past at creation: 400.
  k.now += std::chrono::hours(2);
  keystone_sessions later(k.ks, [&] { return k.now; });
  BOOST_TEST(later.authenticate(ac)->status == 401);
  auto past = later.run(alice, {"POST", "/v3/users/" + user + "/application_credentials",
                                R"({"application_credential":{"name":"old","expires_at":"2026-12-01T00:30:00Z"}})"});
  BOOST_TEST(past.error->status == 400);
  // Deleting the user deletes its credentials.
  BOOST_TEST(k.ks->list("application_credentials").size() == 1u);
  BOOST_TEST(static_cast<bool>(later.run(k.admin(), {"DELETE", "/v3/users/" + user, ""})));
  BOOST_TEST(k.ks->list("application_credentials").empty());
  BOOST_TEST(k.ks->list("role_assignments").size() == 1u);  // the admin's only
}

BOOST_AUTO_TEST_CASE(a_credential_needs_its_roles_and_a_password_change_revokes) {
  keystone k;
  auto [user, project] = k.alice();
  auto alice = keystone::cloud("alice", "pw-1", "p");
  auto made = k.sessions.run(alice, {"POST", "/v3/users/" + user + "/application_credentials",
                                     R"({"application_credential":{"name":"ci","secret":"s","roles":[{"name":"member"}]}})"});
  BOOST_TEST_REQUIRE(static_cast<bool>(made));
  BOOST_TEST(made.body.get({"application_credential", "roles"})->Size() == 1u);
  auto refused = k.sessions.run(alice, {"POST", "/v3/users/" + user + "/application_credentials",
                                        R"({"application_credential":{"name":"ci2","roles":[{"name":"admin"}]}})"});
  BOOST_TEST(refused.error->status == 403);
  cloud_config ac;
  ac.name = "ac";
  ac.auth_url = "http://keystone.test:5000/v3";
  ac.application_credential_id = std::string(made.body.get_string({"application_credential", "id"}));
  ac.application_credential_secret = "s";
  BOOST_TEST(!k.sessions.authenticate(ac));
  // The role removed from the project: the credential no longer authenticates.
  auto member = std::string(k.ks->named("roles", "member").at(0).get_string({"id"}));
  BOOST_TEST(static_cast<bool>(k.as_admin("DELETE", "/v3/projects/" + project + "/users/" + user + "/roles/" + member)));
  keystone_sessions fresh(k.ks, [&] { return k.now; });
  BOOST_TEST(fresh.authenticate(ac)->status == 401);
  // A password change: the old one is refused, the user's tokens revoked.
  BOOST_TEST(static_cast<bool>(k.as_admin("PATCH", "/v3/users/" + user, R"({"user":{"password":"pw-2"}})")));
  BOOST_TEST(fresh.authenticate(keystone::cloud("alice", "pw-1"))->status == 401);
  BOOST_TEST(!fresh.authenticate(keystone::cloud("alice", "pw-2")));
}

BOOST_AUTO_TEST_CASE(faults_read_as_go_and_gophercloud_write_them) {
  keystone k;
  k.ks->set_down(true);
  auto down = k.sessions.authenticate(k.admin());
  BOOST_TEST_REQUIRE(down.has_value());
  BOOST_TEST(down->transport());
  BOOST_TEST(!down->retryable());
  BOOST_TEST(down->message ==
             "Post \"http://keystone.test:5000/v3/auth/tokens\": dial tcp 127.0.0.1:5000: connect: connection refused");
  k.ks->set_down(false);
  k.ks->fail_next(503);
  auto busy = k.sessions.authenticate(k.admin());
  BOOST_TEST(busy->status == 503);
  BOOST_TEST(busy->retryable());
  BOOST_TEST(!k.sessions.authenticate(k.admin()));
}

BOOST_AUTO_TEST_CASE(clouds_yaml_round_trip_and_refusals) {
  cloud_config c = keystone::cloud("svc \"x\"", "p@ss: word", "proj");
  c.name = "admin";
  c.region_name = "RegionOne";
  c.endpoint_type = "internal";
  auto text = render_password_clouds_yaml(c);
  BOOST_TEST(text.find("endpoint_type: internal") != std::string::npos);
  BOOST_TEST(text.find("interface") == std::string::npos);
  auto back = parse_clouds_yaml(text, "admin");
  BOOST_TEST_REQUIRE(back.ok(), (back.ok() ? "" : back.error()));
  BOOST_TEST(back->username == "svc \"x\"");
  BOOST_TEST(back->password == "p@ss: word");
  BOOST_TEST(back->project_domain_name == "Default");
  struct row {
    std::string text, cloud, error;
  };
  for (const auto& r : std::vector<row>{
           {text, "other", "cloud other does not exist in clouds.yaml"},
           {"clouds: [", "admin", "clouds.yaml does not parse as YAML"},
           {"clouds:\n  admin:\n    auth:\n      username: u\n", "admin", "cloud admin in clouds.yaml has no auth.auth_url"},
           {"clouds:\n  admin:\n    auth:\n      auth_url: http://k/v3\n      username: u\n", "admin",
            "cloud admin in clouds.yaml needs auth.username and auth.password"},
       }) {
    auto p = parse_clouds_yaml(r.text, r.cloud);
    BOOST_TEST_REQUIRE(!p.ok());
    BOOST_TEST(p.error() == r.error);
  }
}
