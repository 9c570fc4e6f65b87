// Generated perturbation plans for the KeystoneCatalogEntry order (issue
// 18), on the shared runner (plan_runner.hpp, keystone_scenario.hpp). The
// ControlPlane consents to catalog entries from tenant-a; the scenario: two
// entries (dns: public and internal endpoints; metric: both too) created and
// converged; dns changed (its internal row dropped); metric deleted.
// Oracle: the end state equals the reference's (dns Ready for its generation
// with one Service, one Region import and one Endpoint, the probe gone, and
// Keystone's catalog showing its public endpoint only; metric gone with its
// children and its Keystone service) and so do the operator's successful
// creates and deletes per kind (one probe per entry, no second Service).
//
// C5C3_FAULT_PLANS picks the plans (plan_runner.hpp); the default is what CI
// runs.
#include "tests/faults/keystone_scenario.hpp"

namespace c5c3::testing {
namespace {

const std::string catalog_resource = "keystonecatalogentries.c5c3.io";
const std::string catalog_label = "c5c3.io/keystonecatalogentry-name";
const k8s::gvk catalog_gvk{"c5c3.io", "v1alpha1", "KeystoneCatalogEntry"};
const std::map<std::string, std::string> services{{"dns", "designate"}, {"metric", "gnocchi"}};

struct keystonecatalogentry_scenario : faults::keystone_scenario {
  explicit keystonecatalogentry_scenario(bool start) : keystone_scenario(start) {
    auto r = world->merge_patch(k8s::gvk{"c5c3.io", "v1alpha1", "ControlPlane"}, "openstack", "cp", consent_everywhere);
    BOOST_TEST_REQUIRE(r.ok(), (r.ok() ? "" : r.error().describe()));
  }

  std::string all_ready() const {
    return not_ready(catalog_resource, "dns", {"CatalogReady"}) + not_ready(catalog_resource, "metric", {"CatalogReady"});
  }

  std::vector<faults::scenario_step> steps() {
    return {create_step("create", {catalog_order("dns", "designate", true), catalog_order("metric", "gnocchi", true)},
                        [this] { return all_ready(); }),
            {"change",
             [this] {
               patch(catalog_gvk, "dns", R"({"spec":{"endpoints":[{"interface":"public","url":"https://dns.example.test/v2"}]}})");
             },
             [this] {
               auto o = get(catalog_resource, "dns");
               return o.generation() == 2 && ready(o) && labelled("endpoints.openstack.k-orc.cloud", catalog_label, "dns") == 1u
                          ? ""
                          : "dns(generation 2 not converged) " + all_ready();
             }},
            {"delete", [this] { remove(catalog_gvk, "metric"); }, [this] { return not_gone(catalog_resource, "metric"); }}};
  }

  std::vector<std::string> order_names() const { return {"dns", "metric"}; }

  std::string order_state(const std::string& name) const {
    auto o = get(catalog_resource, name);
    std::string endpoints;
    for (const auto& e : keystone->endpoints(services.at(name))) endpoints += e + " ";
    return fmt::format("exists={} ready={} generation={} {}service={} endpoints=[{}]", static_cast<bool>(o),
                       o && ready(o), o ? o.generation() : 0,
                       korc_children(catalog_label, name, {"services", "regions", "endpoints"}),
                       keystone->service(services.at(name), "dns"), endpoints);
  }

  void expect_reference() const {
    BOOST_TEST(order_state("dns") == "exists=true ready=true generation=2 services=1 regions=1 endpoints=1 service=true "
                                     "endpoints=[public|https://dns.example.test/v2 ]");
    BOOST_TEST(order_state("metric") ==
               "exists=false ready=false generation=0 services=0 regions=0 endpoints=0 service=false endpoints=[]");
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fault_plans_keystonecatalogentry)

BOOST_AUTO_TEST_CASE(every_chosen_plan_ends_as_the_reference_run) {
  faults::every_chosen_plan_ends_as_the_reference_run<keystonecatalogentry_scenario>(3, catalog_resource);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
