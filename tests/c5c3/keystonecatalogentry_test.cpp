// The KeystoneCatalogEntry (keystone-orders-reconcilers.txt "Catalog
// registration", "Deletion and Teardown"; apis.md 1.7): one row per
// behaviour: consent right after admission and before the finalizer, the
// probe filtered on type and name, the Service, the Region import and one
// Endpoint per interface, the order of errors and waits, dropped rows
// deleted on every pass, status.endpoints rebuilt, the sweep; and a pass loop
// against the pure world stand-in.
#include "actors/c5c3/keystonecatalogentry/pass.hpp"
#include "actors/c5c3/korc/unlatch.hpp"
#include "tests/c5c3/keystone_converge.hpp"

#include <boost/test/unit_test.hpp>

#include <fmt/format.h>

#include <functional>

using namespace c5c3::test;
using namespace std::chrono_literals;
namespace kc = c5c3::c5c3::keystonecatalogentry;
namespace korc = c5c3::c5c3::korc;

namespace {

const std::string label = "c5c3.io/keystonecatalogentry-name";
const std::string two_endpoints =
    R"({"controlPlaneRef":{"name":"cp","namespace":"openstack"},"serviceType":"dns","serviceName":"designate",
        "endpoints":[{"interface":"public","url":"https://dns.example.test/v2"},
                     {"interface":"internal","url":"http://designate.openstack.svc:9001/v2"}]})";

struct catalog_fixture {
  keystone_world w;
  object cp = keystone_control_plane();
  std::vector<c5c3::runtime::write_failure> failures;

  korc::order_pass_plan plan(const object& order, const object* control_plane, std::string cluster = "") {
    kc::pass_snapshot s;
    s.order = &order;
    s.cluster = cluster;
    s.control_plane = control_plane;
    s.services = w.labelled("Service", "openstack", label);
    s.regions = w.labelled("Region", "openstack", label);
    s.endpoints = w.labelled("Endpoint", "openstack", label);
    s.failures = failures;
    s.now = t0();
    return kc::plan_pass(s);
  }
  korc::order_pass_plan plan(const object& order) { return plan(order, &cp); }
  // Every write of the plan applied, then K-ORC steps.
  korc::order_pass_plan step(const object& order) {
    auto p = plan(order);
    for (auto& wr : p.writes) w.apply(wr);
    w.controllers_step();
    return p;
  }
};

k8s::condition catalog_ready(const korc::order_pass_plan& p) {
  BOOST_REQUIRE(p.status);
  auto c = p.status->find_condition("CatalogReady");
  BOOST_REQUIRE(c);
  return *c;
}

kc::catalog_names names_of(const object& order) { return kc::catalog_names(kc::make_catalog_order(order, "").id.ref); }

}  // namespace

BOOST_AUTO_TEST_SUITE(keystonecatalogentry_steps)

// allowCatalogEntries right after admission and before the finalizer:
// CatalogNotAllowed, re-read every minute, nothing created.
BOOST_FIXTURE_TEST_CASE(consent_before_the_finalizer, catalog_fixture) {
  auto order = keystone_catalog_entry_object("dns", "", "{}", false);
  auto no_consent = with_assignments(cp, R"([{"namespace":"tenant-a","allowedRoles":["member"]}])");
  auto p = plan(order, &no_consent);
  BOOST_TEST((p.stage == korc::pass_stage::refused_admission));
  BOOST_TEST(!p.add_finalizer);
  BOOST_TEST(p.writes.empty());
  auto c = catalog_ready(p);
  BOOST_TEST(c.reason == "CatalogNotAllowed");
  BOOST_TEST(c.message ==
             R"(ControlPlane openstack/cp assigns namespace "tenant-a" on the management cluster without allowCatalogEntries (spec.namespaceAssignments); the order is frozen: nothing is registered, repaired or swept, and what was created stays)");
  BOOST_TEST((p.requeue == 1min));
  // On edge-1 (no consent there either), and admission still comes first.
  BOOST_TEST(catalog_ready(plan(order, &cp, "edge-1")).reason == "CatalogNotAllowed");
  BOOST_TEST(catalog_ready(plan(order, nullptr)).reason == "ControlPlaneNotFound");
  BOOST_TEST(catalog_ready(plan(order, &cp, "edge-2")).reason == "NamespaceNotAssigned");
  // With consent: the finalizer, then the admin credential.
  BOOST_TEST(plan(order).add_finalizer);
  auto not_ready = keystone_control_plane(false);
  BOOST_TEST(catalog_ready(plan(keystone_catalog_entry_object(), &not_ready)).reason == "WaitingForAdminCredential");
  // An order that had its finalizer and lost consent is frozen too: nothing written.
  auto frozen = plan(keystone_catalog_entry_object(), &no_consent);
  BOOST_TEST(catalog_ready(frozen).reason == "CatalogNotAllowed");
  BOOST_TEST(frozen.writes.empty());
}

