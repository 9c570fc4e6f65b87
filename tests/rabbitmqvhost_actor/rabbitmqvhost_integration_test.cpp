// The RabbitMQVhost order host end to end against the in-process emulator
// with the simulated world (the fixture is emulator_fixture.hpp).
//
// CAF's normal scheduler; every wait polls the emulator's state with a bound,
// never asserting a wall-clock time.
#include "actors/c5c3/rabbitmqvhost/declaration.hpp"
#include "actors/c5c3/rabbitmqvhost/kind.hpp"
#include "actors/cluster/target_registry.hpp"
#include "protocol/api_error.hpp"
#include "protocol/clusters.hpp"
#include "tests/rabbitmqvhost_actor/emulator_fixture.hpp"
#include "tests/require_eventually.hpp"

#include <regex>

namespace c5c3::testing {
namespace {

// A target cluster "edge-1" (its own emulator with deploy/crds) engaged by
// the target registry from a labelled kubeconfig Secret.
struct target_fixture : fixture {
  sim::apiserver target{target_options()};
  caf::actor registry;

  static sim::apiserver_options target_options() {
    sim::apiserver_options o;
    o.crd_dirs = {source_dir() + "/deploy/crds"};
    return o;
  }

  target_fixture() {
    target.start();
    registry = spawn_test_registry(sys, management, directory);
  }
  ~target_fixture() {
    caf::scoped_actor self{sys};
    caf::anon_send_exit(registry, caf::exit_reason::user_shutdown);
    self->wait_for(registry);
  }

  caf::actor lookup(const std::string& name) { return lookup_cluster(sys, directory, name); }

