// Generated perturbation plans for the KeystoneProject order (issue 18), on
// the shared runner (plan_runner.hpp, keystone_scenario.hpp). The scenario:
// two projects created and converged; one changed (spec.projectName set to
// its effective name: a new generation, observed); the other deleted.
// Oracle: the end state equals the reference's (the kept project Ready for
// its generation with one K-ORC Project, the probe gone, in Keystone with
// the order's projectID; the deleted one gone with its children and its
// Keystone project) and so do the operator's successful creates and deletes
// per kind (one probe per project, no second Project, no orphan).
//
// C5C3_FAULT_PLANS picks the plans (plan_runner.hpp); the default is what CI
// runs.
#include "tests/faults/keystone_scenario.hpp"

namespace c5c3::testing {
namespace {

const std::string project_resource = "keystoneprojects.c5c3.io";
const std::vector<std::string> plan_projects{"team", "ops"};

struct keystoneproject_scenario : faults::keystone_scenario {
  explicit keystoneproject_scenario(bool start) : keystone_scenario(start) {}

  std::string all_ready() const {
    std::string out;
    for (auto& name : plan_projects) out += not_ready(project_resource, name, {"ProjectReady"});
    return out;
  }

  std::vector<faults::scenario_step> steps() {
    return {create_step("create", {project_order("team"), project_order("ops")}, [this] { return all_ready(); }),
            {"change", [this] { patch(project_gvk, "team", R"({"spec":{"projectName":"team"}})"); },
             [this] {
               auto o = get(project_resource, "team");
               return o.generation() == 2 && ready(o) ? "" : "team(generation 2 not observed) " + all_ready();
             }},
            {"delete", [this] { remove(project_gvk, "ops"); }, [this] { return not_gone(project_resource, "ops"); }}};
  }

  std::vector<std::string> order_names() const { return plan_projects; }

  std::string order_state(const std::string& name) const {
    auto o = get(project_resource, name);
    const bool in_keystone = keystone->project(name) && o &&
                             o.get_string({"status", "projectID"}) == keystone->id("projects", name);
    return fmt::format("exists={} ready={} generation={} {}keystone={} in-keystone={}", static_cast<bool>(o),
                       o && ready(o), o ? o.generation() : 0, korc_children(project_label, name, {"projects"}),
                       keystone->project(name), in_keystone);
  }

  void expect_reference() const {
    BOOST_TEST(order_state("team") == "exists=true ready=true generation=2 projects=1 keystone=true in-keystone=true");
    BOOST_TEST(order_state("ops") == "exists=false ready=false generation=0 projects=0 keystone=false in-keystone=false");
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans_keystoneproject)

BOOST_AUTO_TEST_CASE(every_chosen_plan_ends_as_the_reference_run) {
  faults::every_chosen_plan_ends_as_the_reference_run<keystoneproject_scenario>(3, project_resource);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
