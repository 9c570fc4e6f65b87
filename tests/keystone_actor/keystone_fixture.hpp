// The Keystone order hosts wired as the operator wires its kinds (user,
// project, assignment, catalog entry, application credential), against the
// in-process emulator (deploy/crds, sim/crds) and sim/world (External
// Secrets, the simulated K-ORC with its in-memory Keystone or a real one
// given by URL, the ControlPlane's admin credential) on their own clients;
// the operator's requests are counted (operator_requests), its hosts can be
// probed (probe, passes), and the in-memory Keystone is read through
// `keystone` (keystone_view.hpp; null on a real Keystone, which `identity`
// reaches over HTTP).
#pragma once

#include "actors/c5c3/keystoneapplicationcredential/kind.hpp"
#include "actors/c5c3/keystonecatalogentry/kind.hpp"
#include "actors/c5c3/keystoneproject/kind.hpp"
#include "actors/c5c3/keystoneroleassignment/kind.hpp"
#include "actors/c5c3/keystoneuser/kind.hpp"
#include "sim/world/http_identity.hpp"
#include "tests/keystone_actor/keystone_view.hpp"
#include "tests/rabbitmqvhost_actor/emulator_fixture.hpp"

namespace c5c3::testing {

// A real Keystone for K-ORC: its URL (http://host:port), admin password and
// auth URL; empty: the world's in-memory one. On a real Keystone the
// ControlPlane names it External at that auth URL, so a delivered clouds.yaml
// reaches it as it is.
struct real_keystone_options {
  std::string url, admin_password, auth_url;
};

struct keystone_fixture {
  std::string dir = make_temp_dir();
  sim::apiserver server{emulator_options(dir)};
  std::shared_ptr<k8s::request_counters> operator_requests = std::make_shared<k8s::request_counters>();
  std::unique_ptr<world_runner> world;
  std::unique_ptr<keystone_view> keystone;
  // The Keystone K-ORC talks to (the in-memory one, or an http_identity).
  std::shared_ptr<sim::world::identity_service> identity;
  std::string keystone_admin_password;
  runtime::metrics::registry reg;
  // The operator client's limiter (client_config::qps, burst; off when 0).
  double operator_qps = 0;
  int operator_burst = 0;
  caf::actor_system sys{make_config()};
  caf::actor management, directory, control_planes, limiter, users, projects, assignments, catalog, credentials;

  // The emulator, the world and the prerequisites (namespaces, store,
  // ControlPlane); the operator too unless `start` is false (then the test
  // calls start_operator(), e.g. after adding fault rules). With `real`, K-ORC
  // talks to a real Keystone and the ControlPlane names its auth URL. With
  // `emulator`, the emulator runs with those options instead of
  // emulator_options(dir) (other RBAC rules, admission plugins).
  explicit keystone_fixture(bool start = true) : keystone_fixture(real_keystone_options{}, start) {}
  explicit keystone_fixture(sim::apiserver_options emulator, bool start = true)
      : keystone_fixture(real_keystone_options{}, start, std::move(emulator)) {}
  explicit keystone_fixture(const real_keystone_options& real, bool start = true,
                            std::optional<sim::apiserver_options> emulator = std::nullopt)
      : server{emulator ? std::move(*emulator) : emulator_options(dir)} {
    server.start();
    server.write_kubeconfig(dir + "/kubeconfig");
    auto conn = config::load_connection({dir + "/kubeconfig", "", ""});
    BOOST_TEST_REQUIRE(conn.ok());
    auto wc = conn->client;
    fast_retries(wc);
    world = std::make_unique<world_runner>(wc);
    if (!real.url.empty()) {
      identity = std::make_shared<sim::world::http_identity>(real.url);
      keystone_admin_password = real.admin_password;
    }
    world->configure = [this, real](sim::world::world_options& wo) {
      // Quicker than K-ORC's waits: the tests wait on them.
      wo.korc.external_poll = 200ms;
      wo.korc.delete_poll = 100ms;
      wo.korc_max_backoff = 2s;
      if (!real.url.empty()) {
        wo.identity = identity;
        wo.admin = {real.admin_password, real.auth_url};
      }
    };
    world->start();
    if (real.url.empty()) {
      identity = world->identity;
      keystone = std::make_unique<keystone_view>(world->identity);
    }
    for (const auto& ns : namespaces) create(ns);
    create(store);
    create(control_plane);
    if (!real.url.empty()) {
      auto r = world->merge_patch(k8s::gvk{"c5c3.io", "v1alpha1", "ControlPlane"}, "openstack", "cp",
                                  R"({"spec":{"services":{"keystone":{"mode":"External","publicEndpoint":null,)"
                                  R"("external":{"authURL":")" + real.auth_url + R"(","endpointType":"public"}}}}})");
      BOOST_TEST_REQUIRE(r.ok(), (r.ok() ? "" : r.error().describe()));
    }
    if (start) start_operator();
  }