  // Writes through a cluster actor (the target has no world client).
  void create_on(const caf::actor& cluster, const std::string& json) {
    caf::scoped_actor self{sys};
    bool ok = false;
    std::string why;
    self->request(cluster, 10s, protocol::create_request{parse(json), {"test", false}})
        .receive([&](k8s::object&) { ok = true; }, [&](caf::error& e) { why = protocol::describe(e); });
    BOOST_TEST_REQUIRE(ok, why);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(rabbitmqvhost_actor_integration)

// The operator in these tests holds exactly deploy/rbac's rules, as its
// ServiceAccount (emulator_options): the emulator authorizes with RBAC, so a
// write no rule allows is refused with kube's 403, naming the ServiceAccount
// (the tests that converge orders show that the rules it has are enough).
BOOST_FIXTURE_TEST_CASE(the_operator_holds_only_the_rules_of_deploy_rbac, fixture) {
  BOOST_TEST_REQUIRE(eventually([&] { return synced(); }));
  caf::scoped_actor self{sys};
  std::string why;
  const auto ns = parse(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"not-mine"}})");
  self->request(management, 10s, protocol::create_request{ns, {"test", false}})
      .receive([&](k8s::object&) { why = "created"; }, [&](caf::error& e) { why = protocol::describe(e); });
  BOOST_TEST(why.find("403") != std::string::npos, why);
  const std::string refusal = R"(namespaces is forbidden: User "system:serviceaccount:c5c3-system:c5c3-operator" )"
                              R"(cannot create resource "namespaces")";
  BOOST_TEST(why.find(refusal) != std::string::npos, why);
  BOOST_TEST(!server.get_object("namespaces", "", "not-mine"));
}

BOOST_FIXTURE_TEST_CASE(an_order_converges_rotates_stays_quiet_and_tears_down, fixture) {
  BOOST_TEST_REQUIRE(eventually([&] { return synced(); }));
  for (auto& ns : namespaces) create(ns);
  create(store);
  create(rabbitmq_cluster);
  create(control_plane);
  const auto at_order = operator_requests->by_method_code_host();
  create(vhost_order("app", "Delete"));

  BOOST_TEST_CONTEXT("Ready True with the delivered Secret's six keys and a transport_url that parses") {
    C5C3_REQUIRE_EVENTUALLY(eventually([&] { return ready("app"); }),
                            "VhostReady=" << reason("app", "VhostReady") << " DeliveryReady="
                                          << reason("app", "DeliveryReady"));
    BOOST_TEST_MESSAGE("operator requests from the order's creation until Ready: " << requests_since(at_order));
    auto o = order("app");
    BOOST_TEST(o.has_finalizer(vh::finalizer));
    BOOST_TEST(reason("app", "DeliveryReady") == "Delivered");
    auto d = delivered("app");
    BOOST_TEST(d.size() == 6u);
    std::smatch m;
    const std::regex url(R"(rabbit://([^:]+):([^@]+)@([^:/]+):([0-9]+)/(.+))");
    BOOST_TEST_REQUIRE(std::regex_match(d["transport_url"], m, url), d["transport_url"].size());
    BOOST_TEST(m[1].str() == d["username"]);
    BOOST_TEST(m[3].str() == d["host"]);
    BOOST_TEST(m[4].str() == d["port"]);
    BOOST_TEST(m[5].str() == d["vhost"]);
    BOOST_TEST(d["password"].size() == 43u);
    BOOST_TEST(d["username"] == std::string(o.get_string({"status", "username"})));
    BOOST_TEST(d["vhost"] == std::string(o.get_string({"status", "vhost"})));
    BOOST_TEST(world->broker->vhosts().count(d["vhost"]) == 1u);
    BOOST_TEST(world->broker->user(d["username"]).has_value());
    auto secret = server.get_object("secrets", "tenant-a", "app-credentials");
    auto owner = secret.controller_reference();
    BOOST_TEST_REQUIRE(owner.has_value());
    BOOST_TEST(owner->uid == std::string(o.uid()));
    // The instrumenter counted both legs' outcomes.
    auto text = reg.render();
    BOOST_TEST(text.find(R"(c5c3_sub_reconciler_results_total{controller="rabbitmqvhost",sub_reconciler="RabbitMQVhostDelivery",condition_type="DeliveryReady",status="True",reason="Delivered"})") != std::string::npos);
    BOOST_TEST(text.find(R"(sub_reconciler="RabbitMQVhostProvision",condition_type="VhostReady",status="True",reason="VhostProvisioned")") != std::string::npos);
  }

  BOOST_TEST_CONTEXT("the children's informers keep them projected (declaration.hpp), the API server whole") {
    caf::scoped_actor self{sys};
    auto read = [&](const k8s::gvk& kind, std::vector<std::string> drop) {
      protocol::list_request r{kind, "", "c5c3.io/rabbitmqvhost-name=app", "", protocol::read_from::cache};
      r.drop = std::move(drop);
      protocol::object_list out;
      self->request(management, 10s, r).receive([&](protocol::object_list& l) { out = std::move(l); },
                                                [&](caf::error& e) { BOOST_FAIL(protocol::describe(e)); });
      BOOST_TEST_REQUIRE(out.items.size() == 1u);
      return out.items.front();
    };
    auto push = read(vh::push_secret_gvk(), vh::push_secret_drop());
    auto live =
        server.get_object("pushsecrets.external-secrets.io", std::string(push.namespace_()), std::string(push.name()));
    BOOST_TEST(live.get({"status", "syncedPushSecrets"}) != nullptr);
    BOOST_TEST(!live.creation_timestamp().empty());
    BOOST_TEST(!push.get({"status", "syncedPushSecrets"}));  // so from the cache
    BOOST_TEST(push.creation_timestamp().empty());
    BOOST_TEST(!push.get_string({"status", "syncedResourceVersion"}).empty());
    BOOST_TEST(push.find_condition("Ready").has_value());
    auto vhost_child = read(vh::vhost_gvk(), vh::topology_drop());
    BOOST_TEST(vhost_child.finalizers().empty());
    BOOST_TEST(vhost_child.generation() == 1);
    // A read that needs every field is not answered from the projected cache.
    auto whole = read(vh::push_secret_gvk(), {});
    BOOST_TEST(whole.get({"status", "syncedPushSecrets"}) != nullptr);
  }

  BOOST_TEST_CONTEXT("a converged order makes zero API requests") {
    // Let the last events (the operator's own status write) settle first:
    // no request for two consecutive observations.
    BOOST_TEST_REQUIRE(eventually([&] {
      auto before = operator_requests->requests_total();
      std::this_thread::sleep_for(500ms);
      return operator_requests->requests_total() == before;
    }));
    auto before = operator_requests->by_method_code_host();
    std::this_thread::sleep_for(3s);
    BOOST_TEST(requests_since(before) == "none");
  }

  const std::string vhost = delivered("app")["vhost"];
  BOOST_TEST_CONTEXT("a declared rotation: a new user, the old one kept until the grace period ends") {
    const auto at_rotation = operator_requests->by_method_code_host();
    auto r = world->merge_patch(order_gvk, "tenant-a", "app", R"({"spec":{"passwordGeneration":2}})");
    BOOST_TEST_REQUIRE(r.ok());
    BOOST_TEST_REQUIRE(eventually([&] {
      return k8s::get_int(order("app").json(), {"status", "passwordGeneration"}).value_or(0) == 2;
    }));
    // Right after the switch (the grace period is 4 s): generation 1 is kept.
    BOOST_TEST(k8s::get_int(order("app").json(), {"status", "previousPasswordGeneration"}).value_or(0) == 1);
    BOOST_TEST(world->broker->user(vhost + "-v1").has_value());
    BOOST_TEST(children("users.rabbitmq.com", "app") == 2u);
    BOOST_TEST_REQUIRE(eventually([&] { return delivered("app")["username"] == vhost + "-v2"; }));
    // Generation 1 is live until the grace sweep; the sweep clears previous*.
    BOOST_TEST_REQUIRE(eventually([&] {
      auto o = order("app");
      return k8s::get_int(o.json(), {"status", "previousPasswordGeneration"}).value_or(0) == 0 &&
             !world->broker->user(vhost + "-v1").has_value() && ready("app");
    }));
    BOOST_TEST_MESSAGE("operator requests for the rotation and its grace sweep: " << requests_since(at_rotation));
    BOOST_TEST(world->broker->user(vhost + "-v2").has_value());
    BOOST_TEST(children("users.rabbitmq.com", "app") == 1u);
    BOOST_TEST(children("permissions.rabbitmq.com", "app") == 1u);
  }

  BOOST_TEST_CONTEXT("a foreign <name>-credentials Secret reads DeliveryRefused") {
    create(R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"other-credentials","namespace":"tenant-a"},)"
           R"("data":{"mine":"eWVz"}})");
    create(vhost_order("other", "Retain"));
    C5C3_REQUIRE_EVENTUALLY(eventually([&] { return reason("other", "DeliveryReady") == "DeliveryRefused"; }),
                            reason("other", "DeliveryReady"));
    auto foreign = server.get_object("secrets", "tenant-a", "other-credentials");
    BOOST_TEST(foreign.get_string({"data", "mine"}) == "eWVz");
    BOOST_TEST(!foreign.controller_reference().has_value());
  }

