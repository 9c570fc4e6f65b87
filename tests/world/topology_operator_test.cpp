#include "sim/world/memory_broker.hpp"
#include "sim/world/topology_operator.hpp"

#include "fixtures.hpp"

#include <fmt/format.h>

#include <functional>

using namespace c5c3::sim::world;
using namespace c5c3::sim::world::test;
namespace k8s = c5c3::k8s;

namespace {

constexpr std::string_view deleted = R"("deletionTimestamp":"2026-12-01T00:00:00Z",)";

k8s::object cluster(int replicas = 1) {
  return obj(fmt::format(R"({{"apiVersion":"rabbitmq.com/v1beta1","kind":"RabbitmqCluster",
    "metadata":{{"name":"rmq","namespace":"cp"}},"spec":{{"replicas":{}}}}})", replicas));
}

// A topology object; `meta` is spliced into metadata (finalizers, deletionTimestamp).
k8s::object topo(std::string_view kind, std::string_view meta, std::string_view spec,
                 std::string_view status = "{}") {
  return obj(fmt::format(R"({{"apiVersion":"rabbitmq.com/v1beta1","kind":"{}",
    "metadata":{{{}"name":"x","namespace":"cp","uid":"u-x","generation":4}},
    "spec":{{"rabbitmqClusterReference":{{"name":"rmq"}},{}}},"status":{}}})",
                         kind, meta, spec, status));
}

struct outcome {
  topology_plan plan;
  std::vector<object_write> writes;  // before_calls, then the settled writes
  std::optional<std::chrono::seconds> requeue_after;
};

outcome step(const topology_snapshot& s, memory_broker& b) {
  outcome o;
  o.plan = reconcile_topology(s);
  o.writes = o.plan.before_calls;
  auto settled = run_topology(o.plan, b, s.now);
  for (auto& w : settled.writes) o.writes.push_back(std::move(w));
  o.requeue_after = settled.requeue_after;
  return o;
}

topology_snapshot snap(k8s::object subject) { return {std::move(subject), cluster(), {}, {}, {}, t0(), counting_random()}; }

struct row {
  std::string name;
  std::function<topology_snapshot()> snapshot;
  std::function<void(memory_broker&)> prepare;
  std::function<void(const outcome&, const memory_broker&)> check;
};

void expect_ready(const outcome& o, std::int64_t generation = 4) {
  auto st = only(o.writes, write_verb::update_status);
  const auto* conds = st.get({"status", "conditions"});
  BOOST_TEST_REQUIRE(conds->IsArray());
  // Ready alone; a User reports PasswordSynced first (messaging-topology-operator v1.20).
  BOOST_TEST(conds->Size() == (st.kind() == "User" ? 2u : 1u));
  auto c = find_plain_condition(st, "Ready");
  BOOST_TEST_REQUIRE(c.has_value());
  BOOST_TEST(c->status == "True");
  BOOST_TEST(c->reason == "SuccessfulCreateOrUpdate");
  BOOST_TEST((k8s::get_int(st.json(), {"status", "observedGeneration"}) == generation));
}

void expect_failed(const outcome& o, std::string_view message) {
  auto st = only(o.writes, write_verb::update_status);
  const auto* conds = st.get({"status", "conditions"});
  BOOST_TEST_REQUIRE(conds->IsArray());
  BOOST_TEST(conds->Size() == 1u);
  auto c = find_plain_condition(st, "Ready");
  BOOST_TEST_REQUIRE(c.has_value());
  BOOST_TEST(c->status == "False");
  BOOST_TEST(c->reason == "FailedCreateOrUpdate");
  BOOST_TEST(c->message == message);
  BOOST_TEST((!k8s::get_int(st.json(), {"status", "observedGeneration"}).has_value()));
  BOOST_TEST(o.requeue_after.has_value());
}

// The finalizer update of the writes, and whether it carries `f`.
bool finalizer_written(const outcome& o, std::string_view f) {
  return only(o.writes, write_verb::update).has_finalizer(f);
}

