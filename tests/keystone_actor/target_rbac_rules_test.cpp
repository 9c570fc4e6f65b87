// Every rule of deploy/rbac/target_cluster.yaml is needed (issue 18, "RBAC
// in the emulator"): the identity a target cluster's kubeconfig Secret
// carries holds exactly that file's ClusterRole.
//
// The management cluster runs as in keystone_rbac_rules_test (deploy/rbac's
// orders role, the simulated K-ORC, the Keystone and RabbitMQVhost hosts);
// a second emulator is the target cluster "edge-1", authorizing with RBAC and
// OwnerReferencesPermissionEnforcement, and its kubeconfig Secret carries the
// token of the ServiceAccount c5c3-operator-target. Named steps: the target
// engaged and its caches synced; a RabbitMQVhost ordered in tenant-b on the
// target Ready with its credential delivered beside it; the KeystoneUser CRD
// installed only then (order kinds on a target follow their CRDs) and a
// KeystoneUser ordered there Ready with its credential delivered;
// a deleted delivered Secret put back; both orders gone. First with every rule
// (every step passes, nothing refused), then once per rule with only that
// rule removed: some step must fail, and the operator's log or an order's
// condition must hold a 403 naming a resource of the rule.
#include "tests/keystone_actor/keystone_fixture.hpp"
#include "tests/rbac/rule_removal.hpp"

#include <optional>

namespace c5c3::testing {
namespace {

const std::string target_role = "c5c3-operator-target";

rbac::role_file target_file() {
  return rbac::load_role_file(source_dir() + "/deploy/rbac/target_cluster.yaml", target_role);
}

// The CRD the target serves only once the test installs it.
const std::string later_crd = "c5c3.io_keystoneusers.yaml";

// The target: deploy/crds but later_crd, RBAC with target_cluster.yaml (less
// rule `drop`) written to `dir`, and OwnerReferencesPermissionEnforcement.
sim::apiserver_options target_options(const std::string& dir, std::optional<std::size_t> drop) {
  rbac::write_without(target_file(), dir + "/target_cluster.yaml", drop);
  sim::apiserver_options o;
  o.crd_dirs = rbac::deploy_crds_but(later_crd);
  o.crd_dirs.push_back(dir + "/target_cluster.yaml");
  o.authorization_mode = "RBAC";
  o.admission_plugins = {"OwnerReferencesPermissionEnforcement"};
  return o;
}

const std::string vhost_resource = "rabbitmqvhosts.c5c3.io", user_resource = "keystoneusers.c5c3.io";

struct target_rbac_fixture : keystone_fixture {
  captured_log& log;
  std::string target_dir;
  sim::apiserver target;
  caf::actor vhosts, registry, edge_admin;

  target_rbac_fixture(captured_log& l, const std::string& dir, std::optional<std::size_t> drop)
      : keystone_fixture(false), log(l), target_dir(dir), target(target_options(dir, drop)) {
    target.start();
    auto r = world->merge_patch(k8s::gvk{"c5c3.io", "v1alpha1", "ControlPlane"}, "openstack", "cp", consent_everywhere);
    BOOST_TEST_REQUIRE(r.ok(), (r.ok() ? "" : r.error().describe()));
    create(rabbitmq_cluster);
    start_operator();
    vhosts = spawn_vhost_host(sys, limiter, directory, control_planes, reg);
    registry = spawn_test_registry(sys, management, directory);
    // The test's own writes on the target, as its admin.
    auto conn = config::load_connection({write_admin_kubeconfig(), "", ""});
    BOOST_TEST_REQUIRE(conn.ok());
    auto ac = conn->client;
    fast_retries(ac);
    edge_admin = cluster::spawn_cluster(sys, {"edge-admin", ac});
  }
  ~target_rbac_fixture() {
    caf::scoped_actor self{sys};
    self->request(vhosts, 30s, protocol::stop_atom::value).receive([](protocol::ok_atom) {}, [](caf::error&) {});
    for (const auto& a : {vhosts, registry, edge_admin}) {
      caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
      self->wait_for(a);
    }
    stop_operator();
  }

  std::string write_admin_kubeconfig() {
    const auto path = target_dir + "/edge-admin.kubeconfig";
    std::ofstream(path) << target.kubeconfig_yaml();
    return path;
  }
  // The target's kubeconfig as its Secret carries it: the ServiceAccount's token.
  std::string operator_kubeconfig() const {
    auto yaml = target.kubeconfig_yaml();
    const auto admin = target.token();
    yaml.replace(yaml.find(admin), admin.size(), target.service_account_token("c5c3-system", target_role));
    return yaml;
  }

