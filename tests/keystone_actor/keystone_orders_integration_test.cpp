// KeystoneRoleAssignment and KeystoneCatalogEntry hosts with the user and
// project hosts, against the emulator and the simulated K-ORC with its
// in-memory Keystone (keystone_fixture.hpp): an assignment made before its user and project is
// woken by their changes (the reference watches, not the 10-minute refresh)
// and binds them; a role off the allowlist writes nothing; the user's hold
// while the assignment exists; the duplicate rule and the younger order taking
// over once the older goes; the assignment's hold while a credential order
// has its user and project; one user change waking exactly its own
// assignments out of 100; a catalog entry refused without consent and
// admitted by the ControlPlane's edit, its endpoints, a dropped row, a
// collision and the teardown that keeps the Region; the order samples of
// deploy/samples/orders (user, project, assignment, catalog entry) Ready.
#include "actors/c5c3/controlplane/messages.hpp"
#include "actors/c5c3/keystonecatalogentry/spec.hpp"
#include "actors/c5c3/keystoneroleassignment/spec.hpp"
#include "k8s/yaml.hpp"
#include "tests/keystone_actor/keystone_fixture.hpp"
#include "tests/require_eventually.hpp"

#include <cctype>
#include <cstdlib>

namespace c5c3::testing {
namespace {

const std::string assignment_label = "c5c3.io/keystoneroleassignment-name";
const std::string catalog_label = "c5c3.io/keystonecatalogentry-name";
const k8s::gvk catalog_gvk{"c5c3.io", "v1alpha1", "KeystoneCatalogEntry"};
const k8s::gvk credential_gvk{"c5c3.io", "v1alpha1", "KeystoneApplicationCredential"};
const k8s::gvk control_plane_gvk{"c5c3.io", "v1alpha1", "ControlPlane"};
const std::string assignments_resource = "keystoneroleassignments.c5c3.io";
const std::string catalog_resource = "keystonecatalogentries.c5c3.io";

struct orders_fixture : keystone_fixture {
  bool ready_order(const std::string& resource, const std::string& name) { return ready(resource, name); }
  std::string message(const std::string& resource, const std::string& name, const std::string& type) const {
    auto c = get(resource, name).find_condition(type);
    return c ? c->message : "";
  }
  std::size_t korc_objects() const {
    std::size_t n = 0;
    for (auto r : {"roles", "roleassignments", "services", "endpoints", "regions", "users", "projects"})
      n += server.list_objects(std::string(r) + ".openstack.k-orc.cloud", "openstack").size();
    return n;
  }
  std::uint64_t passes(const std::string& name) { return keystone_fixture::passes(assignments, name); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(keystone_orders_integration)

BOOST_FIXTURE_TEST_CASE(an_assignment_binds_its_user_and_project_and_holds_the_user, orders_fixture) {
  create(assignment_order("ra-1", "alice", "team"));
  BOOST_TEST_REQUIRE(eventually([&] { return reason(assignments_resource, "ra-1", "AssignmentReady") == "UserNotFound"; }));
  BOOST_TEST(message(assignments_resource, "ra-1", "AssignmentReady").find("KeystoneUser tenant-a/alice not found") !=
             std::string::npos);
  create(user_order("alice"));
  BOOST_TEST_REQUIRE(eventually([&] { return reason(assignments_resource, "ra-1", "AssignmentReady") == "ProjectNotFound"; }));
  create(project_order("team"));
  // The user's and the project's changes wake the assignment (the refusal
  // asked for the 10-minute refresh only).
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return ready(assignments_resource, "ra-1"); }),
                          reason(assignments_resource, "ra-1", "AssignmentReady")
                              << ": " << message(assignments_resource, "ra-1", "AssignmentReady"));
  auto ra = get(assignments_resource, "ra-1");
  BOOST_TEST(ra.get_string({"status", "roleID"}) == keystone->id("roles", "member"));
  BOOST_TEST(ra.get_string({"status", "userID"}) == keystone->id("users", "alice"));
  BOOST_TEST(ra.get_string({"status", "projectID"}) == keystone->id("projects", "team"));
  BOOST_TEST(keystone->assigned("member", "alice", "team"));
  BOOST_TEST(labelled("roleassignments.openstack.k-orc.cloud", assignment_label, "ra-1") == 1u);
  BOOST_TEST(labelled("roles.openstack.k-orc.cloud", assignment_label, "ra-1") == 1u);
  BOOST_TEST(reg.render().find(R"(sub_reconciler="KeystoneRoleAssignmentProvision",condition_type="AssignmentReady",status="True",reason="RoleAssigned")") !=
             std::string::npos);

