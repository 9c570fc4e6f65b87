#include "actors/c5c3/controlplane/control_plane_actor.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"
#include "fake_cluster.hpp"
#include "tests/runtime/coordinator_fixture.hpp"

#include <boost/test/unit_test.hpp>

#include <fmt/format.h>

namespace cp = c5c3::c5c3::controlplane;
namespace protocol = c5c3::protocol;
using c5c3::k8s::object;
using protocol::admission_verdict;

namespace {

object parse(const std::string& text) {
  std::string err;
  auto o = object::parse(text, &err);
  BOOST_REQUIRE_MESSAGE(o, err);
  return *o;
}

// The ControlPlane cp-ns/cp: team-a on the management cluster (roles, catalog
// entries), team-b on target cluster edge-1.
object control_plane(int generation, bool admin_ready, const std::string& extra_spec = "",
                     const std::string& deletion = "", const std::string& other_condition = "False") {
  return parse(fmt::format(
      R"({{"apiVersion":"c5c3.io/v1alpha1","kind":"ControlPlane","metadata":{{"name":"cp","namespace":"cp-ns",)"
      R"("generation":{}{}}},"spec":{{{}"namespaceAssignments":[)"
      R"({{"namespace":"team-a","allowedRoles":["admin","member"],"allowCatalogEntries":true}},)"
      R"({{"namespace":"team-b","targetClusterRef":{{"name":"edge-1"}}}}]}},)"
      R"("status":{{"conditions":[{{"type":"AdminCredentialReady","status":"{}"}},{{"type":"Ready","status":"{}"}}]}}}})",
      generation, deletion.empty() ? "" : fmt::format(R"(,"deletionTimestamp":"{}","finalizers":["x"])", deletion),
      extra_spec, admin_ready ? "True" : "False", other_condition));
}

const std::string messaging_spec =
    R"("region":"Frankfurt","infrastructure":{"messaging":{"clusterRef":{"name":"rmq"}},)"
    R"("publishedMessagingEndpoint":"broker.example.com:5671"},)"
    R"("services":{"keystone":{"publicEndpoint":"https://id.example.com/v3"}},)";

object rabbitmq_cluster() {
  return parse(
      R"({"apiVersion":"rabbitmq.com/v1beta1","kind":"RabbitmqCluster","metadata":{"name":"rmq","namespace":"cp-ns"},)"
      R"("status":{"defaultUser":{"secretReference":{"name":"rmq-default-user","namespace":"cp-ns"}},)"
      R"("conditions":[{"type":"AllReplicasReady","status":"True"}]}})");
}

object default_user_secret() {
  auto b64 = [](const char* s) { return c5c3::c5c3::base64_encode(s); };
  return parse(fmt::format(
      R"({{"apiVersion":"v1","kind":"Secret","metadata":{{"name":"rmq-default-user","namespace":"cp-ns"}},)"
      R"("data":{{"username":"{}","password":"{}","host":"{}","port":"{}","connection_string":"{}"}}}})",
      b64("guest"), b64("s3cr3t-pw"), b64("rmq.cp-ns.svc"), b64("5672"),
      b64("amqp://guest:s3cr3t-pw@rmq.cp-ns.svc:5672/")));
}

const protocol::control_plane_ref cp_ref{"cp-ns", "cp"};

std::string frozen(const std::string& ns, const std::string& location) {
  return "ControlPlane cp-ns/cp assigns no namespace \"" + ns + "\" on " + location +
         " (spec.namespaceAssignments); the order is frozen: nothing is provisioned, delivered or repaired, "
         "and what was created stays";
}

struct cp_fixture : c5c3::testing::coordinator_fixture {
  caf::actor cluster;
  caf::actor directory;
  std::shared_ptr<c5c3::testing::host_record> host = std::make_shared<c5c3::testing::host_record>();

  explicit cp_fixture(std::vector<object> initial = {}) { start(std::move(initial)); }

  void start(std::vector<object> initial) {
    cluster = keep(sys.spawn(c5c3::testing::fake_cluster, std::move(initial)));
    directory = keep(cp::spawn_control_plane_directory(sys, cluster));
    auto h = keep(sys.spawn(c5c3::testing::recording_host, host));
    BOOST_REQUIRE(ask<protocol::ok_atom>(directory, cp::cp_host_atom::value, h) == protocol::ok_atom::value);
  }

