// The simulated K-ORC as an ordinary client of the in-process API server, over
// the in-memory Keystone: the ControlPlane's admin credential, every kind
// through create, Available and delete, imports, immutable fields, the
// password change, the deletion guards, onDelete detach, and Keystone failing:
// transient errors retried, the transport-error latch and its unlatch.
#include "sim/world/keystone_session.hpp"

#include "korc_harness.hpp"

using namespace c5c3::sim::world;
using namespace c5c3::sim::world::test;
namespace k8s = c5c3::k8s;

namespace {

// The world with the ControlPlane cp, its admin credential ready.
struct admin_ready : korc_world {
  admin_ready() { control_plane_ready(); }
  bool authenticates(const cloud_config& c) {
    keystone_sessions s(world->identity);
    return !s.authenticate(c);
  }
  cloud_config user_cloud(const std::string& user, const std::string& password, const std::string& project = "") {
    cloud_config c;
    c.name = "u";
    c.auth_url = "http://keystone.sim:5000/v3";
    c.username = user;
    c.password = password;
    c.user_domain_name = "Default";
    c.project_name = project;
    c.project_domain_name = "Default";
    return c;
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(control_plane_gets_its_admin_credential) {
  admin_ready w;
  auto secret = w.secret("cp-admin-password-cloud");
  BOOST_TEST_REQUIRE(static_cast<bool>(secret));
  auto doc = base64_decode(secret.get_string({"data", "clouds.yaml"}));
  BOOST_TEST_REQUIRE(doc.has_value());
  auto cloud = parse_clouds_yaml(*doc, "admin");
  BOOST_TEST_REQUIRE(cloud.ok());
  BOOST_TEST(cloud->auth_url == "http://cp-keystone.openstack.svc:5000/v3");
  BOOST_TEST(cloud->project_name == "admin");
  BOOST_TEST(cloud->endpoint_type == "internal");
  BOOST_TEST(w.authenticates(*cloud));
  // The Domain import of the admin domain, Available with Keystone's id, guarding the Secret.
  BOOST_TEST(w.id(korc_kind::domain, "cp-domain-default") == "default");
  BOOST_TEST(w.get(korc_kind::domain, "cp-domain-default").has_finalizer("openstack.k-orc.cloud/domain"));
  BOOST_TEST(secret.has_finalizer("openstack.k-orc.cloud/domain"));
  auto cond = w.server.get_object("controlplanes.c5c3.io", "openstack", "cp").find_condition("AdminCredentialReady");
  BOOST_TEST(cond->reason == "AdminCredentialReady");
  BOOST_TEST(cond->observed_generation == 1);
}

BOOST_AUTO_TEST_CASE(every_kind_is_created_available_and_deleted) {
  admin_ready w;
  auto& ks = *w.world->identity;
  w.korc(korc_kind::project, "p1", R"("resource":{"name":"tenant-one","domainRef":"cp-domain-default","description":"d"})");
  w.korc(korc_kind::role, "r1", R"("resource":{"name":"operator"})");
  w.opaque_secret("u1-password", "password", "first-password-123");
  w.korc(korc_kind::user, "u1",
         R"("resource":{"name":"alice","domainRef":"cp-domain-default","defaultProjectRef":"p1","passwordRef":"u1-password"})");
  w.korc(korc_kind::role_assignment, "ra1", R"("resource":{"roleRef":"r1","userRef":"u1","projectRef":"p1"})");
  w.korc(korc_kind::service, "s1", R"("resource":{"name":"glance","type":"image"})");
  w.korc(korc_kind::region, "reg-one", R"("managementPolicy":"unmanaged","import":{"filter":{"name":"RegionOne"}})");
  w.korc(korc_kind::region, "reg1", R"("resource":{"name":"RegionTwo","description":"second","parentRegionRef":"reg-one"})");
  w.korc(korc_kind::endpoint, "e1",
         R"("resource":{"interface":"public","url":"https://image.example.test","serviceRef":"s1","regionRef":"reg1"})");
  w.korc(korc_kind::domain, "d1", R"("resource":{"name":"extra"})");
  for (auto [k, n] : {std::pair{korc_kind::project, "p1"}, {korc_kind::role, "r1"}, {korc_kind::user, "u1"},
                      {korc_kind::role_assignment, "ra1"}, {korc_kind::service, "s1"}, {korc_kind::region, "reg1"},
                      {korc_kind::endpoint, "e1"}, {korc_kind::domain, "d1"}}) {
    BOOST_TEST_INFO(korc_info(k).k8s_kind << " " << n << ": " << w.progressing(k, n));
    BOOST_TEST(w.eventually([&, k = k, n = n] { return w.available(k, n); }));
  }
  BOOST_TEST(ks.named("projects", "tenant-one").size() == 1u);
  BOOST_TEST(w.id(korc_kind::project, "p1") == std::string(ks.named("projects", "tenant-one").at(0).get_string({"id"})));
  BOOST_TEST(w.get(korc_kind::user, "u1").get_string({"status", "resource", "appliedPasswordRef"}) == "u1-password");
  BOOST_TEST(w.get(korc_kind::user, "u1").get_string({"status", "resource", "defaultProjectID"}) == w.id(korc_kind::project, "p1"));
  BOOST_TEST(w.get(korc_kind::role_assignment, "ra1").get_string({"status", "resource", "roleID"}) == w.id(korc_kind::role, "r1"));
  BOOST_TEST(w.get(korc_kind::endpoint, "e1").get_string({"status", "resource", "region"}) == "RegionTwo");
  BOOST_TEST(w.id(korc_kind::region, "reg1") == "RegionTwo");
  BOOST_TEST(w.get(korc_kind::region, "reg1").get_string({"status", "resource", "parentRegionID"}) == "RegionOne");
  BOOST_TEST(ks.named("regions", "RegionTwo").at(0).get_string({"parent_region_id"}) == "RegionOne");
  BOOST_TEST(w.authenticates(w.user_cloud("alice", "first-password-123", "tenant-one")));
  // The guards K-ORC put on what the objects reference.
  BOOST_TEST(w.get(korc_kind::project, "p1").has_finalizer("openstack.k-orc.cloud/roleassignment"));
  BOOST_TEST(w.get(korc_kind::project, "p1").has_finalizer("openstack.k-orc.cloud/user"));
  BOOST_TEST(w.get(korc_kind::service, "s1").has_finalizer("openstack.k-orc.cloud/endpoint"));

  // The application credential of alice, minted with her own project-scoped cloud.
  w.apply(fmt::format(R"({{"apiVersion":"v1","kind":"Secret","metadata":{{"name":"u1-cloud","namespace":"openstack"}},
    "data":{{"clouds.yaml":"{}"}}}})",
                      base64_encode(render_password_clouds_yaml(w.user_cloud("alice", "first-password-123", "tenant-one")))));
  w.opaque_secret("ac1-secret", "value", "the-app-cred-secret-value");
  w.korc(korc_kind::application_credential, "ac1",
         R"("resource":{"userRef":"u1","secretRef":"ac1-secret","roleRefs":["r1"],"description":"ci"})", "u1-cloud", "u");
  BOOST_TEST_INFO(w.progressing(korc_kind::application_credential, "ac1"));
  BOOST_TEST_REQUIRE(w.eventually([&] { return w.available(korc_kind::application_credential, "ac1"); }));
  cloud_config ac;
  ac.name = "ac";
  ac.auth_url = "http://keystone.sim:5000/v3";
  ac.auth_type = "v3applicationcredential";
  ac.application_credential_id = w.id(korc_kind::application_credential, "ac1");
  ac.application_credential_secret = "the-app-cred-secret-value";
  BOOST_TEST(w.authenticates(ac));
  BOOST_TEST(w.get(korc_kind::application_credential, "ac1").get_string({"status", "resource", "projectID"}) ==
             w.id(korc_kind::project, "p1"));