// The probe, filtered on type and name: pending, a collision, free.
BOOST_FIXTURE_TEST_CASE(the_probe, catalog_fixture) {
  auto order = keystone_catalog_entry_object();
  auto n = names_of(order);
  auto p = plan(order);
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"create Service openstack/" + n.probe()}));
  BOOST_TEST(p.writes[0].body.get_string({"spec", "import", "filter", "name"}) == "designate");
  BOOST_TEST(p.writes[0].body.get_string({"spec", "import", "filter", "type"}) == "dns");
  BOOST_TEST(catalog_ready(p).reason == "ProbingForCollision");

  w.keystone_services.insert({"designate", "dns"});
  step(order);
  p = step(order);
  auto c = catalog_ready(p);
  BOOST_TEST(c.reason == "ServiceCollision");
  BOOST_TEST(c.message.find("service \"designate\" of type \"dns\" already exists in Keystone (Service openstack/" +
                            n.probe() + " found it)") != std::string::npos);
  BOOST_TEST(!w.get("Service", "openstack", n.service()));
  BOOST_TEST((p.requeue == 10s));
}

// Free: the Service, the Region import of the ControlPlane's region and one
// Endpoint per interface are written in one plan, and the probe goes last.
BOOST_FIXTURE_TEST_CASE(the_children_in_one_plan, catalog_fixture) {
  auto order = keystone_catalog_entry_object("dns", two_endpoints);
  auto n = names_of(order);
  step(order);  // the probe
  auto p = step(order);
  BOOST_TEST((describe(p.writes) ==
              std::vector<std::string>{"create Service openstack/" + n.service(), "create Region openstack/" + n.region(),
                                       "create Endpoint openstack/" + n.endpoint("public"),
                                       "create Endpoint openstack/" + n.endpoint("internal"),
                                       "delete Service openstack/" + n.probe()}));
  const auto& svc = p.writes[0].body;
  BOOST_TEST(svc.get_string({"spec", "resource", "name"}) == "designate");
  BOOST_TEST(svc.get_string({"spec", "resource", "type"}) == "dns");
  const auto& region = p.writes[1].body;
  BOOST_TEST(region.get_string({"spec", "managementPolicy"}) == "unmanaged");
  BOOST_TEST(region.get_string({"spec", "import", "filter", "name"}) == "RegionOne");
  const auto& ep = p.writes[3].body;
  BOOST_TEST(ep.get_string({"spec", "resource", "interface"}) == "internal");
  BOOST_TEST(ep.get_string({"spec", "resource", "url"}) == "http://designate.openstack.svc:9001/v2");
  BOOST_TEST(ep.get_string({"spec", "resource", "serviceRef"}) == n.service());
  BOOST_TEST(ep.get_string({"spec", "resource", "regionRef"}) == n.region());
  BOOST_TEST(catalog_ready(p).reason == "WaitingForCatalog");
}

// A restart after any write of the free-name plan (only the first writes
// landed) makes no second probe: the Service is written before the probe's
// delete, and the owned path drops a leftover probe (the fault plans'
// crash after the probe's delete met neither and probed again).
BOOST_FIXTURE_TEST_CASE(a_restart_inside_the_free_name_plan_makes_no_second_probe, catalog_fixture) {
  auto order = keystone_catalog_entry_object("dns", two_endpoints);
  auto n = names_of(order);
  step(order);  // the probe, found free
  const auto first = plan(order);
  BOOST_REQUIRE(first.writes.size() == 5u);
  const auto before = w;
  for (std::size_t done = 1; done < first.writes.size(); ++done) {
    BOOST_TEST_CONTEXT("stopped after write " << done) {
      w = before;
      for (std::size_t i = 0; i < done; ++i) w.apply(first.writes[i]);
      auto p = plan(order);
      for (const auto& wr : p.writes) BOOST_TEST(wr.describe() != "create Service openstack/" + n.probe());
      BOOST_TEST(p.writes.back().describe() == "delete Service openstack/" + n.probe());
    }
  }
}

