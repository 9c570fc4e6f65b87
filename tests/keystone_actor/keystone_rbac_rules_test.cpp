// Every Keystone rule of deploy/rbac/role.yaml is needed (issue 18, "RBAC in
// the emulator"): the rules tests/rbac/rbac_rules.py passes over, since its
// RabbitMQVhost scenario needs none of them (the Keystone kinds, their status
// and finalizers, the K-ORC objects and their status).
//
// The Keystone order hosts run as the operator's ServiceAccount against the
// emulator with RBAC and OwnerReferencesPermissionEnforcement (as on
// OpenShift: a delivered Secret's controller reference asks for the order's
// finalizers), the simulated K-ORC and its in-memory Keystone, through named
// steps: caches synced; a user, a project, an assignment and a catalog entry
// Ready; an application credential of a CRD installed then Ready; a Keystone
// outage latched on a project and handed back to K-ORC (the K-ORC status
// patch); every order gone. First with
// every rule (every step passes, nothing refused), then once per Keystone
// rule with only that rule removed: some step must fail, and the operator's
// log or an order's condition must hold a 403 naming a resource of the rule.
// The credential's CRD is installed only after the other orders are Ready,
// which shows the CRD watch's rule needed too.
#include "actors/c5c3/korc/unlatch.hpp"
#include "tests/keystone_actor/keystone_fixture.hpp"
#include "tests/rbac/rule_removal.hpp"

#include <optional>

namespace c5c3::testing {
namespace {

// deploy/rbac/role.yaml and its Keystone orders' rules, as rbac_rules.py's
// keystone_rule picks them, and the CRD watch's (which rbac_rules.py's
// scenario sees refused but cannot show needed: its kinds are all served
// from the start).
rbac::role_file role() { return rbac::load_role_file(source_dir() + "/deploy/rbac/role.yaml", "c5c3-operator"); }
std::vector<rbac::rule> keystone_rules() {
  return rbac::rules_of(role(), [](const auto& groups, const auto& resources) {
    for (const auto& g : groups)
      if (g == "openstack.k-orc.cloud" || g == "apiextensions.k8s.io") return true;
    for (const auto& r : resources)
      if (r.starts_with("keystone")) return true;
    return false;
  });
}

// The files of deploy/rbac emulator_options loads, the ClusterRole written
// to `dir` without rule `drop` (if given).
std::vector<std::string> rbac_files(const std::string& dir, std::optional<std::size_t> drop) {
  rbac::write_without(role(), dir + "/role.yaml", drop);
  return {"service_account.yaml", dir + "/role.yaml", "role_binding.yaml"};
}

const std::string users_resource = "keystoneusers.c5c3.io", projects_resource = "keystoneprojects.c5c3.io",
                  assignments_resource = "keystoneroleassignments.c5c3.io",
                  catalog_resource = "keystonecatalogentries.c5c3.io",
                  credentials_resource = "keystoneapplicationcredentials.c5c3.io";
const k8s::gvk catalog_gvk{"c5c3.io", "v1alpha1", "KeystoneCatalogEntry"};
const k8s::gvk credential_gvk{"c5c3.io", "v1alpha1", "KeystoneApplicationCredential"};

// The orders of the scenario: resource, name, gvk.
struct order {
  std::string resource, name;
  k8s::gvk gvk;
};
const std::vector<order> orders = {{users_resource, "alice", user_gvk},
                                   {projects_resource, "team", project_gvk},
                                   {assignments_resource, "alice-team", assignment_gvk},
                                   {catalog_resource, "dns", catalog_gvk},
                                   {credentials_resource, "alice-team-ac", credential_gvk},
                                   {projects_resource, "flaky", project_gvk}};

// The CRD the emulator serves only once the scenario installs it: the order
// kinds follow their CRDs, which the CRD watch (a rule of role.yaml) tells.
const std::string later_crd = "c5c3.io_keystoneapplicationcredentials.yaml";

// The emulator with deploy/rbac (less rule `drop`), deploy/crds but
// later_crd, and OwnerReferencesPermissionEnforcement; its files in `dir`.
sim::apiserver_options rbac_options(const std::string& dir, std::optional<std::size_t> drop) {
  auto opts = emulator_options(dir, rbac_files(dir, drop));
  std::erase(opts.crd_dirs, source_dir() + "/deploy/crds");
  for (auto& f : rbac::deploy_crds_but(later_crd)) opts.crd_dirs.push_back(std::move(f));
  opts.admission_plugins = {"OwnerReferencesPermissionEnforcement"};
  return opts;
}

struct rbac_fixture : keystone_fixture {
  captured_log& log;
  rbac_fixture(captured_log& l, const std::string& dir, std::optional<std::size_t> drop)
      : keystone_fixture(rbac_options(dir, drop), false), log(l) {
    auto r = world->merge_patch(k8s::gvk{"c5c3.io", "v1alpha1", "ControlPlane"}, "openstack", "cp", consent_everywhere);
    BOOST_TEST_REQUIRE(r.ok(), (r.ok() ? "" : r.error().describe()));
    start_operator();
  }

