#include "sim/world/external_secrets.hpp"

#include "fixtures.hpp"

#include <fmt/format.h>

#include <functional>

using namespace c5c3::sim::world;
using namespace c5c3::sim::world::test;
namespace k8s = c5c3::k8s;

namespace {

k8s::object push_secret(std::string_view meta = "", std::string_view deletion_policy = "Delete",
                        std::string_view refresh_interval = "1h0m0s", std::string_view status = "{}") {
  return obj(fmt::format(R"({{"apiVersion":"external-secrets.io/v1alpha1","kind":"PushSecret",
    "metadata":{{{}"name":"ps","namespace":"cp","generation":2,"labels":{{"a":"1"}},"annotations":{{"h":"x"}}}},
    "spec":{{"refreshInterval":"{}","deletionPolicy":"{}",
      "secretStoreRefs":[{{"name":"openbao-tenant-store","kind":"SecretStore"}}],
      "selector":{{"secret":{{"name":"src"}}}},
      "data":[{{"match":{{"remoteRef":{{"remoteKey":"kv/cp/rmq/v1"}}}}}}]}},
    "status":{}}})",
                         meta, refresh_interval, deletion_policy, status));
}

k8s::object store(std::string_view kind = "SecretStore", std::string_view name = "openbao-tenant-store") {
  return obj(fmt::format(R"({{"apiVersion":"external-secrets.io/v1","kind":"{}","metadata":{{"name":"{}"}},
    "spec":{{"provider":{{"vault":{{}}}}}}}})", kind, name));
}

push_snapshot snap(k8s::object ps) {
  return {std::move(ps), secret("cp", "src", {{"username", "u1"}, {"password", "p1"}, {"transport_url", "rabbit://x"}}),
          {{"SecretStore/openbao-tenant-store", store()}}, t0()};
}

const std::string with_fin = R"("finalizers":["pushsecret.externalsecrets.io/finalizer"],)";
const std::string deleted = R"("deletionTimestamp":"2026-12-01T00:00:00Z",)";

// The status a first push writes, for rows that start from a synced PushSecret.
k8s::object synced_once(k8s::object ps) {
  auto plan = reconcile_push_secret(snap(std::move(ps)));
  return only(plan.after, write_verb::update_status);
}

struct row {
  std::string name;
  std::function<push_snapshot()> snapshot;
  std::function<void(kv_store&)> prepare;
  std::function<void(const push_plan&, const kv_store&)> check;
};

void expect_errored(const push_plan& p, std::string_view message) {
  auto st = only(p.after, write_verb::update_status);
  auto c = find_plain_condition(st, "Ready");
  BOOST_TEST_REQUIRE(c.has_value());
  BOOST_TEST(c->status == "False");
  BOOST_TEST(c->reason == "Errored");
  BOOST_TEST(c->message == message);
  BOOST_TEST(st.get_string({"status", "syncedResourceVersion"}).empty());
}

