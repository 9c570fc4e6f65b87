// The KeystoneProject (keystone-orders-reconcilers.txt "Project
// provisioning" 1-5, "Deletion and Teardown"; apis.md 1.5): reserved names
// folded, the probe, the managed Project in the admin domain, transport
// errors cleared, ProjectFailed / WaitingForProject, the status fields, the
// holds and the sweep; and a pass loop against the pure world stand-in.
#include "actors/c5c3/keystoneproject/pass.hpp"
#include "actors/c5c3/keystoneproject/provision.hpp"
#include "actors/c5c3/korc/children.hpp"
#include "actors/c5c3/korc/unlatch.hpp"
#include "tests/c5c3/keystone_converge.hpp"

#include <boost/test/unit_test.hpp>

#include <fmt/format.h>

using namespace c5c3::test;
using namespace std::chrono_literals;
namespace kp = c5c3::c5c3::keystoneproject;
namespace korc = c5c3::c5c3::korc;

namespace {

struct project_fixture {
  object order = keystone_project_object();
  object cp = keystone_control_plane();
  kp::project_order o = kp::make_project_order(order, "");
  kp::project_names n{o.id.ref};
  std::vector<object> projects;
  std::vector<c5c3::runtime::write_failure> failures;

  object korc_project(std::string_view name) const {
    auto creds = korc::admin_password_cloud(cp);
    auto obj = name == n.probe() ? korc::unmanaged_import("Project", name, "openstack", o.project_name,
                                                          "cp-domain-default", creds)
                                 : korc::managed_project(name, "openstack", o.project_name, "cp-domain-default", creds);
    return labelled(obj, o.id.ref);
  }
  kp::provision_plan provision() const {
    return kp::provision_project({&o, &cp, true, projects, {}, failures, t0()});
  }
  void name(std::string_view project_name) {
    order = keystone_project_object(
        "team",
        fmt::format(R"({{"controlPlaneRef":{{"name":"cp","namespace":"openstack"}},"projectName":"{}"}})", project_name));
    o = kp::make_project_order(order, "");
  }
};

void expect(const k8s::condition& c, bool status, std::string_view reason) {
  BOOST_TEST(c.is_true() == status);
  BOOST_TEST(c.reason == reason, c.reason << ": " << c.message);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(keystoneproject_provision)

// 1. A name that folds to the admin project or a service project.
BOOST_FIXTURE_TEST_CASE(reserved_names, project_fixture) {
  for (auto reserved : {"admin", "Admin", "service-nová", "SERVICE-GLANCE"}) {
    BOOST_TEST_CONTEXT(reserved) {
      name(reserved);
      auto p = provision();
      expect(p.project_ready, false, "ProjectCollision");
      BOOST_TEST(p.project_ready.message.find("reserves for its admin project") != std::string::npos);
      BOOST_TEST(p.writes.empty());
      BOOST_TEST(!p.requeue);
    }
  }
}

// 2. The probe: pending, a collision (left untouched), free.
BOOST_FIXTURE_TEST_CASE(the_probe, project_fixture) {
  auto p = provision();
  expect(p.project_ready, false, "ProbingForCollision");
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"create Project openstack/" + n.probe()}));
  BOOST_TEST(p.writes[0].body.get_string({"spec", "import", "filter", "name"}) == "team");
  BOOST_TEST(p.writes[0].body.get_string({"spec", "import", "filter", "domainRef"}) == "cp-domain-default");

  projects = {korc_available(korc_project(n.probe()), "existing-id")};
  p = provision();
  expect(p.project_ready, false, "ProjectCollision");
  BOOST_TEST(p.project_ready.message.find("already exists") != std::string::npos);
  BOOST_TEST(p.writes.empty());

  projects = {korc_created_externally(korc_project(n.probe()))};
  p = provision();
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"create Project openstack/" + n.project(),
                                                               "delete Project openstack/" + n.probe()}));
  const auto& m = p.writes[0].body;
  BOOST_TEST(m.get_string({"spec", "managementPolicy"}) == "managed");
  BOOST_TEST(m.get_string({"spec", "resource", "name"}) == "team");
  BOOST_TEST(m.get_string({"spec", "resource", "domainRef"}) == "cp-domain-default");
  BOOST_TEST(m.get_string({"spec", "cloudCredentialsRef", "secretName"}) == "cp-admin-password-cloud");
  expect(p.project_ready, false, "WaitingForProject");
}

// A restart after the first write of the free-name plan (the Project
// created, the probe not yet deleted) makes no second probe and drops the
// probe (the fault plans' crash after the probe's delete, when it went
// first, met neither and probed again).
BOOST_FIXTURE_TEST_CASE(a_restart_inside_the_free_name_plan_makes_no_second_probe, project_fixture) {
  projects = {korc_created_externally(korc_project(n.probe()))};
  const auto first = provision();
  BOOST_REQUIRE(first.writes.size() == 2u);
  projects.push_back(korc_pending(korc_project(n.project())));  // the first write landed
  auto p = provision();
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"delete Project openstack/" + n.probe()}));
}