  void start_operator() {
    auto conn = config::load_connection({dir + "/kubeconfig", "", ""});
    BOOST_TEST_REQUIRE(conn.ok());
    auto oc = conn->client;
    fast_retries(oc);
    oc.observer = operator_requests;
    oc.credentials = std::make_shared<k8s::static_token>(operator_token);
    oc.qps = operator_qps;
    oc.burst = operator_burst;
    management = cluster::spawn_cluster(sys, {"", oc});
    directory = cluster::spawn_cluster_directory(sys, management);
    control_planes = c5c3::controlplane::spawn_control_plane_directory(sys, management);
    limiter = runtime::spawn_limiter(sys, 4);
    runtime::kind_host_options ho;
    ho.limiter = limiter;
    ho.max_concurrent_reconciles = 4;
    // Converged orders park between the steps, as the operator's do after
    // --park-idle-after: the tests and plans run over parked orders too (a
    // ControlPlane change must reach them through their host).
    ho.actor_options.park_after = 200ms;
    ho.registry = &reg;
    ho.deps.clusters = directory;
    ho.deps.control_planes = control_planes;
    users = c5c3::keystoneuser::spawn_host(sys, ho);
    projects = c5c3::keystoneproject::spawn_host(sys, ho);
    assignments = c5c3::keystoneroleassignment::spawn_host(sys, ho);
    catalog = c5c3::keystonecatalogentry::spawn_host(sys, ho);
    credentials = c5c3::keystoneapplicationcredential::spawn_host(sys, ho);
  }

  // Stops the operator's actors (a crash as far as the cluster can tell:
  // nothing is written on the way out); start_operator() starts fresh ones
  // with empty caches.
  void stop_operator() {
    if (!users) return;
    caf::scoped_actor self{sys};
    for (const auto& h : {users, projects, assignments, catalog, credentials})
      self->request(h, 30s, protocol::stop_atom::value).receive([](protocol::ok_atom) {}, [](caf::error&) {});
    for (const auto& a :
         {users, projects, assignments, catalog, credentials, limiter, control_planes, directory, management}) {
      caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
      self->wait_for(a);
    }
    users = projects = assignments = catalog = limiter = control_planes = directory = management = caf::actor{};
  }

  ~keystone_fixture() {
    stop_operator();
    world->stop();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  void create(const std::string& json) {
    auto r = world->create(parse(json));
    BOOST_TEST_REQUIRE(r.ok(), (r.ok() ? "" : r.error().describe()));
  }
  k8s::object get(const std::string& resource, const std::string& name, const std::string& ns = "tenant-a") const {
    return server.get_object(resource, ns, name);
  }
  std::string reason(const std::string& resource, const std::string& name, const std::string& type) const {
    auto c = get(resource, name).find_condition(type);
    return c ? c->reason : "";
  }
  bool ready(const std::string& resource, const std::string& name) const { return ready(get(resource, name)); }
  // Ready=True for the order's current generation.
  static bool ready(const k8s::object& o) {
    auto c = o.find_condition("Ready");
    return c && c->is_true() &&
           k8s::get_int(o.json(), {"status", "observedGeneration"}).value_or(0) == o.generation();
  }
  std::string secret(const std::string& name, const std::string& key) const {
    auto d = k8s::base64_decode(get("secrets", name).get_string({"data", key}));
    return d ? *d : "";
  }
  std::size_t labelled(const std::string& resource, const std::string& label, const std::string& order) const {
    std::size_t n = 0;
    for (auto& o : server.list_objects(resource, "openstack"))
      if (o.label(label).value_or("") == order) ++n;
    return n;
  }
  bool synced() {
    caf::scoped_actor self{sys};
    bool out = false;
    self->request(directory, 10s, protocol::synced_atom::value).receive([&](bool b) { out = b; }, [](caf::error&) {});
    return out;
  }
  protocol::host_probe probe(const caf::actor& host) {
    caf::scoped_actor self{sys};
    protocol::host_probe out;
    self->request(host, 10s, protocol::probe_atom::value)
        .receive([&](protocol::host_probe& p) { out = std::move(p); }, [](caf::error&) {});
    return out;
  }
  // The passes the host has started for the order `name` of tenant-a.
  std::uint64_t passes(const caf::actor& host, const std::string& name) {
    caf::scoped_actor self{sys};
    std::uint64_t out = 0;
    self->request(host, 10s, protocol::probe_atom::value, protocol::order_key{"", "tenant-a", name})
        .receive([&](protocol::order_probe& p) { out = p.passes_started; }, [](caf::error&) {});
    return out;
  }
  // POST /v3/auth/tokens with an application credential: the status, and the
  // token's project name.
  std::pair<int, std::string> authenticate(const std::string& id, const std::string& secret) const {
    auto reply = identity->send(
        {"POST", "/v3/auth/tokens",
         R"({"auth":{"identity":{"methods":["application_credential"],"application_credential":{"id":")" + id +
             R"(","secret":")" + secret + R"("}}}})",
         ""});
    std::string project;
    if (reply.status == 201)
      if (auto body = k8s::object::parse(reply.body)) project = std::string(body->get_string({"token", "project", "name"}));
    return {reply.status, project};
  }
  void quiet() {
    BOOST_TEST_REQUIRE(eventually([&] { return no_requests_for(*operator_requests, 500ms); }));
  }
};