std::vector<row> rows() {
  return {
      {"Delete policy adds the finalizer before the first push",
       [] { return snap(push_secret()); }, nullptr,
       [](const push_plan& p, const kv_store&) {
         BOOST_TEST(only(p.before, write_verb::update).has_finalizer("pushsecret.externalsecrets.io/finalizer"));
       }},
      {"None policy adds no finalizer",
       [] { return snap(push_secret("", "None")); }, nullptr,
       [](const push_plan& p, const kv_store&) { BOOST_TEST(p.before.empty()); }},
      {"a push writes the whole source Secret to remoteKey and records it",
       [] { return snap(push_secret(with_fin)); }, nullptr,
       [](const push_plan& p, const kv_store& kv) {
         auto e = kv.get("kv/cp/rmq/v1");
         BOOST_TEST_REQUIRE(e.has_value());
         BOOST_TEST(e->size() == 3u);
         BOOST_TEST(e->at("username") == "u1");
         BOOST_TEST(e->at("password") == "p1");
         BOOST_TEST(e->at("transport_url") == "rabbit://x");
         auto st = only(p.after, write_verb::update_status);
         BOOST_TEST(st.get_string({"status", "syncedResourceVersion"}) == push_secret_version(st));
         BOOST_TEST(st.get_string({"status", "syncedResourceVersion"}).substr(0, 2) == "2-");
         BOOST_TEST(st.get_string({"status", "refreshTime"}) == "2026-12-01T00:00:00Z");
         BOOST_TEST(st.get({"status", "syncedPushSecrets", "SecretStore/openbao-tenant-store", "kv/cp/rmq/v1"}) != nullptr);
         auto c = find_plain_condition(st, "Ready");
         BOOST_TEST_REQUIRE(c.has_value());
         BOOST_TEST(c->status == "True");
         BOOST_TEST(c->reason == "Synced");
         BOOST_TEST(c->message == "PushSecret synced successfully");
         BOOST_TEST((p.requeue_after == std::optional<std::chrono::nanoseconds>(std::chrono::hours(1))));
       }},
      {"synced at the current version and within refreshInterval: no push, come back when due",
       [] {
         auto s = snap(synced_once(push_secret(with_fin)));
         s.now += std::chrono::minutes(20);
         return s;
       },
       nullptr,
       [](const push_plan& p, const kv_store& kv) {
         BOOST_TEST(kv.writes() == 0u);
         BOOST_TEST(p.after.empty());
         BOOST_TEST((p.requeue_after == std::optional<std::chrono::nanoseconds>(std::chrono::minutes(40))));
       }},
      {"an annotation change changes the version: pushed again at once",
       [] {
         auto b = synced_once(push_secret(with_fin)).edit();
         b.set_annotation("h", "y");
         auto s = snap(std::move(b).freeze());
         s.now += std::chrono::minutes(1);
         return s;
       },
       nullptr,
       [](const push_plan& p, const kv_store& kv) {
         BOOST_TEST(kv.writes() == 1u);
         auto st = only(p.after, write_verb::update_status);
         BOOST_TEST(st.get_string({"status", "syncedResourceVersion"}) == push_secret_version(st));
         BOOST_TEST(st.get_string({"status", "refreshTime"}) == "2026-12-01T00:01:00Z");
       }},
      {"refreshInterval elapsed: pushed again",
       [] {
         auto s = snap(synced_once(push_secret(with_fin)));
         s.now += std::chrono::hours(1);
         return s;
       },
       nullptr, [](const push_plan&, const kv_store& kv) { BOOST_TEST(kv.writes() == 1u); }},
      {"refreshInterval 0 and synced once: never again without a change",
       [] {
         auto s = snap(synced_once(push_secret(with_fin, "Delete", "0s")));
         s.now += std::chrono::hours(100);
         return s;
       },
       nullptr,
       [](const push_plan& p, const kv_store& kv) {
         BOOST_TEST(kv.writes() == 0u);
         BOOST_TEST(!p.requeue_after.has_value());
       }},
      {"missing source Secret: Errored could not get source secret",
       [] {
         auto s = snap(push_secret(with_fin));
         s.source = {};
         return s;
       },
       nullptr,
       [](const push_plan& p, const kv_store& kv) {
         BOOST_TEST(kv.writes() == 0u);
         expect_errored(p, "could not get source secret");
       }},
      {"missing SecretStore: Errored could not get SecretStore",
       [] {
         auto s = snap(push_secret(with_fin));
         s.stores.clear();
         return s;
       },
       nullptr,
       [](const push_plan& p, const kv_store& kv) {
         BOOST_TEST(kv.writes() == 0u);
         expect_errored(p, R"(could not get SecretStore "openbao-tenant-store", secretstores.external-secrets.io "openbao-tenant-store" not found)");
       }},
      {"deletion with Delete removes the remote keys, then the finalizer",
       [] {
         auto synced = synced_once(push_secret(with_fin));
         auto b = synced.edit();
         b.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
         return snap(std::move(b).freeze());
       },
       [](kv_store& kv) { kv.put("kv/cp/rmq/v1", {{"username", "u1"}}); },
       [](const push_plan& p, const kv_store& kv) {
         BOOST_TEST(!kv.get("kv/cp/rmq/v1").has_value());
         BOOST_TEST_REQUIRE(p.after.size() == 1u);
         BOOST_TEST((p.after[0].verb == write_verb::update));
         BOOST_TEST(!p.after[0].obj.has_finalizer("pushsecret.externalsecrets.io/finalizer"));
       }},
      {"deletion with None keeps the remote keys",
       [] {
         auto synced = synced_once(push_secret(with_fin, "None"));
         auto b = synced.edit();
         b.set_string({"metadata", "deletionTimestamp"}, "2026-12-01T00:00:00Z");
         b.add_finalizer("pushsecret.externalsecrets.io/finalizer");
         return snap(std::move(b).freeze());
       },
       [](kv_store& kv) { kv.put("kv/cp/rmq/v1", {{"username", "u1"}}); },
       [](const push_plan& p, const kv_store& kv) {
         BOOST_TEST(kv.get("kv/cp/rmq/v1").has_value());
         BOOST_TEST(!only(p.after, write_verb::update).has_finalizer("pushsecret.externalsecrets.io/finalizer"));
       }},
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(external_secrets)

BOOST_AUTO_TEST_CASE(push_secret_behaviours) {
  for (const auto& r : rows()) {
    BOOST_TEST_CONTEXT(r.name) {
      kv_store kv;
      if (r.prepare) r.prepare(kv);
      auto plan = reconcile_push_secret(r.snapshot());
      apply_remote(kv, plan.remote);
      r.check(plan, kv);
    }
  }
}

BOOST_AUTO_TEST_CASE(version_is_generation_and_hash_of_labels_and_annotations) {
  auto a = push_secret();
  auto b = a.edit();
  b.set_label("a", "2");
  auto c = a.edit();
  c.set_annotation("h", "z");
  auto d = a.edit();
  d.set_int({"metadata", "generation"}, 3);
  const auto va = push_secret_version(a);
  BOOST_TEST(va == push_secret_version(push_secret()));
  BOOST_TEST(va != push_secret_version(std::move(b).freeze()));
  BOOST_TEST(va != push_secret_version(std::move(c).freeze()));
  auto vd = push_secret_version(std::move(d).freeze());
  BOOST_TEST(vd.substr(0, 2) == "3-");
  BOOST_TEST(vd.substr(2) == va.substr(2));
}

BOOST_AUTO_TEST_CASE(stores_become_ready_valid) {
  for (auto kind : {"SecretStore", "ClusterSecretStore"}) {
    BOOST_TEST_CONTEXT(kind) {
      auto w = reconcile_secret_store(store(kind, "s"), t0());
      BOOST_TEST_REQUIRE(w.has_value());
      BOOST_TEST((w->verb == write_verb::update_status));
      auto c = find_plain_condition(w->obj, "Ready");
      BOOST_TEST_REQUIRE(c.has_value());
      BOOST_TEST(c->status == "True");
      BOOST_TEST(c->reason == "Valid");
      BOOST_TEST(!reconcile_secret_store(w->obj, t0()).has_value());  // converged: nothing to write
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
