// The KeystoneApplicationCredential order host wired as the operator wires
// its kinds, beside the KeystoneUser and KeystoneProject hosts, against the
// in-process emulator (deploy/crds, sim/crds) and sim/world (External
// Secrets, the simulated K-ORC, and a Keystone: the in-memory one, or a real
// one given by URL), and the scenario both tests run.
#pragma once

#include "actors/c5c3/keystoneapplicationcredential/kind.hpp"
#include "actors/c5c3/keystoneapplicationcredential/spec.hpp"
#include "actors/c5c3/keystoneproject/constants.hpp"
#include "actors/c5c3/keystoneproject/kind.hpp"
#include "actors/c5c3/keystoneproject/spec.hpp"
#include "actors/c5c3/keystoneuser/kind.hpp"
#include "sim/world/http_identity.hpp"
#include "tests/rabbitmqvhost_actor/emulator_fixture.hpp"

namespace c5c3::testing {

namespace kac = c5c3::keystoneapplicationcredential;

inline const k8s::gvk credential_gvk{"c5c3.io", "v1alpha1", "KeystoneApplicationCredential"};
inline const k8s::gvk assignment_gvk{"c5c3.io", "v1alpha1", "KeystoneRoleAssignment"};
inline const std::string orders_ns = "tenant-a";
inline const std::string credential_label = std::string(kac::label_name);

struct appcred_fixture {
  std::string dir = make_temp_dir();
  sim::apiserver server{emulator_options(dir)};
  std::shared_ptr<k8s::request_counters> operator_requests = std::make_shared<k8s::request_counters>();
  std::unique_ptr<world_runner> world;
  runtime::metrics::registry reg;
  caf::actor_system sys{make_config()};
  caf::actor management, directory, control_planes, limiter;
  std::vector<caf::actor> hosts;

  // The Keystone K-ORC talks to; null: the world's in-memory one.
  std::shared_ptr<sim::world::identity_service> keystone;
  std::string keystone_admin_password;

  // `real`: a Keystone at that URL (http://host:port) with that admin password.
  explicit appcred_fixture(std::string real_url = "", std::string real_admin_password = "",
                           std::string real_auth_url = "") {
    if (!real_url.empty()) {
      keystone = std::make_shared<sim::world::http_identity>(real_url);
      keystone_admin_password = real_admin_password;
    }
    server.start();
    server.write_kubeconfig(dir + "/kubeconfig");
    auto conn = config::load_connection({dir + "/kubeconfig", "", ""});
    BOOST_TEST_REQUIRE(conn.ok());
    auto wc = conn->client;
    fast(wc);
    world = std::make_unique<world_runner>(wc);
    if (keystone)
      world->configure = [this, real_auth_url](sim::world::world_options& wo) {
        wo.identity = keystone;
        wo.admin = {keystone_admin_password, real_auth_url};
      };
    else
      keystone = world->identity;
    world->start();
    for (const auto& ns : namespaces) create(ns);
    create(store);
    create(control_plane);

    auto oc = conn->client;
    fast(oc);
    oc.observer = operator_requests;
    oc.credentials = std::make_shared<k8s::static_token>(operator_token);
    management = cluster::spawn_cluster(sys, {"", oc});
    directory = cluster::spawn_cluster_directory(sys, management);
    control_planes = c5c3::controlplane::spawn_control_plane_directory(sys, management);
    limiter = runtime::spawn_limiter(sys, 4);
    runtime::kind_host_options ho;
    ho.limiter = limiter;
    ho.max_concurrent_reconciles = 4;
    ho.registry = &reg;
    ho.deps.clusters = directory;
    ho.deps.control_planes = control_planes;
    hosts = {c5c3::keystoneuser::spawn_host(sys, ho), c5c3::keystoneproject::spawn_host(sys, ho),
             kac::spawn_host(sys, ho)};
  }