  protocol::admission_answer admit(const std::string& cluster_name, const std::string& ns,
                                   const std::string& name = "order") {
    return ask<protocol::admission_answer>(directory,
                                           protocol::admission_request{{cluster_name, ns, name}, cp_ref, {}});
  }
  protocol::control_plane_endpoints endpoints(const std::string& cluster_name) {
    return ask<protocol::control_plane_endpoints>(directory, protocol::endpoints_request{cp_ref, cluster_name});
  }
  cp::control_plane_probe probe() {
    auto a = ask<caf::actor>(directory, cp::cp_lookup_atom::value, cp_ref);
    return ask<cp::control_plane_probe>(a, protocol::probe_atom::value);
  }
  void put(const object& o) {
    self->send(cluster, c5c3::testing::put_atom::value, o);
    run();
  }
  void erase(const object& o) {
    self->send(cluster, c5c3::testing::erase_atom::value, o);
    run();
  }
};

struct present_fixture : cp_fixture {
  present_fixture() : cp_fixture({control_plane(1, true)}) {}
};

}  // namespace

BOOST_AUTO_TEST_SUITE(controlplane_actor)

BOOST_FIXTURE_TEST_CASE(admission_verdicts_with_exact_messages, present_fixture) {
  const std::string long_cluster(64, 'c');
  struct row {
    std::string cluster, ns;
    admission_verdict verdict;
    std::string message;
  };
  const std::vector<row> rows = {
      {"", "team-a", admission_verdict::admitted, ""},
      {"edge-1", "team-b", admission_verdict::admitted, ""},
      {"", "team-b", admission_verdict::namespace_not_assigned, frozen("team-b", "the management cluster")},
      {"edge-1", "team-a", admission_verdict::namespace_not_assigned, frozen("team-a", "target cluster \"edge-1\"")},
      {"edge-2", "team-b", admission_verdict::namespace_not_assigned, frozen("team-b", "target cluster \"edge-2\"")},
      {long_cluster, "team-a", admission_verdict::cluster_name_too_long,
       "the order lives on target cluster \"" + long_cluster +
           "\", whose name exceeds 63 characters and cannot be carried as a label value; nothing is provisioned "
           "for an order on that cluster"},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.cluster << "/" << r.ns) {
      auto a = admit(r.cluster, r.ns);
      BOOST_TEST(protocol::to_string(a.verdict) == protocol::to_string(r.verdict));
      BOOST_TEST(a.message == r.message);
      if (r.verdict != admission_verdict::admitted) {
        // The freeze: a refused order learns nothing of the ControlPlane.
        BOOST_TEST(!a.control_plane);
        BOOST_TEST(!a.admin_credential_ready);
      }
    }
  }
  auto a = admit("", "team-a");
  BOOST_TEST(a.assignment.namespace_ == "team-a");
  BOOST_TEST(a.assignment.target_cluster == "");
  BOOST_TEST(a.assignment.allowed_roles == (std::vector<std::string>{"admin", "member"}));
  BOOST_TEST(a.assignment.allow_catalog_entries);
  BOOST_TEST(a.admin_credential_ready);
  BOOST_REQUIRE(a.control_plane);
  BOOST_TEST(a.control_plane.name() == "cp");
  auto b = admit("edge-1", "team-b");
  BOOST_TEST(b.assignment.target_cluster == "edge-1");
  BOOST_TEST(b.assignment.allowed_roles.empty());
  BOOST_TEST(!b.assignment.allow_catalog_entries);
  // Event-driven: admissions never read the ControlPlane from the cluster.
  BOOST_TEST(ask<std::uint32_t>(cluster, c5c3::testing::gets_atom::value) == 0u);
}

BOOST_FIXTURE_TEST_CASE(admin_credential_not_ready_is_reported, cp_fixture) {
  put(control_plane(1, false));
  auto a = admit("", "team-a");
  BOOST_TEST(protocol::to_string(a.verdict) == protocol::to_string(admission_verdict::admitted));
  BOOST_TEST(!a.admin_credential_ready);
}