  caf::actor lookup(const std::string& name) { return lookup_cluster(sys, directory, name); }
  template <class Request>
  void on_edge(Request req) {
    caf::scoped_actor self{sys};
    bool ok = false;
    std::string why;
    self->request(edge_admin, 10s, std::move(req))
        .receive([&](k8s::object&) { ok = true; }, [&](caf::error& e) { why = protocol::describe(e); });
    BOOST_TEST_REQUIRE(ok, why);
  }
  void create_on_edge(const std::string& json) { on_edge(protocol::create_request{parse(json), {"test", false}}); }

  k8s::object on_target(const std::string& resource, const std::string& name) const {
    return target.get_object(resource, "tenant-b", name);
  }
  bool ready_on_target(const std::string& resource, const std::string& name) const {
    auto o = on_target(resource, name);
    return o && ready(o);
  }

  std::vector<std::string> refusals() {
    auto out = rbac::logged_refusals(log);
    for (const auto& [resource, name] : {std::pair{vhost_resource, "svc"}, std::pair{user_resource, "bob"}})
      if (auto obj = on_target(resource, name))
        for (auto type : {"Ready", "VhostReady", "UserReady", "DeliveryReady"})
          if (auto c = obj.find_condition(type); c && c->message.find("is forbidden") != std::string::npos)
            out.push_back(std::string(name) + " " + type + ": " + c->message);
    return out;
  }
  bool step(const std::string& name, const std::function<bool()>& done) {
    return rbac::step(name, done, [this] { return refusals(); });
  }

  // The named steps; the first that fails, or "".
  std::string scenario() {
    create(R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"edge-1","namespace":"c5c3-system",)"
           R"("labels":{"c5c3.io/target-cluster":"edge-1"}},"data":{"kubeconfig":")" +
           k8s::base64_encode(operator_kubeconfig()) + R"("}})");
    if (!step("the target engaged and synced", [&] { return lookup("edge-1") && synced(); }))
      return "the target engaged and synced";
    create_on_edge(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"tenant-b"}})");
    create_on_edge(R"({"apiVersion":"c5c3.io/v1alpha1","kind":"RabbitMQVhost","metadata":{"name":"svc","namespace":"tenant-b"},)"
                   R"("spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"}}})");
    if (!step("a RabbitMQVhost Ready on the target, its credential delivered",
              [&] { return ready_on_target(vhost_resource, "svc") && on_target("secrets", "svc-credentials"); }))
      return "a RabbitMQVhost Ready on the target, its credential delivered";
    // By now every host has subscribed to the target (the RabbitMQVhost's
    // did, on the same announcement), the KeystoneUser's to a kind it does
    // not serve yet: only the CRD watch can tell it the kind arrived.
    on_edge(protocol::create_request{rbac::deploy_crd(later_crd), {"test", false}});
    create_on_edge(R"({"apiVersion":"c5c3.io/v1alpha1","kind":"KeystoneUser","metadata":{"name":"bob","namespace":"tenant-b"},)"
                   R"("spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"}}})");
    if (!step("a KeystoneUser of a CRD installed later Ready, its credential delivered",
              [&] { return ready_on_target(user_resource, "bob") && on_target("secrets", "bob-credentials"); }))
      return "a KeystoneUser of a CRD installed later Ready, its credential delivered";
    on_edge(protocol::delete_request{{{"", "v1", "Secret"}, "tenant-b", "svc-credentials"}, "", "",
                                     protocol::propagation::background});
    if (!step("a deleted delivered Secret put back", [&] { return static_cast<bool>(on_target("secrets", "svc-credentials")); }))
      return "a deleted delivered Secret put back";
    on_edge(protocol::delete_request{{{"c5c3.io", "v1alpha1", "RabbitMQVhost"}, "tenant-b", "svc"}, "", "",
                                     protocol::propagation::background});
    on_edge(protocol::delete_request{{{"c5c3.io", "v1alpha1", "KeystoneUser"}, "tenant-b", "bob"}, "", "",
                                     protocol::propagation::background});
    if (!step("orders gone", [&] { return !on_target(vhost_resource, "svc") && !on_target(user_resource, "bob"); }))
      return "orders gone";
    return "";
  }
};

rbac::attempt_result attempt(std::optional<std::size_t> drop) {
  return rbac::attempt_on<target_rbac_fixture>(make_temp_dir(), drop);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(target_rbac_rules)

BOOST_AUTO_TEST_CASE(with_every_rule_every_step_passes_and_nothing_is_refused) {
  rbac::expect_all_steps_pass(attempt(std::nullopt));
}

BOOST_AUTO_TEST_CASE(without_any_one_rule_a_step_fails_on_its_403) {
  const auto rules = rbac::rules_of(target_file(), [](const auto&, const auto&) { return true; });
  BOOST_TEST_REQUIRE(rules.size() >= 8u);
  rbac::expect_each_needed(rules, [](std::size_t i) { return attempt(i); });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