// 3-5. The managed Project's outcomes.
BOOST_FIXTURE_TEST_CASE(outcomes, project_fixture) {
  auto managed = korc_project(n.project());
  projects = {korc_pending(managed)};
  auto p = provision();
  expect(p.project_ready, false, "WaitingForProject");
  BOOST_TEST((*p.requeue == 10s));
  // A probe left by a restart between the Project's create and the probe's
  // delete goes on the owned path.
  projects = {korc_pending(managed), korc_pending(korc_project(n.probe()))};
  BOOST_TEST((describe(provision().writes) == std::vector<std::string>{"delete Project openstack/" + n.probe()}));

  projects = {korc_terminal(managed, "InvalidConfiguration", "the name is too long")};
  p = provision();
  expect(p.project_ready, false, "ProjectFailed");
  BOOST_TEST(p.project_ready.message ==
             "K-ORC reported a terminal error on Project openstack/" + n.project() + ": the name is too long");

  projects = {with_uid(korc_terminal(managed, "InvalidConfiguration", "dial tcp: i/o timeout"), "uid-p")};
  p = provision();
  expect(p.project_ready, false, "WaitingForProject");
  BOOST_TEST(p.writes.size() == 2u);
  BOOST_TEST(p.writes[0].subresource == "status");
  failures = {{c5c3::runtime::write_cluster::management, "Project", "openstack", n.project(), "status",
               c5c3::protocol::api_errc::forbidden, "projects/status is forbidden"}};
  p = provision();
  expect(p.project_ready, false, "TransportErrorRetryFailed");
  failures = {};

  projects = {korc_available(managed, "proj-id")};
  p = provision();
  expect(p.project_ready, true, "ProjectProvisioned");
  BOOST_TEST(p.project_ready.message.find("project \"team\" is provisioned in domain \"Default\"") != std::string::npos);
  BOOST_TEST(p.status.project_id == "proj-id");
  BOOST_TEST(p.status.project_name == "team");
  BOOST_TEST(p.status.domain_name == "Default");
  BOOST_TEST(p.writes.empty());
  // An Available of an older generation is still pending.
  auto stale = korc_available(managed, "proj-id");
  auto b = stale.edit();
  b.set_int({"metadata", "generation"}, 2);
  projects = {std::move(b).freeze()};
  expect(provision().project_ready, false, "WaitingForProject");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(keystoneproject_pass)

korc::order_pass_plan plan(keystone_world& w, const object& order, const object* cp) {
  kp::pass_snapshot s;
  s.order = &order;
  s.control_plane = cp;
  s.projects = w.labelled("Project", "openstack", "c5c3.io/keystoneproject-name");
  s.role_assignments = w.of_kind("KeystoneRoleAssignment", "tenant-a");
  s.application_credentials = w.of_kind("KeystoneApplicationCredential", "tenant-a");
  s.now = t0();
  return kp::plan_pass(s);
}

std::string reason(const object& o, std::string_view type) {
  auto c = o.find_condition(type);
  return c ? c->reason : "";
}

BOOST_AUTO_TEST_CASE(converges_holds_and_tears_down) {
  keystone_world w;
  auto cp = keystone_control_plane();
  object order = keystone_project_object("team", "", "{}", false);
  auto run = [&](int max_passes) {
    return drive(w, order, kp::finalizer, [&](const object& o) { return plan(w, o, &cp); }, max_passes);
  };
  BOOST_TEST_REQUIRE(run(20) > 0);
  BOOST_TEST(reason(order, "Ready") == "AllReady");
  BOOST_TEST(reason(order, "ProjectReady") == "ProjectProvisioned");
  auto st = kp::read_status(order);
  BOOST_TEST(st.project_id == "id-team");
  BOOST_TEST(st.project_name == "team");
  BOOST_TEST(st.domain_name == "Default");
  BOOST_TEST(st.observed_generation == 1);
  auto quiet = plan(w, order, &cp);
  BOOST_TEST((quiet.writes.empty() && !quiet.status && !quiet.requeue));

  // Held by a credential order naming it, then swept.
  w.put(application_credential("ac-1", "alice", "team"));
  order = terminating(order);
  run(3);
  BOOST_TEST(reason(order, "ProjectReady") == "ReferencedByApplicationCredentials");
  BOOST_TEST(w.labelled("Project", "openstack", "c5c3.io/keystoneproject-name").size() == 1u);
  w.objects.erase({"KeystoneApplicationCredential", "tenant-a", "ac-1"});
  run(5);
  BOOST_TEST(!order.has_finalizer(kp::finalizer));
  BOOST_TEST(w.labelled("Project", "openstack", "c5c3.io/keystoneproject-name").empty());
}

// A project Keystone already holds (made outside the order): ProjectCollision,
// no managed Project.
BOOST_AUTO_TEST_CASE(an_existing_project_is_left_alone) {
  keystone_world w;
  w.keystone_projects.insert("team");
  auto cp = keystone_control_plane();
  object order = keystone_project_object();
  drive(w, order, kp::finalizer, [&](const object& o) { return plan(w, o, &cp); }, 5);
  BOOST_TEST(reason(order, "ProjectReady") == "ProjectCollision");
  BOOST_TEST(!w.get("Project", "openstack", kp::project_names(kp::make_project_order(order, "").id.ref).project()));
}

// The sweep: the managed Project, then the probe.
BOOST_AUTO_TEST_CASE(sweep_order) {
  auto order = keystone_project_object();
  auto o = kp::make_project_order(order, "");
  kp::project_names n(o.id.ref);
  auto mk = [&](const std::string& name) {
    return labelled(make_object("openstack.k-orc.cloud/v1alpha1", "Project", "openstack", name), o.id.ref);
  };
  auto swept = kp::sweep_keystone_project_children(o, {mk(n.probe()), mk(n.project())});
  BOOST_TEST((describe(swept.writes) == std::vector<std::string>{"delete Project openstack/" + n.project(),
                                                                   "delete Project openstack/" + n.probe()}));
}

BOOST_AUTO_TEST_SUITE_END()