BOOST_FIXTURE_TEST_CASE(absent_control_plane_per_cluster_kind, cp_fixture) {
  auto m = admit("", "team-a");
  BOOST_TEST(protocol::to_string(m.verdict) == protocol::to_string(admission_verdict::control_plane_not_found));
  BOOST_TEST(m.message == "ControlPlane cp-ns/cp not found; the order is deferred until it exists");
  auto t = admit("edge-1", "team-b");
  BOOST_TEST(protocol::to_string(t.verdict) == protocol::to_string(admission_verdict::namespace_not_assigned));
  BOOST_TEST(t.message == frozen("team-b", "target cluster \"edge-1\""));
  BOOST_TEST(!t.control_plane);
  // Its creation wakes the orders that asked.
  put(control_plane(1, true));
  BOOST_REQUIRE_EQUAL(host->changes.size(), 1u);
  BOOST_TEST(host->changes[0].orders.size() == 2u);
  BOOST_TEST(protocol::to_string(admit("", "team-a").verdict) ==
             protocol::to_string(admission_verdict::admitted));
}

BOOST_AUTO_TEST_CASE(endpoints_on_the_management_cluster) {
  cp_fixture f({control_plane(1, true, messaging_spec), rabbitmq_cluster(), default_user_secret()});
  auto e = f.endpoints("");
  BOOST_TEST(e.keystone_auth_url == "http://cp-keystone.cp-ns.svc:5000/v3");
  BOOST_TEST(e.region == "Frankfurt");
  BOOST_TEST(e.endpoint_type == "internal");
  BOOST_TEST(e.messaging_host == "rmq.cp-ns.svc");
  BOOST_TEST(e.messaging_port == 5672);
  BOOST_TEST(e.messaging_problem.empty());
}

