// Generated perturbation plans for the AlertmanagerReconciler (issue 18;
// spawn_monitoring, as the operator runs it, monitoring_scenario.hpp's
// backend_scenario) against the emulator. Its order is an Alertmanager (no
// finalizer: a deleted one is skipped); its writes are a merge patch of the
// Alertmanager (the config selector and matcher strategy) and the
// AlertmanagerConfig inbox-agent beside it (no owner: it outlives the
// Alertmanager, as upstream's). The scenario: two Alertmanagers (monitoring/
// main, team-a/ops) and the inbox APIService created and converged (each
// patched, each namespace's config pointing at the inbox Service); the
// APIService moved to another Service (wakes every Alertmanager: both configs
// follow) while a user sets ops's matcher strategy (restored); ops deleted.
// Oracle: the end state equals the reference's (each Alertmanager's
// existence, selector and strategy; each namespace's config: its label,
// receiver url and route) and so do the operator's successful creates and
// deletes per resource.
//
// C5C3_FAULT_PLANS picks the plans (plan_runner.hpp); the default is what CI runs.
#include "tests/faults/monitoring_scenario.hpp"

namespace c5c3::testing {
namespace {

namespace mon = ::c5c3::monitoring;

const std::string alertmanager_resource = "alertmanagers.monitoring.coreos.com";
const std::string config_resource = "alertmanagerconfigs.monitoring.coreos.com";
const std::string apiservice_name = "v1alpha1.inbox.monitoring.appscode.com";

// Where each Alertmanager of the scenario lives (its config beside it).
const std::vector<std::pair<std::string, std::string>> plan_alertmanagers{{"main", "monitoring"}, {"ops", "team-a"}};

std::string alertmanager_yaml(const std::string& name, const std::string& ns) {
  return "apiVersion: monitoring.coreos.com/v1\nkind: Alertmanager\nmetadata: {name: " + name + ", namespace: " + ns +
         "}\nspec: {replicas: 1}\n";
}

std::string inbox_url(const std::string& service) { return "https://" + service + ".monitoring.svc:443/alerts"; }

struct alertmanager_scenario : faults::backend_scenario {
  explicit alertmanager_scenario(bool start) {
    if (start) start_operator();
  }

  static const std::string& namespace_of(const std::string& name) {
    for (const auto& [n, ns] : plan_alertmanagers)
      if (n == name) return ns;
    BOOST_FAIL("no Alertmanager " << name);
    return name;
  }
  k8s::object alertmanager(const std::string& name) const {
    return server.get_object(alertmanager_resource, namespace_of(name), name);
  }
  k8s::object config(const std::string& ns) const { return server.get_object(config_resource, ns, mon::amcfg_inbox_agent); }

  static bool patched(const k8s::object& am) {
    return am && am.get_string({"spec", "alertmanagerConfigSelector", "matchLabels", mon::amcfg_label_key}) ==
                     mon::amcfg_inbox_agent &&
           am.get_string({"spec", "alertmanagerConfigMatcherStrategy", "type"}) == "None";
  }
  // The url of the config's webhook ("" when none).
  static std::string webhook_url(const k8s::object& cfg) {
    const auto* r = cfg ? cfg.get({"spec", "receivers"}) : nullptr;
    if (!r || !r->IsArray() || r->Empty()) return "";
    const auto* hooks = k8s::find((*r)[0], {"webhookConfigs"});
    return hooks && hooks->IsArray() && !hooks->Empty() ? std::string(k8s::get_string((*hooks)[0], {"url"})) : "";
  }

  // "" once every Alertmanager is patched and its namespace's config points at `service`.
  std::string not_pointing_at(const std::string& service) const {
    std::string out;
    for (const auto& [name, ns] : plan_alertmanagers) {
      if (!patched(alertmanager(name))) out += name + "(not patched) ";
      if (auto url = webhook_url(config(ns)); url != inbox_url(service)) out += ns + "/inbox-agent(url " + url + ") ";
    }
    return out;
  }

  std::vector<faults::scenario_step> steps() {
    return {{"create",
             [this] {
               for (const auto& [name, ns] : plan_alertmanagers) create(alertmanager_yaml(name, ns));
               create("apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata: {name: " + apiservice_name +
                      "}\nspec: {group: inbox.monitoring.appscode.com, version: v1alpha1, groupPriorityMinimum: 10000,"
                      " versionPriority: 15, insecureSkipTLSVerify: true, service: {namespace: monitoring, name: inbox-agent}}\n");
             },
             [this] { return not_pointing_at("inbox-agent"); }},
            {"change",
             [this] {
               patch(mon::apiservice_gvk, "", apiservice_name, R"({"spec":{"service":{"name":"inbox-v2"}}})");
               patch(mon::alertmanager_gvk, "ops", R"({"spec":{"alertmanagerConfigMatcherStrategy":{"type":"OnNamespace"}}})");
             },
             [this] { return not_pointing_at("inbox-v2"); }},
            {"delete", [this] { remove(mon::alertmanager_gvk, "ops"); },
             [this] { return alertmanager("ops") ? std::string("ops still there ") : ""; }}};
  }

  // The Alertmanagers, and each namespace's config as a pseudo-order "config/<ns>".
  std::vector<std::string> order_names() const {
    std::vector<std::string> out;
    for (const auto& [name, ns] : plan_alertmanagers) out.insert(out.end(), {name, "config/" + ns});
    return out;
  }

  std::string order_state(const std::string& name) {
    if (name.starts_with("config/")) {
      auto c = config(name.substr(7));
      return fmt::format("exists={} label={} url={} route={}", static_cast<bool>(c),
                         c ? std::string(c.label(mon::amcfg_label_key).value_or("")) : "", webhook_url(c),
                         c && c.get({"spec", "route"}) ? k8s::to_json(*c.get({"spec", "route"})) : "");
    }
    auto a = alertmanager(name);
    return fmt::format("exists={} patched={}", static_cast<bool>(a), patched(a));
  }

  void expect_reference() {
    BOOST_TEST(order_state("main") == "exists=true patched=true");
    BOOST_TEST(order_state("ops") == "exists=false patched=false");
    // Both configs point at the moved Service; ops's outlives it (it has no owner).
    for (const auto& ns : {"monitoring", "team-a"}) {
      auto s = order_state(std::string("config/") + ns);
      BOOST_TEST(s.starts_with("exists=true label=inbox-agent url=" + inbox_url("inbox-v2")), s);
      BOOST_TEST(s.find(R"("receiver":"webhook")") != std::string::npos, s);
    }
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans_alertmanager)

BOOST_AUTO_TEST_CASE(every_chosen_plan_ends_as_the_reference_run) {
  faults::every_chosen_plan_ends_as_the_reference_run<alertmanager_scenario>(3, alertmanager_resource);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