  BOOST_TEST_CONTEXT("deletion with deletionPolicy Delete tears everything down and releases the finalizer") {
    const auto at_delete = operator_requests->by_method_code_host();
    auto r = world->remove(order_gvk, "tenant-a", "app");
    BOOST_TEST_REQUIRE(r.ok());
    BOOST_TEST_REQUIRE(eventually([&] { return !order("app"); }));
    for (auto res : {"vhosts.rabbitmq.com", "users.rabbitmq.com", "permissions.rabbitmq.com",
                     "pushsecrets.external-secrets.io", "secrets"}) {
      BOOST_TEST_CONTEXT(res) { BOOST_TEST(eventually([&] { return children(res, "app") == 0u; })); }
    }
    BOOST_TEST(eventually([&] { return !server.get_object("secrets", "tenant-a", "app-credentials"); }));
    BOOST_TEST(eventually([&] { return world->broker->vhosts().count(vhost) == 0u; }));
    BOOST_TEST_MESSAGE("operator requests for the teardown (both orders' passes): " << requests_since(at_delete));
  }

  BOOST_TEST_CONTEXT("deletion with deletionPolicy Retain keeps the vhost on the broker and the foreign Secret") {
    const std::string other_vhost(order("other").get_string({"status", "vhost"}));
    BOOST_TEST_REQUIRE(!other_vhost.empty());
    BOOST_TEST_REQUIRE(world->broker->vhosts().count(other_vhost) == 1u);
    auto r = world->remove(order_gvk, "tenant-a", "other");
    BOOST_TEST_REQUIRE(r.ok());
    BOOST_TEST_REQUIRE(eventually([&] { return !order("other"); }));
    BOOST_TEST(eventually([&] { return children("vhosts.rabbitmq.com", "other") == 0u; }));
    BOOST_TEST(world->broker->vhosts().count(other_vhost) == 1u);
    BOOST_TEST(static_cast<bool>(server.get_object("secrets", "tenant-a", "other-credentials")));
  }
}

BOOST_FIXTURE_TEST_CASE(many_orders_converge_and_then_stay_quiet, fixture) {
  constexpr int n = 25;
  BOOST_TEST_REQUIRE(eventually([&] { return synced(); }));
  for (auto& ns : namespaces) create(ns);
  create(store);
  create(rabbitmq_cluster);
  create(control_plane);
  const auto at_orders = operator_requests->by_method_code_host();
  const auto started = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) create(vhost_order("o" + std::to_string(i), "Retain"));
  BOOST_TEST_REQUIRE(eventually([&] {
    for (int i = 0; i < n; ++i)
      if (!ready("o" + std::to_string(i))) return false;
    return true;
  }));
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  std::uint64_t total = 0;
  for (auto& [k, c] : operator_requests->by_method_code_host()) {
    auto it = at_orders.find(k);
    total += c - (it == at_orders.end() ? 0 : it->second);
  }
  BOOST_TEST_MESSAGE(n << " orders Ready after " << took.count() << " ms (sanitizer build); operator requests "
                       << total << " (" << static_cast<double>(total) / n
                       << " per order): " << requests_since(at_orders));
  BOOST_TEST_REQUIRE(eventually([&] {
    auto before = operator_requests->requests_total();
    std::this_thread::sleep_for(500ms);
    return operator_requests->requests_total() == before;
  }));
  auto before = operator_requests->by_method_code_host();
  std::this_thread::sleep_for(2s);
  BOOST_TEST(requests_since(before) == "none");
}

