// Every Keystone rule of deploy/rbac/role.yaml is needed (issue 18, "RBAC in
// the emulator"): the rules tests/rbac/rbac_rules.py passes over, since its
// RabbitMQVhost scenario needs none of them (the Keystone kinds, their status
// and finalizers, the K-ORC objects and their status).
//
// The Keystone order hosts run as the operator's ServiceAccount against the
// emulator with RBAC and OwnerReferencesPermissionEnforcement (as on
// OpenShift: a delivered Secret's controller reference asks for the order's
// finalizers), the simulated K-ORC and its in-memory Keystone, through named
// steps: caches synced; a user, a project, an assignment, a catalog entry and
// an application credential Ready; a Keystone outage latched on a project and
// handed back to K-ORC (the K-ORC status patch); every order gone. First with
// every rule (every step passes, nothing refused), then once per Keystone
// rule with only that rule removed: some step must fail, and the operator's
// log or an order's condition must hold a 403 naming a resource of the rule.
#include "actors/c5c3/korc/unlatch.hpp"
#include "tests/captured_log.hpp"
#include "tests/keystone_actor/keystone_fixture.hpp"

#include <yaml-cpp/yaml.h>

#include <fmt/format.h>

#include <fstream>
#include <optional>

namespace c5c3::testing {
namespace {

using clock_type = std::chrono::steady_clock;

// A step may still complete this long after the first 403; a step that
// nothing refuses has the whole timeout.
constexpr auto refusal_grace = 5s;
constexpr auto step_timeout = 60s;

// One rule of the ClusterRole, as "group resource,resource [verbs]", and
// the resources its 403s name ("resource \"r\" in API group \"g\"").
struct rule {
  std::size_t index = 0;
  std::string text;
  std::vector<std::string> refusals;
  bool finalizers = false;  // asked for by OwnerReferencesPermissionEnforcement
};

YAML::Node role_yaml() { return YAML::LoadFile(source_dir() + "/deploy/rbac/role.yaml"); }

// The Keystone orders' rules, as rbac_rules.py's keystone_rule picks them.
std::vector<rule> keystone_rules(const YAML::Node& role) {
  std::vector<rule> out;
  const auto rules = role["rules"];
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const auto r = rules[i];
    bool keystone = false;
    rule x{i, "", {}, true};
    std::string groups, resources, verbs;
    for (const auto& g : r["apiGroups"]) {
      groups += (groups.empty() ? "" : ",") + g.as<std::string>();
      keystone = keystone || g.as<std::string>() == "openstack.k-orc.cloud";
    }
    for (const auto& res : r["resources"]) {
      auto name = res.as<std::string>();
      resources += (resources.empty() ? "" : ",") + name;
      keystone = keystone || name.starts_with("keystone");
      x.finalizers = x.finalizers && name.ends_with("/finalizers");
      for (const auto& g : r["apiGroups"])
        x.refusals.push_back(fmt::format(R"(resource "{}" in API group "{}")", name, g.as<std::string>()));
    }
    for (const auto& v : r["verbs"]) verbs += (verbs.empty() ? "" : ",") + v.as<std::string>();
    x.text = fmt::format("rule {}: {} {} [{}]", i, groups, resources, verbs);
    if (keystone) out.push_back(std::move(x));
  }
  return out;
}

// deploy/rbac with the ClusterRole written to `dir` (without rule `drop`, if
// given): the files emulator_options loads.
std::vector<std::string> rbac_files(const std::string& dir, std::optional<std::size_t> drop) {
  auto role = role_yaml();
  YAML::Node rules(YAML::NodeType::Sequence);
  for (std::size_t i = 0; i < role["rules"].size(); ++i)
    if (!drop || *drop != i) rules.push_back(role["rules"][i]);
  role["rules"] = rules;
  YAML::Emitter out;
  out << role;
  const auto path = dir + "/role.yaml";
  std::ofstream(path) << out.c_str() << "\n";
  return {"service_account.yaml", path, "role_binding.yaml"};
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

struct attempt_result {
  std::string failed_step;                // empty: every step passed
  std::vector<std::string> refusals;      // the 403s logged or in a condition, unescaped
};

struct rbac_fixture : keystone_fixture {
  captured_log& log;
  explicit rbac_fixture(sim::apiserver_options emulator, captured_log& l)
      : keystone_fixture(std::move(emulator), false), log(l) {
    auto r = world->merge_patch(k8s::gvk{"c5c3.io", "v1alpha1", "ControlPlane"}, "openstack", "cp", consent_everywhere);
    BOOST_TEST_REQUIRE(r.ok(), (r.ok() ? "" : r.error().describe()));
    start_operator();
  }

  // Every "... is forbidden: ..." of the operator's log and of the orders'
  // conditions, with JSON's \" unescaped.
  std::vector<std::string> refusals() {
    std::vector<std::string> out;
    for (auto line : [&] {
           std::lock_guard<std::mutex> g(log.mu);
           return log.lines;
         }()) {
      if (line.find("is forbidden") == std::string::npos && line.find("can't set finalizers") == std::string::npos)
        continue;
      for (auto at = line.find("\\\""); at != std::string::npos; at = line.find("\\\"", at + 1)) line.erase(at, 1);
      out.push_back(line);
    }
    for (const auto& o : orders)
      if (auto obj = get(o.resource, o.name))
        for (auto type : {"Ready", "UserReady", "ProjectReady", "DeliveryReady", "CredentialReady"})
          if (auto c = obj.find_condition(type); c && c->message.find("is forbidden") != std::string::npos)
            out.push_back(o.name + " " + type + ": " + c->message);
    return out;
  }

  // Waits for `done`; false once the step timed out, or `refusal_grace`
  // after a 403 was first seen while it was pending.
  bool step(const std::string& name, const std::function<bool()>& done) {
    const auto start = clock_type::now();
    std::optional<clock_type::time_point> refused;
    for (;;) {
      if (done()) return true;
      const auto now = clock_type::now();
      if (!refused && !refusals().empty()) refused = now;
      if ((refused && now - *refused > refusal_grace) || now - start > step_timeout) {
        BOOST_TEST_MESSAGE("step '" << name << "' did not complete");
        return false;
      }
      std::this_thread::sleep_for(50ms);
    }
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
                             catalog_order("dns", "designate", true), credential_order("alice-team-ac", "alice", "team")})
      create(json);
    if (!step("orders Ready", [&] { return ready_all(5); })) return "orders Ready";
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
attempt_result attempt(std::optional<std::size_t> drop) {
  captured_log log;
  struct restore_root {
    k8s::log::logger previous = k8s::log::root();
    ~restore_root() { k8s::log::set_root(previous); }
  } restore;
  k8s::log::set_root(k8s::log::logger({k8s::log::level::info, 0, log.sink(), {}}));
  const auto dir = make_temp_dir();
  auto opts = emulator_options(dir, rbac_files(dir, drop));
  opts.admission_plugins = {"OwnerReferencesPermissionEnforcement"};
  attempt_result out;
  {
    rbac_fixture f(std::move(opts), log);
    out.failed_step = f.scenario();
    out.refusals = f.refusals();
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(keystone_rbac_rules)

BOOST_AUTO_TEST_CASE(with_every_rule_every_step_passes_and_nothing_is_refused) {
  auto r = attempt(std::nullopt);
  BOOST_TEST(r.failed_step == "");
  BOOST_TEST(r.refusals.empty(), (r.refusals.empty() ? "" : r.refusals.front()));
}

BOOST_AUTO_TEST_CASE(without_any_one_keystone_rule_a_step_fails_on_its_403) {
  const auto rules = keystone_rules(role_yaml());
  BOOST_TEST_REQUIRE(rules.size() >= 5u);
  for (const auto& x : rules) {
    BOOST_TEST_CONTEXT(x.text) {
      auto r = attempt(x.index);
      std::string hit;
      for (const auto& line : r.refusals) {
        for (const auto& needle : x.refusals)
          if (line.find(needle) != std::string::npos) hit = line;
        if (x.finalizers && line.find("you can't set finalizers on") != std::string::npos) hit = line;
      }
      BOOST_TEST(r.failed_step != "", "no step failed without it");
      BOOST_TEST(hit != "", "no 403 names its resources; refused: " << (r.refusals.empty() ? "nothing" : r.refusals.front()));
      BOOST_TEST_MESSAGE(x.text << ": "
                                << (r.failed_step.empty() ? "every step passed"
                                                          : "step '" + r.failed_step + "' failed; " + hit.substr(0, 300)));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
