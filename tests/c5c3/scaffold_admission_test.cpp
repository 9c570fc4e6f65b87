// orderAdmission, orderAdminCredentialGate and orderControlPlanePredicate
// (keystone-orders-reconcilers.txt "The shared scaffold"; apis.md 1.1).
#include "actors/c5c3/scaffold/admission.hpp"
#include "tests/c5c3/snapshots.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;
using namespace std::chrono_literals;

namespace {
orders::order_ref ref(std::string cluster) {
  return vhost::make_order_ref("orders", "tenant-a", cluster);
}
const std::string frozen_tail =
    " (spec.namespaceAssignments); the order is frozen: nothing is provisioned, delivered or repaired, and what was "
    "created stays";
}  // namespace

BOOST_AUTO_TEST_SUITE(scaffold_admission)

BOOST_AUTO_TEST_CASE(order_admission_table) {
  const auto assignments = orders::namespace_assignments_of(control_plane());
  struct row {
    const char* sentence;
    std::string cluster;
    bool present;
    std::vector<orders::namespace_assignment> entries;
    bool admitted;
    std::string reason;
    std::string message;
    orders::requeue requeue;
  };
  const std::string long_name(64, 'c');
  const std::string max_name(63, 'c');
  auto with_max = assignments;
  with_max.push_back({"tenant-a", max_name, {}, false});
  const row rows[] = {
      {"a cluster name over 63 characters reads ClusterNameTooLong with no requeue", long_name, true, assignments,
       false, "ClusterNameTooLong",
       "the order lives on target cluster \"" + long_name +
           "\", whose name exceeds 63 characters and cannot be carried as a label value; nothing is provisioned "
           "for an order on that cluster",
       std::nullopt},
      {"63 characters are carried as a label value", max_name, true, with_max, true, "", "", std::nullopt},
      {"a missing ControlPlane on the management cluster reads ControlPlaneNotFound and comes back after 10 s", "",
       false, {}, false, "ControlPlaneNotFound",
       "ControlPlane openstack/cp not found; the order is deferred until it exists", 10s},
      {"a missing ControlPlane on a target cluster reads NamespaceNotAssigned with the not-assigned message (1 m)",
       "edge-1", false, {}, false, "NamespaceNotAssigned",
       "ControlPlane openstack/cp assigns no namespace \"tenant-a\" on target cluster \"edge-1\"" + frozen_tail, 1min},
      {"a ControlPlane without the entry freezes the order (NamespaceNotAssigned, 1 m)", "edge-2", true, assignments,
       false, "NamespaceNotAssigned",
       "ControlPlane openstack/cp assigns no namespace \"tenant-a\" on target cluster \"edge-2\"" + frozen_tail, 1min},
      {"the freeze on the management cluster names it", "", true, {}, false, "NamespaceNotAssigned",
       "ControlPlane openstack/cp assigns no namespace \"tenant-a\" on the management cluster" + frozen_tail, 1min},
      {"an assigned order on the management cluster is admitted", "", true, assignments, true, "", "", std::nullopt},
      {"an assigned order on a target cluster is admitted", "edge-1", true, assignments, true, "", "", std::nullopt},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      auto o = ref(r.cluster);
      auto got = orders::order_admission({&o, {"openstack", "cp"}, r.present, r.entries});
      BOOST_TEST(got.admitted() == r.admitted);
      BOOST_TEST(got.gate.reason == r.reason);
      BOOST_TEST(got.gate.message == r.message);
      BOOST_TEST((got.gate.requeue == r.requeue));
      BOOST_TEST(got.entry.has_value() == r.admitted);
      if (got.entry) BOOST_TEST(got.entry->target_cluster_name() == r.cluster);
    }
  }
}

BOOST_AUTO_TEST_CASE(control_plane_ref_namespace_defaults_to_the_orders) {
  BOOST_TEST(orders::order_control_plane_key("", "cp", "tenant-a").to_string() == "tenant-a/cp");
  BOOST_TEST(orders::order_control_plane_key("openstack", "cp", "tenant-a").to_string() == "openstack/cp");
}

BOOST_AUTO_TEST_CASE(admin_credential_gate) {
  struct row {
    const char* sentence;
    object cp;
    bool passed;
  };
  const row rows[] = {
      {"AdminCredentialReady True passes", with_condition(control_plane(), "AdminCredentialReady", true), true},
      {"AdminCredentialReady False waits", with_condition(control_plane(), "AdminCredentialReady", false), false},
      {"no AdminCredentialReady waits", control_plane(), false},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) {
      auto g = orders::order_admin_credential_gate(r.cp);
      BOOST_TEST(g.passed == r.passed);
      if (!r.passed) {
        BOOST_TEST(g.reason == "WaitingForAdminCredential");
        BOOST_TEST(g.message ==
                   "ControlPlane openstack/cp reports AdminCredentialReady is not True; the order is deferred");
        BOOST_TEST((g.requeue == orders::requeue(10s)));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(order_control_plane_predicate_table) {
  auto base = with_condition(control_plane(), "AdminCredentialReady", true);
  auto bumped = [&] {
    auto b = base.edit();
    b.set_int({"metadata", "generation"}, 2);
    return std::move(b).freeze();
  }();
  auto other_status = with_condition(base, "KeystoneReady", false);
  struct row {
    const char* sentence;
    object old_cp, new_cp;
    bool passes;
  };
  const row rows[] = {
      {"a spec change moves the generation", base, bumped, true},
      {"a deletion passes", base, terminating(base), true},
      {"a flip of AdminCredentialReady passes", base, with_condition(base, "AdminCredentialReady", false), true},
      {"any other status write is filtered out", base, other_status, false},
  };
  for (auto& r : rows) {
    BOOST_TEST_CONTEXT(r.sentence) { BOOST_TEST(orders::order_control_plane_predicate(r.old_cp, r.new_cp) == r.passes); }
  }
}

BOOST_AUTO_TEST_SUITE_END()