  BOOST_TEST_CONTEXT("converged: zero API requests") {
    quiet();
    BOOST_TEST(no_requests_for(*operator_requests, 2s));
  }

  BOOST_TEST_CONTEXT("a role off the allowlist is refused and nothing is written") {
    create(assignment_order("ra-admin", "alice", "team", "admin"));
    BOOST_TEST_REQUIRE(eventually([&] { return reason(assignments_resource, "ra-admin", "AssignmentReady") == "RoleNotAllowed"; }));
    BOOST_TEST(message(assignments_resource, "ra-admin", "AssignmentReady") ==
               R"(ControlPlane openstack/cp admits roles ["member"] from namespace "tenant-a" on the management cluster (spec.namespaceAssignments); ["admin"] is not on that list)");
    BOOST_TEST(labelled("roles.openstack.k-orc.cloud", assignment_label, "ra-admin") == 0u);
    BOOST_TEST(labelled("roleassignments.openstack.k-orc.cloud", assignment_label, "ra-admin") == 0u);
    BOOST_TEST(!keystone->assigned("admin", "alice", "team"));
    BOOST_TEST_REQUIRE(world->remove(assignment_gvk, "tenant-a", "ra-admin").ok());
    BOOST_TEST_REQUIRE(eventually([&] { return !get(assignments_resource, "ra-admin"); }));
  }