const std::string vhost_fin = "deletion.finalizers.vhosts.rabbitmq.com";
const std::string user_fin = "deletion.finalizers.users.rabbitmq.com";
const std::string perm_fin = "deletion.finalizers.permissions.rabbitmq.com";
const std::string with_vhost_fin = R"("finalizers":["deletion.finalizers.vhosts.rabbitmq.com"],)";
const std::string with_user_fin = R"("finalizers":["deletion.finalizers.users.rabbitmq.com"],)";
const std::string with_perm_fin = R"("finalizers":["deletion.finalizers.permissions.rabbitmq.com"],)";

std::vector<row> rows() {
  return {
      {"vhost: finalizer added on first reconcile, declared, Ready with observedGeneration",
       [] { return snap(topo("Vhost", "", R"("name":"v1")")); }, nullptr,
       [](const outcome& o, const memory_broker& b) {
         BOOST_TEST(finalizer_written(o, vhost_fin));
         BOOST_TEST(o.writes.front().verb == write_verb::update);  // the finalizer before anything else
         BOOST_TEST(b.vhosts().contains("v1"));
         expect_ready(o);
       }},
      {"vhost: broker failure is Ready False FailedCreateOrUpdate with the error, no observedGeneration",
       [] { return snap(topo("Vhost", with_vhost_fin, R"("name":"v1")")); },
       [](memory_broker& b) { b.fail_with("Error: API responded with a 500 Internal Server Error"); },
       [](const outcome& o, const memory_broker&) {
         BOOST_TEST(count(o.writes, write_verb::update) == 0);
         expect_failed(o, "Error: API responded with a 500 Internal Server Error");
       }},
      {"vhost: the whole conditions list is replaced by the one Ready condition",
       [] {
         return snap(topo("Vhost", with_vhost_fin, R"("name":"v1")",
                          R"({"observedGeneration":3,"conditions":[
                              {"type":"Ready","status":"False","reason":"FailedCreateOrUpdate","message":"old"},
                              {"type":"Other","status":"True","reason":"X","message":""}]})"));
       },
       nullptr, [](const outcome& o, const memory_broker&) { expect_ready(o); }},
      {"vhost: converged object writes no status (lastTransitionTime kept)",
       [] {
         return snap(topo("Vhost", with_vhost_fin, R"("name":"v1")",
                          R"({"observedGeneration":4,"conditions":[{"type":"Ready","status":"True",
                              "lastTransitionTime":"2026-11-30T00:00:00Z","reason":"SuccessfulCreateOrUpdate"}]})"));
       },
       nullptr,
       [](const outcome& o, const memory_broker& b) {
         BOOST_TEST(o.writes.empty());
         BOOST_TEST(b.vhosts().contains("v1"));  // declared again, as every reconcile does
       }},
      {"vhost: a missing RabbitmqCluster on a live object requeues after 10 s and writes nothing",
       [] {
         auto s = snap(topo("Vhost", "", R"("name":"v1")"));
         s.cluster = {};
         return s;
       },
       nullptr,
       [](const outcome& o, const memory_broker& b) {
         BOOST_TEST(o.writes.empty());
         BOOST_TEST(b.calls() == 0u);
         BOOST_TEST((o.requeue_after == std::optional(std::chrono::seconds(10))));
       }},
      {"vhost: a missing RabbitmqCluster on a deleting object releases the finalizer without the broker",
       [] {
         auto s = snap(topo("Vhost", std::string(deleted) + with_vhost_fin, R"("name":"v1")"));
         s.cluster = {};
         return s;
       },
       [](memory_broker& b) { (void)b.put_vhost("v1"); },
       [](const outcome& o, const memory_broker& b) {
         BOOST_TEST(!finalizer_written(o, vhost_fin));
         BOOST_TEST(b.vhosts().contains("v1"));
         BOOST_TEST(b.calls() == 1u);  // only the preparation
       }},
      {"vhost: deletion deletes on the broker, then removes the finalizer",
       [] { return snap(topo("Vhost", std::string(deleted) + with_vhost_fin, R"("name":"v1")")); },
       [](memory_broker& b) { (void)b.put_vhost("v1"); },
       [](const outcome& o, const memory_broker& b) {
         BOOST_TEST(o.plan.calls.size() == 1u);
         BOOST_TEST(!b.vhosts().contains("v1"));
         BOOST_TEST(!finalizer_written(o, vhost_fin));
       }},
      {"vhost: deletionPolicy retain skips the broker delete",
       [] {
         return snap(topo("Vhost", std::string(deleted) + with_vhost_fin, R"("name":"v1","deletionPolicy":"retain")"));
       },
       [](memory_broker& b) { (void)b.put_vhost("v1"); },
       [](const outcome& o, const memory_broker& b) {
         BOOST_TEST(o.plan.calls.empty());
         BOOST_TEST(b.vhosts().contains("v1"));
         BOOST_TEST(!finalizer_written(o, vhost_fin));
       }},
      {"vhost: a failed broker delete keeps the finalizer and retries",
       [] { return snap(topo("Vhost", std::string(deleted) + with_vhost_fin, R"("name":"v1")")); },
       [](memory_broker& b) { b.fail_with("connection refused"); },
       [](const outcome& o, const memory_broker&) {
         BOOST_TEST(o.writes.empty());
         BOOST_TEST(o.requeue_after.has_value());
       }},
      {"vhost: a cluster scaled to zero fails the object",
       [] {
         auto s = snap(topo("Vhost", with_vhost_fin, R"("name":"v1")"));
         s.cluster = cluster(0);
         return s;
       },
       nullptr,
       [](const outcome& o, const memory_broker& b) {
         BOOST_TEST(b.calls() == 0u);
         expect_failed(o, "RabbitmqCluster is scaled to zero replicas; waiting for it to scale up");
       }},
      {"user: importCredentialsSecret not found",
       [] { return snap(topo("User", "", R"("importCredentialsSecret":{"name":"imp"})")); }, nullptr,
       [](const outcome& o, const memory_broker& b) {
         BOOST_TEST(finalizer_written(o, user_fin));
         BOOST_TEST(b.calls() == 0u);
         expect_failed(o, R"(secret "imp" not found in namespace "cp")");
       }},
      {"user: importCredentialsSecret without the topology label fails the User",
       [] {
         auto s = snap(topo("User", with_user_fin, R"("importCredentialsSecret":{"name":"imp"})"));
         s.import_secret = secret("cp", "imp", {{"username", "alice"}, {"password", "pw-1"}});
         return s;
       },
       nullptr,
       [](const outcome& o, const memory_broker& b) {
         BOOST_TEST(b.calls() == 0u);
         expect_failed(o, R"(secret "imp" must have label rabbitmq.com/topology-operator=true to be used by the Topology Operator)");
       }},
      {"user: labelled import declares the user with its password; the status names the import Secret",
       [] {
         auto s = snap(topo("User", with_user_fin, R"("importCredentialsSecret":{"name":"imp"})"));
         s.import_secret = secret("cp", "imp", {{"username", "alice"}, {"password", "pw-1"}},
                                  {{"rabbitmq.com/topology-operator", "true"}});
         return s;
       },
       nullptr,
       [](const outcome& o, const memory_broker& b) {
         auto u = b.user("alice");
         BOOST_TEST_REQUIRE(u.has_value());
         BOOST_TEST(u->password == "pw-1");
         BOOST_TEST(u->tags == "");
         // As messaging-topology-operator v1.20 (tests/real): no copy of imported credentials,
         // the status names the import Secret, and PasswordSynced comes before Ready.
         for (const auto& w : o.writes) BOOST_TEST((w.verb != write_verb::upsert));
         expect_ready(o);
         auto st = only(o.writes, write_verb::update_status);
         BOOST_TEST(st.get_string({"status", "credentials", "name"}) == "imp");
         BOOST_TEST(st.get_string({"status", "username"}) == "alice");
         auto synced = find_plain_condition(st, "PasswordSynced");
         BOOST_TEST_REQUIRE(synced.has_value());
         BOOST_TEST(synced->reason == "SuccessfulPasswordSync");
         BOOST_TEST(k8s::find((*st.get({"status", "conditions"}))[1], {"message"}) == nullptr);
       }},
      {"user: without an import, a generated user and password",
       [] { return snap(topo("User", with_user_fin, R"("tags":["management"])")); }, nullptr,
       [](const outcome& o, const memory_broker& b) {
         auto creds = only(o.writes, write_verb::upsert);
         const auto name = data_value(creds, "username");
         auto u = b.user(name);
         BOOST_TEST_REQUIRE(u.has_value());
         BOOST_TEST(u->password == data_value(creds, "password"));
         BOOST_TEST(u->tags == "management");
         BOOST_TEST(only(o.writes, write_verb::update_status).get_string({"status", "username"}) == name);
       }},
      {"user: deletion deletes status.username on the broker, then the finalizer",
       [] {
         return snap(topo("User", std::string(deleted) + with_user_fin, "\"tags\":[]", R"({"username":"alice"})"));
       },
       [](memory_broker& b) { (void)b.put_user({"alice", "pw", "", ""}); },
       [](const outcome& o, const memory_broker& b) {
         BOOST_TEST(!b.user("alice").has_value());
         BOOST_TEST(!finalizer_written(o, user_fin));
       }},
      {"permission: the user must exist on the broker first",
       [] { return snap(topo("Permission", with_perm_fin, R"("user":"alice","vhost":"v1","permissions":{"read":".*"})")); },
       [](memory_broker& b) { (void)b.put_vhost("v1"); },
       [](const outcome& o, const memory_broker& b) {
         BOOST_TEST(!b.permissions("v1", "alice").has_value());
         expect_failed(o, R"(Error: API responded with a 400 Bad Request: user "alice" does not exist)");
       }},
      {"permission: granted once vhost and user exist",
       [] {
         return snap(topo("Permission", "", R"("user":"alice","vhost":"v1","permissions":{"configure":".*","write":".*","read":".*"})"));
       },
       [](memory_broker& b) {
         (void)b.put_vhost("v1");
         (void)b.put_user({"alice", "pw", "", ""});
       },
       [](const outcome& o, const memory_broker& b) {
         BOOST_TEST(finalizer_written(o, perm_fin));
         BOOST_TEST((b.permissions("v1", "alice") == std::optional(permission_set{".*", ".*", ".*"})));
         expect_ready(o);
       }},
      {"permission: userReference grants to the User's status.username",
       [] {
         auto s = snap(topo("Permission", with_perm_fin, R"("userReference":{"name":"u"},"vhost":"v1","permissions":{"read":".*"})"));
         s.referenced_user = topo("User", "", "\"tags\":[]", R"({"username":"bob"})");
         return s;
       },
       [](memory_broker& b) {
         (void)b.put_vhost("v1");
         (void)b.put_user({"bob", "pw", "", ""});
       },
       [](const outcome& o, const memory_broker& b) {
         BOOST_TEST((b.permissions("v1", "bob") == std::optional(permission_set{"", "", ".*"})));
         expect_ready(o);
       }},
      {"permission: deletion revokes on the broker, then the finalizer",
       [] { return snap(topo("Permission", std::string(deleted) + with_perm_fin, R"("user":"alice","vhost":"v1")")); },
       [](memory_broker& b) {
         (void)b.put_vhost("v1");
         (void)b.put_user({"alice", "pw", "", ""});
         (void)b.put_permissions("v1", "alice", {".*", ".*", ".*"});
       },
       [](const outcome& o, const memory_broker& b) {
         BOOST_TEST(!b.permissions("v1", "alice").has_value());
         BOOST_TEST(b.user("alice").has_value());
         BOOST_TEST(!finalizer_written(o, perm_fin));
       }},
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(topology_operator)

BOOST_AUTO_TEST_CASE(behaviours) {
  for (const auto& r : rows()) {
    BOOST_TEST_CONTEXT(r.name) {
      memory_broker b;
      if (r.prepare) r.prepare(b);
      r.check(step(r.snapshot(), b), b);
    }
  }
}

BOOST_AUTO_TEST_CASE(finalizer_names) {
  BOOST_TEST(topology_finalizer(topology_kind::vhost) == "deletion.finalizers.vhosts.rabbitmq.com");
  BOOST_TEST(topology_finalizer(topology_kind::user) == "deletion.finalizers.users.rabbitmq.com");
  BOOST_TEST(topology_finalizer(topology_kind::permission) == "deletion.finalizers.permissions.rabbitmq.com");
}

BOOST_AUTO_TEST_SUITE_END()
