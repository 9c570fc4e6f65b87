// The CRD bootstrap's pure parts (apis-monitoring.md 1.5): the embedded
// CRDs are deploy/crds' files, kmodules' readiness check row by row, and the
// in-place update that keeps a user's labels and annotations and replaces spec.
#include "actors/monitoring/crd_bootstrap.hpp"
#include "tests/monitoring/snapshot.hpp"

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace c5c3::testing::mon {

using namespace ::c5c3::monitoring;

namespace {

k8s::object crd_with(const std::string& conditions) {
  return yaml("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: x.openviz.dev}\n"
              "status:\n  conditions: " + conditions + "\n");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(crd_bootstrap)

BOOST_AUTO_TEST_CASE(the_embedded_crds_are_deploy_crds_files) {
  std::string error;
  auto crds = grafana_crds(&error);
  BOOST_TEST_REQUIRE(crds.size() == 3u, error);
  BOOST_TEST(crds[0].name() == "grafanadashboards.openviz.dev");
  BOOST_TEST(crds[1].name() == "grafanadatasources.openviz.dev");
  BOOST_TEST(crds[2].name() == "appbindings.appcatalog.appscode.com");
  for (const auto& c : crds) BOOST_TEST(c.kind() == "CustomResourceDefinition");
  const char* src = std::getenv("C5C3_SOURCE_DIR");
  BOOST_TEST_REQUIRE(src, "C5C3_SOURCE_DIR must name the source tree");
  for (const auto& m : grafana_crd_manifests()) {
    std::ifstream in(std::string(src) + "/deploy/crds/" + std::string(m.file));
    BOOST_TEST_REQUIRE(static_cast<bool>(in), m.file);
    std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    BOOST_TEST((text == m.text), std::string(m.file) + " differs from the embedded text");
  }
}

BOOST_AUTO_TEST_CASE(readiness_is_kmodules_check) {
  struct row {
    const char* name;
    k8s::object crd;
    crd_state state;
    std::string detail;
  };
  const std::vector<row> rows = {
      {"missing", k8s::object{}, crd_state::missing, "not found"},
      {"no conditions yet", crd_with("[]"), crd_state::pending, "no Established condition yet"},
      {"established", crd_with("[{type: NamesAccepted, status: 'True'}, {type: Established, status: 'True'}]"),
       crd_state::established, ""},
      {"installing", crd_with("[{type: Established, status: 'False', reason: Installing}]"), crd_state::pending,
       "Established=False (Installing)"},
      {"unknown", crd_with("[{type: Established, status: Unknown}]"), crd_state::pending, "Established=Unknown"},
      {"names not accepted",
       crd_with("[{type: NamesAccepted, status: 'False', reason: NameConflict, message: 'plural is taken'}, "
                "{type: Established, status: 'False', reason: NotAccepted}]"),
       crd_state::failed, "NamesAccepted=False (NameConflict): plural is taken"},
      {"not established for another reason", crd_with("[{type: Established, status: 'False', reason: NotAccepted}]"),
       crd_state::failed, "Established=False (NotAccepted)"},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      auto c = check_crd(r.crd);
      BOOST_TEST((c.state == r.state));
      BOOST_TEST(c.detail == r.detail);
    }
  }
}

BOOST_AUTO_TEST_CASE(an_update_keeps_the_users_metadata_and_replaces_spec) {
  auto live = yaml(R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: x.openviz.dev
  resourceVersion: "42"
  uid: u-1
  labels: {team: obs, app.kubernetes.io/name: old}
  annotations: {note: keep}
spec:
  group: openviz.dev
  names: {kind: X, plural: xs}
  scope: Namespaced
  versions: [{name: v1alpha1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
  conversion: {strategy: None}
)");
  auto wanted = yaml(R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: x.openviz.dev
  labels: {app.kubernetes.io/name: grafana-tools}
  annotations: {controller-gen.kubebuilder.io/version: v0.16.0}
spec:
  group: openviz.dev
  names: {kind: X, plural: xs}
  scope: Namespaced
  versions: [{name: v1alpha1, served: true, storage: true, subresources: {status: {}}, schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object}}}}}]
)");
  auto u = crd_update(live, wanted);
  BOOST_TEST(u.resource_version() == "42");
  BOOST_TEST(u.uid() == "u-1");
  BOOST_TEST((u.labels() == std::map<std::string, std::string>{{"team", "obs"}, {"app.kubernetes.io/name", "grafana-tools"}}));
  BOOST_TEST((u.annotations() ==
              std::map<std::string, std::string>{{"note", "keep"}, {"controller-gen.kubebuilder.io/version", "v0.16.0"}}));
  BOOST_TEST(same_json(u.get({"spec"}), k8s::to_json(*wanted.get({"spec"}))));
  BOOST_TEST(!u.get({"spec", "conversion"}), "spec is replaced, not merged");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing::mon