  BOOST_TEST_CONTEXT("deleting the user holds while the assignment exists; deleting the assignment releases it") {
    BOOST_TEST_REQUIRE(world->remove(user_gvk, "tenant-a", "alice").ok());
    BOOST_TEST_REQUIRE(eventually([&] { return reason("keystoneusers.c5c3.io", "alice", "UserReady") == "ReferencedByRoleAssignments"; }));
    BOOST_TEST(message("keystoneusers.c5c3.io", "alice", "UserReady").find(R"(["ra-1"])") != std::string::npos);
    BOOST_TEST(keystone->user("alice"));
    BOOST_TEST(keystone->assigned("member", "alice", "team"));
    BOOST_TEST_REQUIRE(world->remove(assignment_gvk, "tenant-a", "ra-1").ok());
    BOOST_TEST_REQUIRE(eventually([&] { return !get(assignments_resource, "ra-1"); }));
    BOOST_TEST_REQUIRE(eventually([&] { return !get("keystoneusers.c5c3.io", "alice"); }));
    BOOST_TEST(eventually([&] { return !keystone->user("alice"); }));
    BOOST_TEST_REQUIRE(world->remove(project_gvk, "tenant-a", "team").ok());
    BOOST_TEST_REQUIRE(eventually([&] { return !get("keystoneprojects.c5c3.io", "team"); }));
    C5C3_CHECK_EVENTUALLY(eventually([&] { return korc_objects() == 0u; }), korc_objects() << " K-ORC objects left");
    BOOST_TEST(!keystone->project("team"));
  }
}

BOOST_FIXTURE_TEST_CASE(duplicates_and_the_credential_hold, orders_fixture) {
  create(user_order("alice"));
  create(project_order("team"));
  create(assignment_order("ra-old", "alice", "team"));
  BOOST_TEST_REQUIRE(eventually([&] { return ready(assignments_resource, "ra-old"); }));
  create(assignment_order("ra-young", "alice", "team"));
  BOOST_TEST_REQUIRE(eventually([&] {
    return reason(assignments_resource, "ra-young", "AssignmentReady") == "DuplicateRoleAssignment";
  }));
  BOOST_TEST(message(assignments_resource, "ra-young", "AssignmentReady").find("KeystoneRoleAssignment tenant-a/ra-old (older)") !=
             std::string::npos);
  BOOST_TEST(labelled("roleassignments.openstack.k-orc.cloud", assignment_label, "ra-young") == 0u);

  BOOST_TEST_CONTEXT("a credential order of the same user and project holds the older assignment") {
    create(credential_order("cred", "alice", "team"));
    BOOST_TEST_REQUIRE(world->remove(assignment_gvk, "tenant-a", "ra-old").ok());
    BOOST_TEST_REQUIRE(eventually([&] {
      return reason(assignments_resource, "ra-old", "AssignmentReady") == "ReferencedByApplicationCredentials";
    }));
    BOOST_TEST(message(assignments_resource, "ra-old", "AssignmentReady").find(R"(["cred"])") != std::string::npos);
    BOOST_TEST(keystone->assigned("member", "alice", "team"));
    BOOST_TEST(reason(assignments_resource, "ra-young", "AssignmentReady") == "DuplicateRoleAssignment");
  }

  BOOST_TEST_CONTEXT("the credential order leaving releases it; the younger takes over") {
    BOOST_TEST_REQUIRE(world->remove(credential_gvk, "tenant-a", "cred").ok());
    BOOST_TEST_REQUIRE(eventually([&] { return !get(assignments_resource, "ra-old"); }));
    C5C3_REQUIRE_EVENTUALLY(eventually([&] { return ready(assignments_resource, "ra-young"); }),
                            reason(assignments_resource, "ra-young", "AssignmentReady"));
    BOOST_TEST(labelled("roleassignments.openstack.k-orc.cloud", assignment_label, "ra-old") == 0u);
    BOOST_TEST(eventually([&] { return keystone->assigned("member", "alice", "team"); }));
    BOOST_TEST(probe(assignments).referenced_wakes > 0u);
  }
}

// The peers slot reads the order cache's field index on (user, project,
// role): among assignments of other users of the same project, only the
// order with the same three is a duplicate; the younger takes over when the
// older goes, and the next one is the duplicate of the one that took over.
BOOST_FIXTURE_TEST_CASE(duplicates_through_the_field_index, orders_fixture) {
  create(project_order("team"));
  for (auto u : {"alice", "u-0", "u-1", "u-2"}) create(user_order(u));
  create(assignment_order("ra-old", "alice", "team"));
  BOOST_TEST_REQUIRE(eventually([&] { return ready(assignments_resource, "ra-old"); }));
  for (auto u : {"u-0", "u-1", "u-2"}) create(assignment_order(std::string("ra-") + u, u, "team"));
  create(assignment_order("ra-young", "alice", "team"));
  BOOST_TEST_REQUIRE(eventually([&] {
    return reason(assignments_resource, "ra-young", "AssignmentReady") == "DuplicateRoleAssignment";
  }));
  BOOST_TEST(message(assignments_resource, "ra-young", "AssignmentReady").find("KeystoneRoleAssignment tenant-a/ra-old (older)") !=
             std::string::npos);
  for (auto u : {"u-0", "u-1", "u-2"})
    C5C3_REQUIRE_EVENTUALLY(eventually([&] { return ready(assignments_resource, std::string("ra-") + u); }), u);

  BOOST_TEST_REQUIRE(world->remove(assignment_gvk, "tenant-a", "ra-old").ok());
  BOOST_TEST_REQUIRE(eventually([&] { return !get(assignments_resource, "ra-old"); }));
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return ready(assignments_resource, "ra-young"); }),
                          reason(assignments_resource, "ra-young", "AssignmentReady"));
  // Created within the same second as ra-young (creationTimestamp has seconds), the name decides which
  // is older: "ra-youngest" sorts after "ra-young", so it is the younger either way.
  create(assignment_order("ra-youngest", "alice", "team"));
  C5C3_REQUIRE_EVENTUALLY(eventually([&] {
    return reason(assignments_resource, "ra-youngest", "AssignmentReady") == "DuplicateRoleAssignment";
  }),
                          reason(assignments_resource, "ra-youngest", "AssignmentReady") << ": "
                              << message(assignments_resource, "ra-youngest", "AssignmentReady"));
  BOOST_TEST(message(assignments_resource, "ra-youngest", "AssignmentReady").find("KeystoneRoleAssignment tenant-a/ra-young (older)") !=
             std::string::npos);
  BOOST_TEST(labelled("roleassignments.openstack.k-orc.cloud", assignment_label, "ra-youngest") == 0u);
}