  // The operator's 403s: its log's and the orders' conditions'.
  std::vector<std::string> refusals() {
    auto out = rbac::logged_refusals(log);
    for (const auto& o : orders)
      if (auto obj = get(o.resource, o.name))
        for (auto type : {"Ready", "UserReady", "ProjectReady", "DeliveryReady", "CredentialReady"})
          if (auto c = obj.find_condition(type); c && c->message.find("is forbidden") != std::string::npos)
            out.push_back(o.name + " " + type + ": " + c->message);
    return out;
  }
  bool step(const std::string& name, const std::function<bool()>& done) {
    return rbac::step(name, done, [this] { return refusals(); });
  }

  bool ready_all(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
      if (!ready(orders[i].resource, orders[i].name)) return false;
    return true;
  }

  // The named steps; the first that fails, or "".
  std::string scenario() {
    if (!step("caches synced", [&] { return synced(); })) return "caches synced";
    for (const auto& json : {user_order("alice"), project_order("team"), assignment_order("alice-team", "alice", "team"),
                             catalog_order("dns", "designate", true)})
      create(json);
    if (!step("orders Ready", [&] { return ready_all(4); })) return "orders Ready";
    // Every host has subscribed by now, the credential's to a kind not served.
    BOOST_TEST_REQUIRE(world->create(rbac::deploy_crd(later_crd)).ok());
    create(credential_order("alice-team-ac", "alice", "team"));
    if (!step("an order of a CRD installed later Ready", [&] { return ready_all(5); }))
      return "an order of a CRD installed later Ready";
    // Keystone down while K-ORC creates the project: latched as a terminal
    // InvalidConfiguration, which the order hands back once Keystone is up.
    keystone->identity().set_down(true);
    create(project_order("flaky"));
    const bool latched = step("a transport error latched", [&] {
      for (auto& p : server.list_objects("projects.openstack.k-orc.cloud", "openstack"))
        if (p.label(project_label).value_or("") == "flaky" && p.get_string({"spec", "managementPolicy"}) == "managed" &&
            (c5c3::korc::transport_latched(p) || p.annotation(c5c3::korc::annotation_unlatched_at)))
          return true;
      return false;
    });
    keystone->identity().set_down(false);
    if (!latched) return "a transport error latched";
    if (!step("the latch handed back", [&] { return ready(projects_resource, "flaky"); })) return "the latch handed back";
    for (const auto& o : orders) BOOST_TEST_REQUIRE(world->remove(o.gvk, "tenant-a", o.name).ok());
    auto gone = [&] {
      for (const auto& o : orders)
        if (get(o.resource, o.name)) return false;
      for (auto k : {"users", "projects", "roleassignments", "services", "endpoints", "applicationcredentials"})
        if (!server.list_objects(std::string(k) + ".openstack.k-orc.cloud", "openstack").empty()) return false;
      return true;
    };
    if (!step("orders gone", gone)) return "orders gone";
    return "";
  }
};

// One run of the scenario with deploy/rbac (less rule `drop`), on a fresh
// emulator, world and operator.
rbac::attempt_result attempt(std::optional<std::size_t> drop) {
  return rbac::attempt_on<rbac_fixture>(make_temp_dir(), drop);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(keystone_rbac_rules)

BOOST_AUTO_TEST_CASE(with_every_rule_every_step_passes_and_nothing_is_refused) {
  rbac::expect_all_steps_pass(attempt(std::nullopt));
}

BOOST_AUTO_TEST_CASE(without_any_one_keystone_rule_a_step_fails_on_its_403) {
  const auto rules = keystone_rules();
  BOOST_TEST_REQUIRE(rules.size() >= 6u);
  rbac::expect_each_needed(rules, [](std::size_t i) { return attempt(i); });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