BOOST_FIXTURE_TEST_CASE(an_order_on_a_target_cluster_gets_the_published_endpoint_beside_it, target_fixture) {
  BOOST_TEST_REQUIRE(eventually([&] { return synced(); }));
  for (auto& ns : namespaces) create(ns);
  // The operator's namespace c5c3-system is there already (deploy/rbac/service_account.yaml).
  create(store);
  create(rabbitmq_cluster);
  create(control_plane);
  create(R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"edge-1","namespace":"c5c3-system",)"
         R"("labels":{"c5c3.io/target-cluster":"edge-1"}},"data":{"kubeconfig":")" +
         k8s::base64_encode(target.kubeconfig_yaml()) + R"("}})");
  caf::actor edge;
  BOOST_TEST_REQUIRE(eventually([&] { return static_cast<bool>(edge = lookup("edge-1")); }));
  BOOST_TEST_REQUIRE(eventually([&] { return synced(); }));
  create_on(edge, R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"tenant-b"}})");
  create_on(edge, R"({"apiVersion":"c5c3.io/v1alpha1","kind":"RabbitMQVhost","metadata":{"name":"svc","namespace":"tenant-b"},)"
                  R"("spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"}}})");

  auto order = [&] { return target.get_object("rabbitmqvhosts.c5c3.io", "tenant-b", "svc"); };
  C5C3_REQUIRE_EVENTUALLY(eventually([&] {
    auto c = order().find_condition("Ready");
    return c && c->is_true();
  }), "DeliveryReady=" << (order().find_condition("DeliveryReady") ? order().find_condition("DeliveryReady")->reason : ""));
  auto secret = target.get_object("secrets", "tenant-b", "svc-credentials");
  BOOST_TEST_REQUIRE(static_cast<bool>(secret));
  BOOST_TEST(*k8s::base64_decode(secret.get_string({"data", "host"})) == "rabbitmq.example.test");
  BOOST_TEST(*k8s::base64_decode(secret.get_string({"data", "port"})) == "5672");
  BOOST_TEST(secret.controller_reference()->uid == std::string(order().uid()));
  BOOST_TEST(order().get_string({"status", "host"}) == "rabbitmq.example.test");
  // The children live on the management cluster, labelled with the order's cluster.
  std::size_t users = 0;
  for (auto& u : server.list_objects("users.rabbitmq.com", "openstack"))
    users += u.label(vh::label_cluster).value_or("") == "edge-1" && u.label(vh::label_name).value_or("") == "svc";
  BOOST_TEST(users == 1u);
  BOOST_TEST(!server.get_object("secrets", "tenant-b", "svc-credentials"));

  // The delivered Secret maps back to the order on the cluster where it
  // lives: an edit there and a deletion there are repaired on their event,
  // not at the 10-minute refresh of a target-cluster order.
  const auto password = std::string(secret.get_string({"data", "password"}));
  auto on_edge = [&](auto req) {
    caf::scoped_actor self{sys};
    bool ok = false;
    std::string why;
    self->request(edge, 10s, std::move(req))
        .receive([&](k8s::object&) { ok = true; }, [&](caf::error& e) { why = protocol::describe(e); });
    BOOST_TEST_REQUIRE(ok, why);
  };
  const protocol::resource_ref delivered{{"", "v1", "Secret"}, "tenant-b", "svc-credentials"};
  on_edge(protocol::patch_request{delivered, protocol::patch_type::merge,
                                  R"({"data":{"password":"ZWRpdGVk"}})", "", {"test", false}});
  BOOST_TEST_REQUIRE(eventually([&] {
    return target.get_object("secrets", "tenant-b", "svc-credentials").get_string({"data", "password"}) == password;
  }));
  on_edge(protocol::delete_request{delivered, "", "", protocol::propagation::background});
  BOOST_TEST_REQUIRE(eventually([&] {
    auto s2 = target.get_object("secrets", "tenant-b", "svc-credentials");
    return s2 && s2.get_string({"data", "password"}) == password;
  }));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace c5c3::testing