// 100 assignments of ten users who do not exist yet on ten projects (each
// pair once, so none is a duplicate): creating one user passes only the ten
// assignments naming it (the host's reference index).
BOOST_FIXTURE_TEST_CASE(one_user_change_wakes_only_its_own_assignments, orders_fixture) {
  for (int j = 0; j < 10; ++j) create(project_order("p-" + std::to_string(j)));
  for (int i = 0; i < 100; ++i)
    create(assignment_order("ra-" + std::to_string(i), "u-" + std::to_string(i % 10), "p-" + std::to_string(i / 10)));
  BOOST_TEST_REQUIRE(eventually([&] {
    for (int i = 0; i < 100; ++i)
      if (reason(assignments_resource, "ra-" + std::to_string(i), "AssignmentReady") != "UserNotFound") return false;
    return true;
  }));
  quiet();
  std::vector<std::uint64_t> before;
  for (int i = 0; i < 100; ++i) before.push_back(passes("ra-" + std::to_string(i)));
  const auto wakes_before = probe(assignments).referenced_wakes;
  create(user_order("u-7"));
  BOOST_TEST_REQUIRE(eventually([&] {
    for (int i = 7; i < 100; i += 10)
      if (!ready(assignments_resource, "ra-" + std::to_string(i))) return false;
    return true;
  }));
  quiet();
  for (int i = 0; i < 100; ++i) {
    auto now = passes("ra-" + std::to_string(i));
    if (i % 10 == 7)
      BOOST_TEST(now > before[i]);
    else
      BOOST_TEST(now == before[i], "ra-" << i << " passed " << now - before[i] << " more times");
  }
  const auto wakes = probe(assignments).referenced_wakes - wakes_before;
  BOOST_TEST(wakes % 10 == 0u);
  BOOST_TEST_MESSAGE("one user's creation and provisioning woke " << wakes << " assignment passes out of 100 orders");
}