  // A referenced object waits for what references it (K-ORC's deletion guards).
  w.remove(korc_kind::project, "p1");
  BOOST_TEST(w.eventually([&] {
    return w.progressing(korc_kind::project, "p1").find("Waiting for finalizer openstack.k-orc.cloud/") != std::string::npos;
  }));
  BOOST_TEST(ks.named("projects", "tenant-one").size() == 1u);

  for (auto [k, n] : {std::pair{korc_kind::application_credential, "ac1"}, {korc_kind::role_assignment, "ra1"},
                      {korc_kind::user, "u1"}, {korc_kind::endpoint, "e1"}, {korc_kind::service, "s1"},
                      {korc_kind::region, "reg1"}, {korc_kind::role, "r1"}, {korc_kind::domain, "d1"}}) {
    w.remove(k, n);
  }
  for (auto [k, n] : {std::pair{korc_kind::project, "p1"}, {korc_kind::application_credential, "ac1"},
                      {korc_kind::role_assignment, "ra1"}, {korc_kind::user, "u1"}, {korc_kind::endpoint, "e1"},
                      {korc_kind::service, "s1"}, {korc_kind::region, "reg1"}, {korc_kind::role, "r1"},
                      {korc_kind::domain, "d1"}}) {
    BOOST_TEST_INFO(korc_info(k).k8s_kind << " " << n << ": " << w.progressing(k, n));
    BOOST_TEST(w.eventually([&, k = k, n = n] { return w.gone(k, n); }));
  }
  BOOST_TEST(ks.named("projects", "tenant-one").empty());
  BOOST_TEST(ks.named("users", "alice").empty());
  BOOST_TEST(ks.named("roles", "operator").empty());
  BOOST_TEST(ks.named("services", "glance").empty());
  BOOST_TEST(ks.named("regions", "RegionTwo").empty());
  BOOST_TEST(ks.named("domains", "extra").empty());
  BOOST_TEST(ks.list("application_credentials").empty());
  // The credentials Secrets are released once nothing references them.
  w.remove(k8s::gvk{"", "v1", "Secret"}, "u1-cloud");
  BOOST_TEST(w.eventually([&] { return !w.secret("u1-cloud"); }));
}

BOOST_AUTO_TEST_CASE(imports_wait_match_once_or_fail_terminally) {
  admin_ready w;
  auto& ks = *w.world->identity;
  w.korc(korc_kind::project, "probe",
         R"("managementPolicy":"unmanaged","import":{"filter":{"name":"later","domainRef":"cp-domain-default"}})");
  BOOST_TEST(w.eventually([&] { return korc_waiting_external(w.get(korc_kind::project, "probe")); }));
  BOOST_TEST(w.get(korc_kind::project, "probe").find_condition("Progressing")->reason == "Progressing");
  // Created behind K-ORC's back: the polling import finds it.
  keystone_sessions admin(w.world->identity);
  auto cloud = parse_clouds_yaml(*base64_decode(w.secret("cp-admin-password-cloud").get_string({"data", "clouds.yaml"})), "admin");
  BOOST_TEST_REQUIRE(cloud.ok());
  auto made = admin.run(*cloud, {"POST", "/v3/projects", R"({"project":{"name":"later","domain_id":"default"}})"});
  BOOST_TEST_REQUIRE(static_cast<bool>(made));
  BOOST_TEST(w.eventually([&] { return w.available(korc_kind::project, "probe"); }));
  BOOST_TEST(w.id(korc_kind::project, "probe") == std::string(made.body.get_string({"project", "id"})));

  // Two users named twin (in two domains) match a filter without a domain: terminal.
  auto other = admin.run(*cloud, {"POST", "/v3/domains", R"({"domain":{"name":"other"}})"});
  BOOST_TEST_REQUIRE(static_cast<bool>(other));
  for (auto domain : {std::string("default"), std::string(other.body.get_string({"domain", "id"}))}) {
    BOOST_TEST_REQUIRE(static_cast<bool>(admin.run(
        *cloud, {"POST", "/v3/users", fmt::format(R"({{"user":{{"name":"twin","domain_id":"{}"}}}})", domain)})));
  }
  w.korc(korc_kind::user, "twins", R"("managementPolicy":"unmanaged","import":{"filter":{"name":"twin"}})");
  BOOST_TEST(w.eventually([&] {
    return w.terminal(korc_kind::user, "twins", "InvalidConfiguration",
                      "found more than one matching OpenStack resource during import");
  }));
  BOOST_TEST(w.get(korc_kind::user, "twins").find_condition("Available")->status == "False");

  // An import by an id Keystone does not know: terminal UnrecoverableError.
  w.korc(korc_kind::role, "missing", R"("managementPolicy":"unmanaged","import":{"id":"0123456789abcdef0123456789abcdef"})");
  BOOST_TEST(w.eventually([&] {
    return w.terminal(korc_kind::role, "missing", "UnrecoverableError", "referenced resource does not exist in OpenStack");
  }));
  // Deleting an import leaves Keystone alone.
  w.remove(korc_kind::project, "probe");
  BOOST_TEST(w.eventually([&] { return w.gone(korc_kind::project, "probe"); }));
  BOOST_TEST(ks.named("projects", "later").size() == 1u);
}

BOOST_AUTO_TEST_CASE(password_change_immutable_fields_and_detach) {
  admin_ready w;
  auto& ks = *w.world->identity;
  w.opaque_secret("pw-v1", "password", "password-one-111");
  w.opaque_secret("pw-v2", "password", "password-two-222");
  w.korc(korc_kind::user, "bob", R"("resource":{"domainRef":"cp-domain-default","passwordRef":"pw-v1"})");
  BOOST_TEST_REQUIRE(w.eventually([&] { return w.available(korc_kind::user, "bob"); }));
  BOOST_TEST(w.authenticates(w.user_cloud("bob", "password-one-111")));
  BOOST_TEST(w.patch(korc_kind::user, "bob", R"({"spec":{"resource":{"passwordRef":"pw-v2"}}})").empty());
  BOOST_TEST(w.eventually([&] {
    return w.get(korc_kind::user, "bob").get_string({"status", "resource", "appliedPasswordRef"}) == "pw-v2" &&
           w.available(korc_kind::user, "bob");
  }));
  BOOST_TEST(w.authenticates(w.user_cloud("bob", "password-two-222")));
  BOOST_TEST(!w.authenticates(w.user_cloud("bob", "password-one-111")));
  // Refused as K-ORC's schema refuses them.
  auto refused = w.patch(korc_kind::user, "bob", R"({"spec":{"resource":{"domainRef":"elsewhere"}}})");
  BOOST_TEST(refused.find("domainRef is immutable") != std::string::npos, refused);
  refused = w.patch(korc_kind::user, "bob", R"({"spec":{"managementPolicy":"unmanaged"}})");
  BOOST_TEST(refused.find("managementPolicy is immutable") != std::string::npos, refused);
  // A mutable field is applied.
  BOOST_TEST(w.patch(korc_kind::user, "bob", R"({"spec":{"resource":{"description":"builder"}}})").empty());
  BOOST_TEST(w.eventually([&] {
    auto u = ks.named("users", "bob");
    return u.size() == 1 && u[0].get_string({"description"}) == "builder" && w.available(korc_kind::user, "bob");
  }));
  // onDelete detach keeps the Keystone resource.
  w.korc(korc_kind::role, "kept", R"("resource":{"name":"kept-role"},"managedOptions":{"onDelete":"detach"})");
  BOOST_TEST_REQUIRE(w.eventually([&] { return w.available(korc_kind::role, "kept"); }));
  w.remove(korc_kind::role, "kept");
  BOOST_TEST(w.eventually([&] { return w.gone(korc_kind::role, "kept"); }));
  BOOST_TEST(ks.named("roles", "kept-role").size() == 1u);
}

BOOST_AUTO_TEST_CASE(keystone_failures_are_retried_or_latch_until_unlatched) {
  admin_ready w;
  auto& ks = *w.world->identity;
  // 503 answers: transient, retried.
  ks.fail_next(503, 3);
  w.korc(korc_kind::project, "flaky", R"("resource":{"domainRef":"cp-domain-default"})");
  BOOST_TEST(w.eventually([&] { return w.available(korc_kind::project, "flaky"); }));
  BOOST_TEST(ks.named("projects", "flaky").size() == 1u);

  // Keystone unreachable with a token in hand: the create fails without an
  // answer, which K-ORC latches as a terminal InvalidConfiguration.
  ks.set_down(true);
  w.korc(korc_kind::project, "latched", R"("resource":{"domainRef":"cp-domain-default"})");
  BOOST_TEST(w.eventually([&] {
    return w.terminal(korc_kind::project, "latched", "InvalidConfiguration", "invalid configuration creating resource: Post") &&
           w.progressing(korc_kind::project, "latched").find("connection refused") != std::string::npos;
  }));
  ks.set_down(false);
  auto calls = ks.requests();
  std::this_thread::sleep_for(1500ms);  // the latch holds: K-ORC does not come back by itself
  BOOST_TEST(korc_terminal_error(w.get(korc_kind::project, "latched")).has_value());
  BOOST_TEST(ks.requests() == calls);
  // The orders' unlatch: the Progressing condition removed with a status patch.
  BOOST_TEST(w.unlatch(korc_kind::project, "latched").empty());
  BOOST_TEST(w.eventually([&] { return w.available(korc_kind::project, "latched"); }));
  BOOST_TEST(ks.named("projects", "latched").size() == 1u);

  // No token yet (a cloud never used) while Keystone is down: authentication
  // fails, a TransientError, retried until Keystone is back.
  ks.set_down(true);
  auto cloud = parse_clouds_yaml(*base64_decode(w.secret("cp-admin-password-cloud").get_string({"data", "clouds.yaml"})), "admin");
  BOOST_TEST_REQUIRE(cloud.ok());
  auto fresh = *cloud;
  fresh.name = "fresh";
  fresh.auth_url = "http://other-name.openstack.svc:5000/v3";  // another cache key
  w.apply(fmt::format(R"({{"apiVersion":"v1","kind":"Secret","metadata":{{"name":"fresh-cloud","namespace":"openstack"}},
    "data":{{"clouds.yaml":"{}"}}}})",
                      base64_encode(render_password_clouds_yaml(fresh))));
  w.korc(korc_kind::role, "patient", R"("resource":{"name":"patient"})", "fresh-cloud", "fresh");
  BOOST_TEST(w.eventually([&] {
    auto c = w.get(korc_kind::role, "patient").find_condition("Progressing");
    return c && c->status == "True" && c->reason == "TransientError" &&
           c->message.find("Post \"http://other-name.openstack.svc:5000/v3/auth/tokens\": dial tcp") == 0;
  }));
  ks.set_down(false);
  BOOST_TEST(w.eventually([&] { return w.available(korc_kind::role, "patient"); }));
  BOOST_TEST(ks.named("roles", "patient").size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_settled_world_asks_keystone_nothing) {
  admin_ready w;
  w.korc(korc_kind::project, "quiet", R"("resource":{"domainRef":"cp-domain-default"})");
  BOOST_TEST_REQUIRE(w.eventually([&] { return w.available(korc_kind::project, "quiet"); }));
  std::this_thread::sleep_for(500ms);
  auto before = w.world->identity->requests();
  // Unrelated changes wake the world; it steps nothing K-ORC has settled.
  w.opaque_secret("unrelated", "k", "v");
  std::this_thread::sleep_for(1s);
  BOOST_TEST(w.world->identity->requests() == before);
}

BOOST_AUTO_TEST_CASE(many_objects_cost_two_keystone_requests_each) {
  admin_ready w;
  constexpr int n = 40;
  auto before = w.world->identity->requests();
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i)
    w.korc(korc_kind::project, fmt::format("many-{}", i), R"("resource":{"domainRef":"cp-domain-default"})");
  BOOST_TEST_REQUIRE(w.eventually([&] {
    for (int i = 0; i < n; ++i)
      if (!w.available(korc_kind::project, fmt::format("many-{}", i))) return false;
    return true;
  }, 120));
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  auto per_object = double(w.world->identity->requests() - before) / n;
  BOOST_TEST_MESSAGE(fmt::format("{} projects Available in {:.2f} s; {:.2f} Keystone requests each", n, seconds, per_object));
  // The adoption lookup and the create; the admin token is reused.
  BOOST_TEST(per_object <= 2.1);
}