// Terminal errors Service, then Region, then Endpoints (CatalogFailed); the
// waits in the same order (WaitingForCatalog).
BOOST_FIXTURE_TEST_CASE(errors_then_waits_in_order, catalog_fixture) {
  auto order = keystone_catalog_entry_object("dns", two_endpoints);
  auto n = names_of(order);
  step(order);
  step(order);
  auto set = [&](const char* kind, const std::string& name, const std::function<object(const object&)>& f) {
    w.put(f(*w.get(kind, "openstack", name)));
  };
  auto pending = [](const object& o) { return korc_pending(o, "Waiting for it"); };
  auto terminal = [](const object& o) { return korc_terminal(o, "UnrecoverableError", "gone"); };
  set("Service", n.service(), pending);
  set("Region", n.region(), pending);
  set("Endpoint", n.endpoint("public"), terminal);
  set("Endpoint", n.endpoint("internal"), pending);
  struct row {
    const char* what;
    std::function<void()> change;
    std::string reason, fragment;
  };
  const std::vector<row> rows{
      {"an Endpoint's terminal error before any wait", [] {}, "CatalogFailed", "Endpoint openstack/" + n.endpoint("public")},
      {"the Region's before the Endpoint's", [&] { set("Region", n.region(), terminal); }, "CatalogFailed",
       "Region openstack/" + n.region()},
      {"the Service's first", [&] { set("Service", n.service(), terminal); }, "CatalogFailed", "Service openstack/" + n.service()},
      {"waits: the Service first",
       [&] {
         set("Service", n.service(), pending);
         set("Region", n.region(), pending);
         set("Endpoint", n.endpoint("public"), pending);
       },
       "WaitingForCatalog", "Service openstack/" + n.service() + " is registered but not yet Available"},
      {"then the Region", [&] { set("Service", n.service(), [](const object& o) { return korc_available(o, "svc-id"); }); },
       "WaitingForCatalog", "Region openstack/" + n.region()},
      {"then the Endpoints in declared order",
       [&] { set("Region", n.region(), [](const object& o) { return korc_available(o, "RegionOne"); }); },
       "WaitingForCatalog", "Endpoint openstack/" + n.endpoint("public")},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.what) {
      r.change();
      auto c = catalog_ready(plan(order));
      BOOST_TEST(c.reason == r.reason);
      BOOST_TEST(c.message.find(r.fragment) != std::string::npos, c.message);
    }
  }
}

// A latched transport error is handed back to K-ORC first.
BOOST_FIXTURE_TEST_CASE(a_latched_transport_error_is_cleared, catalog_fixture) {
  auto order = keystone_catalog_entry_object();
  auto n = names_of(order);
  step(order);
  step(order);
  w.put(with_uid(korc_terminal(*w.get("Region", "openstack", n.region()), "InvalidConfiguration",
                               "dial tcp 127.0.0.1:5000: connect: connection refused"),
                 "uid-region"));
  auto p = plan(order);
  auto c = catalog_ready(p);
  BOOST_TEST(c.reason == "WaitingForCatalog");
  BOOST_TEST(c.message.find("K-ORC could not reach Keystone for Region openstack/" + n.region()) != std::string::npos,
             c.message);
  BOOST_REQUIRE(p.writes.size() == 2u);
  BOOST_TEST(p.writes[0].subresource == "status");
}