  ~appcred_fixture() {
    caf::scoped_actor self{sys};
    for (const auto& h : hosts)
      self->request(h, 30s, protocol::stop_atom::value).receive([](protocol::ok_atom) {}, [](caf::error&) {});
    std::vector<caf::actor> all = hosts;
    for (const auto& a : {limiter, control_planes, directory, management}) all.push_back(a);
    for (const auto& a : all) {
      caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
      self->wait_for(a);
    }
    world->stop();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  void create(const std::string& json) {
    auto r = world->create(parse(json));
    BOOST_TEST_REQUIRE(r.ok(), (r.ok() ? "" : r.error().describe()));
  }
  k8s::object get(const std::string& resource, const std::string& name, const std::string& ns = orders_ns) const {
    return server.get_object(resource, ns, name);
  }
  k8s::object credential_order() const { return get("keystoneapplicationcredentials.c5c3.io", "creds"); }
  std::string reason(const k8s::object& o, const std::string& type) const {
    auto c = o.find_condition(type);
    return c ? c->reason + ": " + c->message : "";
  }
  bool ready(const k8s::object& o) const {
    auto c = o.find_condition("Ready");
    return c && c->is_true() && k8s::get_int(o.json(), {"status", "observedGeneration"}).value_or(0) == o.generation();
  }
  std::int64_t status_int(const std::string& field) const {
    return k8s::get_int(credential_order().json(), {"status", field}).value_or(0);
  }
  std::string delivered(const std::string& key) const {
    auto d = k8s::base64_decode(get("secrets", "creds-credentials").get_string({"data", key}));
    return d ? *d : "";
  }
  std::size_t children(const std::string& resource) const {
    std::size_t n = 0;
    for (auto& o : server.list_objects(resource, "openstack"))
      if (o.label(credential_label).value_or("") == "creds") ++n;
    return n;
  }
  // The user's application credentials in Keystone, as the admin lists them.
  std::size_t keystone_credentials() const {
    if (auto memory = std::dynamic_pointer_cast<sim::world::memory_identity>(keystone))
      return memory->list("application_credentials").size();
    auto token = keystone->send({"POST", "/v3/auth/tokens",
                                 R"({"auth":{"identity":{"methods":["password"],"password":{"user":{"name":"admin",)"
                                 R"("domain":{"name":"Default"},"password":")" +
                                     keystone_admin_password +
                                     R"("}}},"scope":{"project":{"name":"admin","domain":{"name":"Default"}}}}})",
                                 ""});
    const auto user_id = std::string(get("keystoneusers.c5c3.io", "alice").get_string({"status", "userID"}));
    auto reply = keystone->send({"GET", "/v3/users/" + user_id + "/application_credentials", "", token.subject_token});
    auto body = k8s::object::parse(reply.body);
    const auto* items = body ? body->get({"application_credentials"}) : nullptr;
    return items && items->IsArray() ? items->Size() : 0;
  }
  // POST /v3/auth/tokens with an application credential: the status, and the
  // token's project name.
  std::pair<int, std::string> authenticate(const std::string& id, const std::string& secret) const {
    auto reply = keystone->send(
        {"POST", "/v3/auth/tokens",
         R"({"auth":{"identity":{"methods":["application_credential"],"application_credential":{"id":")" + id +
             R"(","secret":")" + secret + R"("}}}})",
         ""});
    std::string project;
    if (reply.status == 201)
      if (auto body = k8s::object::parse(reply.body)) project = std::string(body->get_string({"token", "project", "name"}));
    return {reply.status, project};
  }
  bool synced() {
    caf::scoped_actor self{sys};
    bool out = false;
    self->request(directory, 10s, protocol::synced_atom::value).receive([&](bool b) { out = b; }, [](caf::error&) {});
    return out;
  }
  void quiet() {
    BOOST_TEST_REQUIRE(eventually([&] {
      auto before = operator_requests->requests_total();
      std::this_thread::sleep_for(500ms);
      return operator_requests->requests_total() == before;
    }));
  }

  // What a KeystoneRoleAssignment's reconciler would leave (that kind is not
  // in this binary yet): K-ORC's Role import and RoleAssignment granting
  // `member` to the user's managed User on the project's managed Project, and
  // the order reporting status.roleID.
  void assign_member_role() {
    const auto user = kac::user_children_of("alice", orders_ns, "", 0).managed_user;
    const c5c3::order_ref project_ref{"team", orders_ns, "", std::string(c5c3::keystoneproject::segment),
                                      c5c3::keystoneproject::label_keys()};
    const auto project = c5c3::keystoneproject::project_names(project_ref).project();
    const std::string creds = R"("cloudCredentialsRef":{"secretName":"cp-admin-password-cloud","cloudName":"admin"})";
    create(R"({"apiVersion":"openstack.k-orc.cloud/v1alpha1","kind":"Role","metadata":{"name":"test-member","namespace":"openstack"},
      "spec":{"managementPolicy":"unmanaged","import":{"filter":{"name":"member"}},)" + creds + "}}");
    create(R"({"apiVersion":"openstack.k-orc.cloud/v1alpha1","kind":"RoleAssignment","metadata":{"name":"test-member-alice-team","namespace":"openstack"},
      "spec":{"managementPolicy":"managed","resource":{"roleRef":"test-member","userRef":")" + user +
           R"(","projectRef":")" + project + R"("},)" + creds + "}}");
    BOOST_TEST_REQUIRE(eventually([&] {
      auto ra = get("roleassignments.openstack.k-orc.cloud", "test-member-alice-team", "openstack");
      auto c = ra.find_condition("Available");
      return c && c->is_true();
    }));
    create(R"({"apiVersion":"c5c3.io/v1alpha1","kind":"KeystoneRoleAssignment","metadata":{"name":"ra-1","namespace":"tenant-a"},
      "spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"},"userRef":{"name":"alice"},"projectRef":{"name":"team"},"role":"member"}})");
    k8s::patch_options po;
    po.field_manager = "test";
    po.status = true;
    auto r = k8s::wait_for<k8s::object>([&](k8s::callback<k8s::object> cb) {
      world->client().patch(assignment_gvk, orders_ns, "ra-1", k8s::patch_type::merge,
                            R"({"status":{"roleID":"member-role"}})", po, std::move(cb));
    });
    BOOST_TEST_REQUIRE(r.ok(), (r.ok() ? "" : r.error().describe()));
  }
  // The scenario both tests run: NoRoleOnProject until an assignment of the
  // user and project reports its role; Ready with a delivered credential that
  // authenticates in Keystone, scoped to the project; zero requests once
  // converged; credentialGeneration 2 with both credentials valid during the
  // grace period and the old one deleted in Keystone when it ends (the grace
  // timer); the two-phase teardown removing every credential from Keystone
  // and every child.
  void credential_from_order_to_teardown();
};

