// The grafana group's CRD bootstrap (crd_bootstrap.hpp) against the
// in-process emulator: absent CRDs are created and Established; a CRD with an
// old schema is updated in place keeping the user's label; a CRD that never
// becomes Established (the emulator's hold annotation) fails after the limit
// with an error naming it; a CRD whose names are not accepted fails at once.
#include "actors/monitoring/crd_bootstrap.hpp"
#include "tests/monitoring/monitoring_fixture.hpp"
#include "tests/monitoring/snapshot.hpp"

namespace c5c3::testing::mon {

using namespace ::c5c3::monitoring;

namespace {

fixture_options no_crds() { return fixture_options{}; }

const char* const old_dashboards = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: grafanadashboards.openviz.dev
  labels: {team: observability}
ANNOTATIONS
spec:
  group: openviz.dev
  names: {kind: GrafanaDashboard, listKind: GrafanaDashboardList, plural: grafanadashboards, singular: grafanadashboard}
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
)";

std::string old_crd(const std::string& annotations = "") {
  std::string s = old_dashboards;
  s.replace(s.find("ANNOTATIONS\n"), 12, annotations.empty() ? "" : "  annotations: {" + annotations + "}\n");
  return s;
}

std::string ensure(mon_fixture& f, crd_bootstrap_options o) {
  o.clusters = f.directory;
  auto boot = spawn_crd_bootstrap(f.sys, std::move(o));
  caf::scoped_actor self{f.sys};
  std::string out = "no answer";
  self->request(boot, std::chrono::seconds(120), ensure_crds_atom::value)
      .receive([&](std::string& e) { out = std::move(e); }, [&](caf::error& e) { out = f.sys.render(e); });
  caf::anon_send_exit(boot, caf::exit_reason::user_shutdown);
  return out;
}

crd_bootstrap_options fast() {
  crd_bootstrap_options o;
  o.poll = std::chrono::milliseconds(20);
  o.limit = std::chrono::milliseconds(2000);
  return o;
}

// spec.versions[0].schema (null: none).
const k8s::json_value* first_schema(const k8s::object& crd) {
  const auto* vs = crd.get({"spec", "versions"});
  if (!vs || !vs->IsArray() || vs->Empty() || !(*vs)[0].IsObject()) return nullptr;
  auto it = (*vs)[0].FindMember("schema");
  return it == (*vs)[0].MemberEnd() ? nullptr : &it->value;
}

bool established(const k8s::object& crd) { return crd && check_crd(crd).state == crd_state::established; }

}  // namespace

BOOST_AUTO_TEST_SUITE(crd_bootstrap_integration)

BOOST_AUTO_TEST_CASE(absent_crds_are_created_and_established) {
  mon_fixture f(no_crds());
  const char* names[] = {"grafanadashboards.openviz.dev", "grafanadatasources.openviz.dev",
                         "appbindings.appcatalog.appscode.com"};
  for (const auto* n : names) BOOST_TEST_REQUIRE(!f.get("customresourcedefinitions.apiextensions.k8s.io", "", n));
  BOOST_TEST(ensure(f, fast()) == "");
  for (const auto* n : names) BOOST_TEST(established(f.get("customresourcedefinitions.apiextensions.k8s.io", "", n)), n);
  // A second run finds them and changes nothing but what the update rewrites.
  BOOST_TEST(ensure(f, fast()) == "");
}

BOOST_AUTO_TEST_CASE(a_crd_with_an_old_schema_is_updated_keeping_the_users_label) {
  mon_fixture f(no_crds());
  f.create(old_crd());
  BOOST_TEST(ensure(f, fast()) == "");
  auto live = f.get("customresourcedefinitions.apiextensions.k8s.io", "", "grafanadashboards.openviz.dev");
  BOOST_TEST_REQUIRE(static_cast<bool>(live));
  BOOST_TEST(live.label("team").value_or("") == "observability");
  const auto crds = grafana_crds();
  BOOST_TEST_REQUIRE(!crds.empty());
  const auto& wanted = crds.front();
  BOOST_TEST_REQUIRE(wanted.name() == "grafanadashboards.openviz.dev");
  BOOST_TEST(same_json(first_schema(live), k8s::to_json(*first_schema(wanted))));
  BOOST_TEST(established(live));
}

BOOST_AUTO_TEST_CASE(a_crd_never_established_fails_after_the_limit_naming_it) {
  mon_fixture f(no_crds());
  // The emulator holds Established=False (Installing) for this CRD; the
  // bootstrap keeps the user's annotation, so its update holds it too.
  f.create(old_crd("sim.c5c3.io/hold-established: 'true'"));
  auto o = fast();
  o.limit = std::chrono::milliseconds(300);
  const auto error = ensure(f, o);
  BOOST_TEST(error ==
             "CustomResourceDefinition grafanadashboards.openviz.dev (Established=False (Installing): held by "
             "sim.c5c3.io/hold-established) is not Established after 300 ms");
  // The others were written and are Established.
  BOOST_TEST(established(f.get("customresourcedefinitions.apiextensions.k8s.io", "", "grafanadatasources.openviz.dev")));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing::mon