BOOST_AUTO_TEST_CASE(endpoints_without_the_default_user_secret_name_no_url) {
  cp_fixture f({control_plane(1, true, messaging_spec), rabbitmq_cluster()});
  auto e = f.endpoints("");
  BOOST_TEST(e.messaging_host.empty());
  BOOST_TEST(e.messaging_port == 0);
  BOOST_TEST(e.messaging_problem == "default-user Secret cp-ns/rmq-default-user not found");
  BOOST_TEST(e.messaging_problem.find("amqp://") == std::string::npos);
  BOOST_TEST(e.messaging_problem.find("s3cr3t") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(endpoints_on_a_target_cluster) {
  cp_fixture f({control_plane(1, true, messaging_spec), rabbitmq_cluster(), default_user_secret()});
  auto e = f.endpoints("edge-1");
  BOOST_TEST(e.keystone_auth_url == "https://id.example.com/v3");
  BOOST_TEST(e.region == "Frankfurt");
  BOOST_TEST(e.messaging_host == "broker.example.com");
  BOOST_TEST(e.messaging_port == 5671);
  BOOST_TEST(e.messaging_problem.empty());
}

BOOST_FIXTURE_TEST_CASE(endpoints_default_region, present_fixture) {
  BOOST_TEST(endpoints("edge-1").region == "RegionOne");
}

BOOST_FIXTURE_TEST_CASE(fan_out_on_each_predicate_case, present_fixture) {
  admit("", "team-a", "one");
  admit("edge-1", "team-b", "two");
  admit("", "team-b", "frozen");  // refused orders are tracked too: they wait for a change
  BOOST_TEST(probe().orders.size() == 3u);

  // A status-only update (another condition) wakes nobody.
  put(control_plane(1, true, "", "", "True"));
  BOOST_TEST(host->changes.empty());

  // A spec change (generation).
  put(control_plane(2, true));
  BOOST_REQUIRE_EQUAL(host->changes.size(), 1u);
  BOOST_TEST((host->changes[0].control_plane == cp_ref));
  const std::vector<protocol::order_key> expected = {
      {"", "team-a", "one"}, {"", "team-b", "frozen"}, {"edge-1", "team-b", "two"}};
  BOOST_TEST((host->changes[0].orders == expected));

  // AdminCredentialReady flips, both ways.
  put(control_plane(2, false));
  BOOST_TEST(host->changes.size() == 2u);
  put(control_plane(2, true));
  BOOST_TEST(host->changes.size() == 3u);

  // The deletion timestamp appears.
  put(control_plane(2, true, "", "2026-12-01T00:00:00Z"));
  BOOST_TEST(host->changes.size() == 4u);

  // The deletion itself.
  erase(control_plane(2, true));
  BOOST_TEST(host->changes.size() == 5u);
  BOOST_TEST((host->changes.back().orders == expected));
}

BOOST_FIXTURE_TEST_CASE(gone_once_deleted, present_fixture) {
  BOOST_TEST(protocol::to_string(admit("", "team-a").verdict) ==
             protocol::to_string(admission_verdict::admitted));
  erase(control_plane(1, true));
  auto p = probe();
  BOOST_TEST(p.gone);
  BOOST_TEST(!p.present);
  auto m = admit("", "team-a");
  BOOST_TEST(protocol::to_string(m.verdict) == protocol::to_string(admission_verdict::control_plane_not_found));
  BOOST_TEST(m.message == "ControlPlane cp-ns/cp not found; the order is deferred until it exists");
  BOOST_TEST(!m.control_plane);
  // On a target cluster the owner is not told which ControlPlanes exist.
  auto t = admit("edge-1", "team-b");
  BOOST_TEST(protocol::to_string(t.verdict) == protocol::to_string(admission_verdict::namespace_not_assigned));
  BOOST_TEST(!t.control_plane);
  for (const char* c : {"", "edge-1"}) {
    auto err = ask_error(directory, protocol::endpoints_request{cp_ref, c});
    BOOST_TEST(protocol::is_not_found(err));
  }
}

BOOST_FIXTURE_TEST_CASE(hosts_registered_later_reach_existing_actors, present_fixture) {
  admit("", "team-a");
  auto rec = std::make_shared<c5c3::testing::host_record>();
  auto h = keep(sys.spawn(c5c3::testing::recording_host, rec));
  BOOST_TEST(ask<protocol::ok_atom>(directory, cp::cp_host_atom::value, h) == protocol::ok_atom::value);
  run();
  BOOST_TEST(probe().hosts == 2u);
  put(control_plane(2, true));
  BOOST_TEST(rec->changes.size() == 1u);
  BOOST_TEST(host->changes.size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(controlplane_directory)

// Orders naming ControlPlanes that do not exist, each in a namespace of its
// own: the one subscription (every namespace) serves them all. Before, each
// ControlPlane actor subscribed to its own namespace: three watches more.
BOOST_FIXTURE_TEST_CASE(a_missing_control_plane_costs_no_watch_of_its_own, present_fixture) {
  for (const char* ns : {"ns-a", "ns-b", "ns-c"}) {
    auto m = ask<protocol::admission_answer>(
        directory, protocol::admission_request{{"", ns, "order"}, {ns, "nowhere"}, {}});
    BOOST_TEST(protocol::to_string(m.verdict) == protocol::to_string(admission_verdict::control_plane_not_found));
  }
  admit("", "team-a");  // and the one that exists
  BOOST_TEST(ask<std::uint32_t>(cluster, c5c3::testing::subs_atom::value) == 1u);
  auto p = ask<cp::control_plane_directory_probe>(directory, protocol::probe_atom::value);
  BOOST_TEST(p.subscribed == 1u);
  BOOST_TEST(p.actors.size() == 4u);
  BOOST_TEST(p.orders == 4u);
  // The existing one was seen through the shared subscription.
  BOOST_TEST(probe().present);
}

// ControlPlane actors retire once no order refers to them: an order moving
// to another ControlPlane releases the first, its order actor dying
// releases the second.
BOOST_FIXTURE_TEST_CASE(control_plane_actors_retire_once_no_order_refers_to_them, present_fixture) {
  auto order = sys.spawn(c5c3::testing::admitting_order, directory);
  const protocol::control_plane_ref elsewhere{"other-ns", "missing"};
  caf::anon_send(order, protocol::admission_request{{"", "team-a", "one"}, elsewhere, {}});
  run();
  auto p = ask<cp::control_plane_directory_probe>(directory, protocol::probe_atom::value);
  BOOST_TEST_REQUIRE(p.actors.size() == 1u);
  auto first = ask<caf::actor>(directory, cp::cp_lookup_atom::value, elsewhere);
  self->monitor(first);
  // The order now names cp-ns/cp: the actor of other-ns/missing retires.
  caf::anon_send(order, protocol::admission_request{{"", "team-a", "one"}, cp_ref, {}});
  run();
  bool down = false;
  self->receive([&](caf::down_msg& dm) { down = dm.source == first.address(); },
                caf::after(std::chrono::seconds(0)) >> [] {});
  BOOST_TEST(down);
  p = ask<cp::control_plane_directory_probe>(directory, protocol::probe_atom::value);
  BOOST_TEST((p.actors == std::vector<protocol::control_plane_ref>{cp_ref}));
  BOOST_TEST(p.retired == 1u);
  auto second = ask<caf::actor>(directory, cp::cp_lookup_atom::value, cp_ref);
  BOOST_TEST((ask<cp::control_plane_probe>(second, protocol::probe_atom::value).orders ==
              std::vector<protocol::order_key>{{"", "team-a", "one"}}));
  self->monitor(second);
  // The order actor dies (the order was deleted): nothing refers to cp-ns/cp.
  caf::anon_send_exit(order, caf::exit_reason::user_shutdown);
  run();
  down = false;
  self->receive([&](caf::down_msg& dm) { down = dm.source == second.address(); },
                caf::after(std::chrono::seconds(0)) >> [] {});
  BOOST_TEST(down);
  p = ask<cp::control_plane_directory_probe>(directory, protocol::probe_atom::value);
  BOOST_TEST(p.actors.empty());
  BOOST_TEST(p.orders == 0u);
  BOOST_TEST(p.retired == 2u);
  // A later order gets a fresh actor that knows the ControlPlane at once.
  BOOST_TEST(protocol::to_string(admit("", "team-a").verdict) == protocol::to_string(admission_verdict::admitted));
}

// An order whose request names its host stays in the fan-out once its actor
// is gone (a parked order), until the host forgets it or goes itself.
BOOST_FIXTURE_TEST_CASE(an_order_is_kept_for_its_host_until_the_host_forgets_it_or_goes, present_fixture) {
  auto record = std::make_shared<c5c3::testing::host_record>();
  auto its_host = sys.spawn(c5c3::testing::forgetting_host, record, directory);
  BOOST_REQUIRE(ask<protocol::ok_atom>(directory, cp::cp_host_atom::value, its_host) == protocol::ok_atom::value);
  auto order = sys.spawn(c5c3::testing::admitting_order, directory);
  const protocol::order_key one{"", "team-a", "one"}, two{"", "team-a", "two"};
  caf::anon_send(order, protocol::admission_request{one, cp_ref, its_host.address()});
  caf::anon_send(order, protocol::admission_request{two, cp_ref, its_host.address()});
  run();
  caf::anon_send_exit(order, caf::exit_reason::user_shutdown);  // parked: the actor quits
  run();
  auto p = ask<cp::control_plane_directory_probe>(directory, protocol::probe_atom::value);
  BOOST_TEST(p.orders == 2u);
  BOOST_TEST(p.retired == 0u);
  BOOST_TEST((probe().orders == std::vector<protocol::order_key>{one, two}));

  put(control_plane(2, true));  // a spec change reaches the orders without actors
  BOOST_REQUIRE_EQUAL(record->changes.size(), 1u);
  BOOST_TEST((record->changes[0].orders == std::vector<protocol::order_key>{one, two}));

  caf::anon_send(its_host, protocol::cp_forget_atom::value, one);  // deleted
  run();
  BOOST_TEST((probe().orders == std::vector<protocol::order_key>{two}));
  auto actor = ask<caf::actor>(directory, cp::cp_lookup_atom::value, cp_ref);
  self->monitor(actor);
  caf::anon_send_exit(its_host, caf::exit_reason::user_shutdown);  // the host goes: so does two
  run();
  bool down = false;
  self->receive([&](caf::down_msg& dm) { down = dm.source == actor.address(); },
                caf::after(std::chrono::seconds(0)) >> [] {});
  BOOST_TEST(down);
  p = ask<cp::control_plane_directory_probe>(directory, protocol::probe_atom::value);
  BOOST_TEST(p.orders == 0u);
  BOOST_TEST(p.actors.empty());
  BOOST_TEST(p.retired == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