// Dropping a row: its Endpoint is deleted on every pass, before the outcomes
// are read; WaitingForCatalog while it is listed; status.endpoints rebuilt.
BOOST_FIXTURE_TEST_CASE(dropped_rows_and_the_status, catalog_fixture) {
  auto order = keystone_catalog_entry_object("dns", two_endpoints);
  auto n = names_of(order);
  for (int i = 0; i < 4; ++i) step(order);
  auto p = plan(order);
  auto c = catalog_ready(p);
  BOOST_TEST(c.reason == "CatalogRegistered", c.message);
  auto st = kc::read_status(*p.status);
  BOOST_TEST(st.service_id == "id-svc-designate");
  BOOST_TEST(st.service_name == "designate");
  BOOST_REQUIRE(st.endpoints.size() == 2u);
  BOOST_TEST(st.endpoints[0].interface == "public");
  BOOST_TEST(st.endpoints[0].id == "id-ep-public-id-svc-designate");
  BOOST_TEST(st.endpoints[1].interface == "internal");
  order = *p.status;

  // The internal row goes from the spec.
  auto b = keystone_catalog_entry_object().edit();
  b.set({"status"}, k8s::copy_json(*order.get({"status"}), b.alloc()));
  b.set_int({"metadata", "generation"}, 2);
  order = std::move(b).freeze();
  // Even while the Service waits, the dropped row is deleted first.
  w.put(korc_pending(*w.get("Service", "openstack", n.service()), "resyncing"));
  p = plan(order);
  BOOST_TEST(p.writes.size() == 1u);
  BOOST_TEST(describe(p.writes).front() == "delete Endpoint openstack/" + n.endpoint("internal"));
  BOOST_TEST(catalog_ready(p).reason == "WaitingForCatalog");
  // The Service Available again, the dropped row still listed (terminating).
  w.put(korc_available(*w.get("Service", "openstack", n.service()), "id-svc-designate"));
  w.put(terminating(*w.get("Endpoint", "openstack", n.endpoint("internal"))));
  p = plan(order);
  BOOST_TEST(p.writes.empty());  // already being deleted
  c = catalog_ready(p);
  BOOST_TEST(c.reason == "WaitingForCatalog");
  BOOST_TEST(c.message == "Endpoint openstack/" + n.endpoint("internal") + " is no longer declared and is being deleted");
  BOOST_TEST(kc::read_status(*p.status).endpoints.size() == 1u);  // rebuilt: the declared row only
  w.objects.erase({"Endpoint", "openstack", n.endpoint("internal")});
  BOOST_TEST(catalog_ready(plan(order)).reason == "CatalogRegistered");
}

// Deletion: Endpoints, the Service and the probe, the Region import; the
// finalizer held while any is listed, released at once with the ControlPlane gone.
BOOST_FIXTURE_TEST_CASE(teardown, catalog_fixture) {
  auto order = keystone_catalog_entry_object("dns", two_endpoints);
  auto n = names_of(order);
  step(order);  // the probe only
  w.put(labelled(make_object("openstack.k-orc.cloud/v1alpha1", "Service", "openstack", n.service()),
                 kc::make_catalog_order(order, "").id.ref));
  for (auto& wr : plan(order).writes) w.apply(wr);
  w.put(labelled(make_object("openstack.k-orc.cloud/v1alpha1", "Service", "openstack", n.probe()),
                 kc::make_catalog_order(order, "").id.ref));
  order = terminating(order);
  auto p = plan(order);
  BOOST_TEST((p.stage == korc::pass_stage::teardown));
  BOOST_TEST((describe(p.writes) ==
              std::vector<std::string>{"delete Endpoint openstack/" + n.endpoint("internal"),
                                       "delete Endpoint openstack/" + n.endpoint("public"),
                                       "delete Service openstack/" + n.service(), "delete Service openstack/" + n.probe(),
                                       "delete Region openstack/" + n.region()}));
  BOOST_TEST(!p.release_finalizer);
  BOOST_TEST((p.requeue == 10s));
  BOOST_TEST(plan(order, nullptr).release_finalizer);
  // A frozen order (no consent) tears down too.
  auto no_consent = with_assignments(cp, R"([{"namespace":"tenant-a"}])");
  BOOST_TEST(plan(order, &no_consent).writes.size() == 5u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(keystonecatalogentry_converge)

BOOST_FIXTURE_TEST_CASE(converges_is_quiet_and_tears_down, catalog_fixture) {
  auto order = keystone_catalog_entry_object("dns", two_endpoints, "{}", false);
  auto run = [&](int max) { return drive(w, order, kc::finalizer, [&](const object& o) { return plan(o); }, max); };
  BOOST_TEST_REQUIRE(run(12) > 0);
  BOOST_TEST(order.find_condition("Ready")->is_true(), order.find_condition("CatalogReady")->message);
  auto quiet = plan(order);
  BOOST_TEST(quiet.writes.empty());
  BOOST_TEST(!quiet.status);
  BOOST_TEST(!quiet.requeue);
  BOOST_TEST(w.labelled("Endpoint", "openstack", label).size() == 2u);
  order = terminating(order);
  run(6);
  BOOST_TEST(!order.has_finalizer(kc::finalizer));
  for (auto kind : {"Service", "Region", "Endpoint"}) BOOST_TEST(w.labelled(kind, "openstack", label).empty());
}

BOOST_AUTO_TEST_SUITE_END()