inline const std::string user_label = "c5c3.io/keystoneuser-name";
inline const std::string project_label = "c5c3.io/keystoneproject-name";

inline std::string user_order(const std::string& name, int generation = 1) {
  return R"({"apiVersion":"c5c3.io/v1alpha1","kind":"KeystoneUser","metadata":{"name":")" + name +
         R"(","namespace":"tenant-a"},"spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"},)"
         R"("passwordGeneration":)" + std::to_string(generation) + "}}";
}

inline std::string project_order(const std::string& name) {
  return R"({"apiVersion":"c5c3.io/v1alpha1","kind":"KeystoneProject","metadata":{"name":")" + name +
         R"(","namespace":"tenant-a"},"spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"}}})";
}

// A KeystoneRoleAssignment of tenant-a.
inline std::string assignment_order(const std::string& name, const std::string& user, const std::string& project,
                                    const std::string& role = "member") {
  return R"({"apiVersion":"c5c3.io/v1alpha1","kind":"KeystoneRoleAssignment","metadata":{"name":")" + name +
         R"(","namespace":"tenant-a"},"spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"},)"
         R"("userRef":{"name":")" + user + R"("},"projectRef":{"name":")" + project + R"("},"role":")" + role + R"("}})";
}

// A KeystoneApplicationCredential of tenant-a for `user` on `project`;
// `rotation`, when given, its spec.rotation (a JSON object).
inline std::string credential_order(const std::string& name, const std::string& user, const std::string& project,
                                    const std::string& rotation = "") {
  return R"({"apiVersion":"c5c3.io/v1alpha1","kind":"KeystoneApplicationCredential","metadata":{"name":")" + name +
         R"(","namespace":"tenant-a"},"spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"},)"
         R"("userRef":{"name":")" + user + R"("},"projectRef":{"name":")" + project + R"("})" +
         (rotation.empty() ? "" : R"(,"rotation":)" + rotation) + "}}";
}

// A KeystoneCatalogEntry of tenant-a, type dns: a public endpoint, and an internal one.
inline std::string catalog_order(const std::string& name, const std::string& service, bool internal) {
  std::string endpoints = R"([{"interface":"public","url":"https://dns.example.test/v2"})";
  if (internal) endpoints += R"(,{"interface":"internal","url":"http://designate.openstack.svc:9001/v2"})";
  return R"({"apiVersion":"c5c3.io/v1alpha1","kind":"KeystoneCatalogEntry","metadata":{"name":")" + name +
         R"(","namespace":"tenant-a"},"spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"},)"
         R"("serviceType":"dns","serviceName":")" + service + R"(","endpoints":)" + endpoints + "]}}";
}

// The ControlPlane's namespaceAssignments with the member role and catalog entries allowed in tenant-a.
inline const std::string consent_everywhere =
    R"({"spec":{"namespaceAssignments":[{"namespace":"tenant-a","allowedRoles":["member"],)"
    R"("allowCatalogEntries":true},{"namespace":"tenant-b","targetClusterRef":{"name":"edge-1"}}]}})";

inline const k8s::gvk user_gvk{"c5c3.io", "v1alpha1", "KeystoneUser"};
inline const k8s::gvk project_gvk{"c5c3.io", "v1alpha1", "KeystoneProject"};
inline const k8s::gvk assignment_gvk{"c5c3.io", "v1alpha1", "KeystoneRoleAssignment"};

}  // namespace c5c3::testing