BOOST_FIXTURE_TEST_CASE(a_catalog_entry_from_consent_to_teardown, orders_fixture) {
  create(catalog_order("dns", "designate", true));
  BOOST_TEST_REQUIRE(eventually([&] { return reason(catalog_resource, "dns", "CatalogReady") == "CatalogNotAllowed"; }));
  BOOST_TEST(!get(catalog_resource, "dns").has_finalizer("c5c3.io/keystonecatalogentry-teardown"));
  BOOST_TEST(labelled("services.openstack.k-orc.cloud", catalog_label, "dns") == 0u);

  // The ControlPlane's edit brings the order back (its fan-out), also once
  // its actor is parked: the ControlPlane directory keeps it for its host.
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return probe(catalog).parked == 1u; }),
                          "parked: " << probe(catalog).parked << " of " << probe(catalog).live.size());
  {
    caf::scoped_actor self{sys};
    std::size_t kept = 0;
    self->request(control_planes, 10s, protocol::probe_atom::value)
        .receive([&](c5c3::controlplane::control_plane_directory_probe& p) { kept = p.orders; }, [](caf::error&) {});
    BOOST_TEST(kept >= 1u);  // the parked order, kept for its host
  }
  auto r = world->merge_patch(control_plane_gvk, "openstack", "cp", consent_everywhere);
  BOOST_TEST_REQUIRE(r.ok());
  // Well before the order's own requeue (namespace_assignment_requeue_after, a minute) would:
  // without its host's registration the parked order would wait for that.
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return ready(catalog_resource, "dns"); }, 30),
                          reason(catalog_resource, "dns", "CatalogReady") << ": " << message(catalog_resource, "dns", "CatalogReady"));
  auto entry = get(catalog_resource, "dns");
  auto status = c5c3::keystonecatalogentry::read_status(entry);
  BOOST_TEST(status.service_name == "designate");
  BOOST_TEST(!status.service_id.empty());
  BOOST_REQUIRE(status.endpoints.size() == 2u);
  BOOST_TEST(status.endpoints[0].interface == "public");
  BOOST_TEST(status.endpoints[1].interface == "internal");
  BOOST_TEST(keystone->service("designate", "dns"));
  BOOST_TEST(status.service_id == keystone->id("services", "designate"));
  BOOST_TEST((keystone->endpoints("designate") == std::set<std::string>{"internal|http://designate.openstack.svc:9001/v2",
                                                                       "public|https://dns.example.test/v2"}));

  BOOST_TEST_CONTEXT("a dropped row removes exactly that Endpoint") {
    BOOST_TEST_REQUIRE(world->merge_patch(catalog_gvk, "tenant-a", "dns",
                                          R"({"spec":{"endpoints":[{"interface":"public","url":"https://dns.example.test/v2"}]}})")
                           .ok());
    BOOST_TEST_REQUIRE(eventually([&] {
      return ready(catalog_resource, "dns") &&
             c5c3::keystonecatalogentry::read_status(get(catalog_resource, "dns")).endpoints.size() == 1u;
    }));
    BOOST_TEST(labelled("endpoints.openstack.k-orc.cloud", catalog_label, "dns") == 1u);
    BOOST_TEST(eventually([&] {
      return keystone->endpoints("designate") == std::set<std::string>{"public|https://dns.example.test/v2"};
    }));
  }

  BOOST_TEST_CONTEXT("a service Keystone already holds is a collision") {
    keystone->create("services", R"({"service":{"name":"taken","type":"dns"}})");
    create(catalog_order("taken", "taken", false));
    BOOST_TEST_REQUIRE(eventually([&] { return reason(catalog_resource, "taken", "CatalogReady") == "ServiceCollision"; }));
    for (auto& s : server.list_objects("services.openstack.k-orc.cloud", "openstack"))
      if (s.label(catalog_label).value_or("") == "taken") BOOST_TEST(s.get_string({"spec", "managementPolicy"}) == "unmanaged");
  }

  BOOST_TEST_CONTEXT("deletion removes the service and its endpoints and keeps the Region") {
    for (auto name : {"dns", "taken"}) BOOST_TEST_REQUIRE(world->remove(catalog_gvk, "tenant-a", name).ok());
    BOOST_TEST_REQUIRE(eventually([&] { return !get(catalog_resource, "dns") && !get(catalog_resource, "taken"); }));
    for (auto kind : {"services", "endpoints", "regions"})
      BOOST_TEST(server.list_objects(std::string(kind) + ".openstack.k-orc.cloud", "openstack").empty());
    BOOST_TEST(eventually([&] { return !keystone->service("designate", "dns"); }));
    BOOST_TEST(keystone->endpoints("designate").empty());
    BOOST_TEST(keystone->region("RegionOne"));
    BOOST_TEST(keystone->service("taken", "dns"));  // untouched
  }
}

BOOST_FIXTURE_TEST_CASE(the_order_samples_reach_ready, orders_fixture) {
  BOOST_TEST_REQUIRE(world->merge_patch(control_plane_gvk, "openstack", "cp", consent_everywhere).ok());
  const std::string dir = std::string(std::getenv("C5C3_SOURCE_DIR")) + "/deploy/samples/orders/";
  std::vector<std::pair<std::string, std::string>> orders;  // resource, name
  for (auto file : {"10-keystoneuser.yaml", "20-keystoneproject.yaml", "30-keystoneroleassignment.yaml",
                    "40-keystonecatalogentry.yaml"}) {
    std::string error;
    auto docs = k8s::read_yaml_file(dir + file, &error);
    BOOST_TEST_REQUIRE(docs.has_value(), file << ": " << error);
    for (auto& d : *docs) {
      k8s::object o(std::move(d));
      std::string plural = std::string(o.kind()) + "s";
      for (auto& c : plural) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (plural == "keystonecatalogentrys") plural = "keystonecatalogentries";
      orders.emplace_back(plural + ".c5c3.io", std::string(o.name()));
      auto r = world->create(o);
      BOOST_TEST_REQUIRE(r.ok(), file << ": " << (r.ok() ? "" : r.error().describe()));
    }
  }
  for (const auto& order : orders) {
    const auto& [resource, name] = order;
    C5C3_CHECK_EVENTUALLY(eventually([&] { return ready(order.first, order.second); }, 120),
                          resource << " " << name << ": " << get(resource, name).to_json());
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
