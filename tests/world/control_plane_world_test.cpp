// The ControlPlane stand-in: the admin password cloud Secret, the Domain import
// and AdminCredentialReady.
#include "sim/world/clouds_yaml.hpp"
#include "sim/world/control_plane_world.hpp"

#include "fixtures.hpp"

#include <fmt/format.h>

using namespace c5c3::sim::world;
using namespace c5c3::sim::world::test;
namespace k8s = c5c3::k8s;

namespace {

k8s::object control_plane(std::string_view keystone = R"({"mode":"Managed"})") {
  return obj(fmt::format(R"({{"apiVersion":"c5c3.io/v1alpha1","kind":"ControlPlane",
    "metadata":{{"name":"cp","namespace":"openstack","uid":"cp-uid","generation":3}},
    "spec":{{"region":"RegionTwo","services":{{"keystone":{}}},
      "korc":{{"adminCredential":{{"domainName":"Ops","userName":"root","projectName":"ops",
        "cloudCredentialsRef":{{"secretName":"k-orc-clouds-yaml","cloudName":"boss"}}}}}}}}}})",
                         keystone));
}

k8s::object with_write(const control_plane_plan& p, std::string_view kind) {
  for (const auto& w : p.writes)
    if (w.obj.kind() == kind) return w.obj;
  return {};
}

}  // namespace

BOOST_AUTO_TEST_CASE(admin_cloud_domain_import_and_condition) {
  control_plane_snapshot s{control_plane(), {}, {}, {"the-password", ""}, t0()};
  auto plan = reconcile_control_plane(s);
  BOOST_TEST_REQUIRE(plan.writes.size() == 3u);
  auto secret = with_write(plan, "Secret");
  BOOST_TEST(secret.name() == "cp-admin-password-cloud");
  BOOST_TEST(secret.controller_reference()->uid == "cp-uid");
  auto cloud = parse_clouds_yaml(data_value(secret, "clouds.yaml"), "boss");
  BOOST_TEST_REQUIRE(cloud.ok());
  BOOST_TEST(cloud->auth_url == "http://cp-keystone.openstack.svc:5000/v3");
  BOOST_TEST(cloud->username == "root");
  BOOST_TEST(cloud->password == "the-password");
  BOOST_TEST(cloud->project_name == "ops");
  BOOST_TEST(cloud->user_domain_name == "Ops");
  BOOST_TEST(cloud->project_domain_name == "Ops");
  BOOST_TEST(cloud->region_name == "RegionTwo");
  BOOST_TEST(cloud->endpoint_type == "internal");
  auto domain = with_write(plan, "Domain");
  BOOST_TEST(domain.name() == "cp-domain-default");
  BOOST_TEST(domain.get_string({"spec", "managementPolicy"}) == "unmanaged");
  BOOST_TEST(domain.get_string({"spec", "import", "filter", "name"}) == "Ops");
  BOOST_TEST(domain.get_string({"spec", "cloudCredentialsRef", "secretName"}) == "cp-admin-password-cloud");
  BOOST_TEST(domain.get_string({"spec", "cloudCredentialsRef", "cloudName"}) == "boss");
  auto cp = with_write(plan, "ControlPlane");
  auto c = cp.find_condition("AdminCredentialReady");
  BOOST_TEST_REQUIRE(c.has_value());
  BOOST_TEST(c->status == "False");
  BOOST_TEST(c->reason == "WaitingForKORC");
  BOOST_TEST(c->observed_generation == 3);

  // Once the import is Available: True, and nothing else is written.
  auto available = domain.edit();
  k8s::set_condition(available, {"Available", "True", "Success", "OpenStack resource is available", "", 1}, t0());
  s = {cp, secret, std::move(available).freeze(), {"the-password", ""}, t0()};
  plan = reconcile_control_plane(s);
  BOOST_TEST_REQUIRE(plan.writes.size() == 1u);
  c = plan.writes[0].obj.find_condition("AdminCredentialReady");
  BOOST_TEST(c->status == "True");
  BOOST_TEST(c->reason == "AdminCredentialReady");
  s.control_plane = plan.writes[0].obj;
  BOOST_TEST(reconcile_control_plane(s).writes.empty());
  // A new admin password reaches the Secret, which keeps K-ORC's guards.
  auto guarded = s.admin_cloud.edit();
  guarded.add_finalizer("openstack.k-orc.cloud/user");
  s.admin_cloud = std::move(guarded).freeze();
  s.admin.password = "rotated";
  plan = reconcile_control_plane(s);
  BOOST_TEST_REQUIRE(plan.writes.size() == 1u);
  BOOST_TEST((plan.writes[0].verb == write_verb::update));
  BOOST_TEST(plan.writes[0].obj.has_finalizer("openstack.k-orc.cloud/user"));
  BOOST_TEST(parse_clouds_yaml(data_value(plan.writes[0].obj, "clouds.yaml"), "boss")->password == "rotated");
}

BOOST_AUTO_TEST_CASE(external_keystone_and_a_real_one) {
  auto external = control_plane(R"({"mode":"External","external":{"authURL":"https://ks.example/v3","endpointType":"public"}})");
  auto plan = reconcile_control_plane({external, {}, {}, {"p", ""}, t0()});
  auto cloud = parse_clouds_yaml(data_value(with_write(plan, "Secret"), "clouds.yaml"), "boss");
  BOOST_TEST(cloud->auth_url == "https://ks.example/v3");
  BOOST_TEST(cloud->endpoint_type == "public");
  // The world's real Keystone wins: the admin cloud points at it.
  plan = reconcile_control_plane({external, {}, {}, {"p", "http://127.0.0.1:5999/v3"}, t0()});
  cloud = parse_clouds_yaml(data_value(with_write(plan, "Secret"), "clouds.yaml"), "boss");
  BOOST_TEST(cloud->auth_url == "http://127.0.0.1:5999/v3");
  // A deleted ControlPlane: nothing (its children go with it).
  auto gone = external.edit();
  gone.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
  BOOST_TEST(reconcile_control_plane({std::move(gone).freeze(), {}, {}, {"p", ""}, t0()}).writes.empty());
}