inline const std::string user_order = R"({"apiVersion":"c5c3.io/v1alpha1","kind":"KeystoneUser","metadata":{"name":"alice","namespace":"tenant-a"},
  "spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"}}})";
inline const std::string project_order = R"({"apiVersion":"c5c3.io/v1alpha1","kind":"KeystoneProject","metadata":{"name":"team","namespace":"tenant-a"},
  "spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"}}})";
inline const std::string credential = R"({"apiVersion":"c5c3.io/v1alpha1","kind":"KeystoneApplicationCredential","metadata":{"name":"creds","namespace":"tenant-a"},
  "spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"},"userRef":{"name":"alice"},"projectRef":{"name":"team"},
          "rotation":{"interval":"1h","gracePeriod":"4s"}}})";

inline void appcred_fixture::credential_from_order_to_teardown() {
  BOOST_TEST_REQUIRE(eventually([&] { return synced(); }));
  create(user_order);
  create(project_order);
  create(credential);

  BOOST_TEST_CONTEXT("no role on the project: NoRoleOnProject, nothing minted") {
    BOOST_TEST_REQUIRE(eventually([&] {
                         return reason(credential_order(), "CredentialReady").starts_with("NoRoleOnProject");
                       }, 90),
                       reason(credential_order(), "CredentialReady"));
    BOOST_TEST(reason(credential_order(), "DeliveryReady").starts_with("WaitingForCredential"));
    BOOST_TEST(children("applicationcredentials.openstack.k-orc.cloud") == 0u);
  }

  assign_member_role();
  BOOST_TEST_REQUIRE(eventually([&] { return ready(credential_order()); }, 90),
                     reason(credential_order(), "CredentialReady") << " / "
                                                                   << reason(credential_order(), "DeliveryReady"));
  const auto first_id = std::string(credential_order().get_string({"status", "credentialID"}));
  const auto first_secret = delivered("application_credential_secret");
  BOOST_TEST_CONTEXT("Ready: a delivered credential that authenticates, scoped to the project") {
    BOOST_TEST(status_int("credentialGeneration") == 1);
    BOOST_TEST(delivered("application_credential_id") == first_id);
    BOOST_TEST(delivered("clouds.yaml").find("v3applicationcredential") != std::string::npos);
    BOOST_TEST(delivered("clouds.yaml").find(first_id) != std::string::npos);
    auto [status, project] = authenticate(first_id, first_secret);
    BOOST_TEST(status == 201);
    BOOST_TEST(project == "team");
    BOOST_TEST(keystone_credentials() == 1u);
    BOOST_TEST(!credential_order().get_string({"status", "credentialExpiresAt"}).empty());
    BOOST_TEST(!credential_order().get_string({"status", "nextRotation"}).empty());
  }

  BOOST_TEST_CONTEXT("a converged order makes zero API requests") {
    quiet();
    auto before = operator_requests->requests_total();
    std::this_thread::sleep_for(2s);
    BOOST_TEST(operator_requests->requests_total() == before);
  }

  BOOST_TEST_CONTEXT("credentialGeneration 2: both valid during the grace period, then the old one deleted") {
    BOOST_TEST_REQUIRE(world->merge_patch(credential_gvk, orders_ns, "creds", R"({"spec":{"credentialGeneration":2}})").ok());
    BOOST_TEST_REQUIRE(eventually([&] { return status_int("credentialGeneration") == 2; }),
                       reason(credential_order(), "CredentialReady"));
    const auto second_id = std::string(credential_order().get_string({"status", "credentialID"}));
    BOOST_TEST(second_id != first_id);
    BOOST_TEST(credential_order().get_string({"status", "previousCredentialID"}) == first_id);
    BOOST_TEST_REQUIRE(eventually([&] { return delivered("application_credential_id") == second_id; }));
    if (status_int("previousCredentialGeneration") == 1) {  // the 4 s grace may be over on a loaded machine
      BOOST_TEST(authenticate(first_id, first_secret).first == 201);
    }
    BOOST_TEST(authenticate(second_id, delivered("application_credential_secret")).first == 201);
    // The grace timer: the superseded credential goes from Keystone, then its children.
    BOOST_TEST_REQUIRE(eventually([&] {
      return status_int("previousCredentialGeneration") == 0 && keystone_credentials() == 1u &&
             children("applicationcredentials.openstack.k-orc.cloud") == 1u;
    }), reason(credential_order(), "CredentialReady") << " " << keystone_credentials());
    const auto refused = authenticate(first_id, first_secret).first;  // Keystone no longer knows it
    BOOST_TEST((refused == 401 || refused == 404), refused);
    BOOST_TEST(ready(credential_order()));
  }

  BOOST_TEST_CONTEXT("deletion: every credential gone from Keystone, every child gone") {
    BOOST_TEST_REQUIRE(world->remove(credential_gvk, orders_ns, "creds").ok());
    BOOST_TEST_REQUIRE(eventually([&] { return !credential_order(); }, 90),
                       reason(credential_order(), "CredentialReady"));
    BOOST_TEST(keystone_credentials() == 0u);
    BOOST_TEST(children("applicationcredentials.openstack.k-orc.cloud") == 0u);
    BOOST_TEST(children("secrets") == 0u);
    BOOST_TEST(children("pushsecrets.external-secrets.io") == 0u);
    BOOST_TEST(!get("secrets", "creds-credentials"));
  }
}

}  // namespace c5c3::testing
