// The KeystoneApplicationCredential order against the Keystone order hosts
// of tests/keystone_actor/keystone_fixture.hpp (the in-memory Keystone, or a
// real one given by URL): what its tests read of the order, its children and
// Keystone, and the scenario both tests run.
#pragma once

#include "actors/c5c3/keystoneapplicationcredential/spec.hpp"
#include "tests/keystone_actor/keystone_fixture.hpp"
#include "tests/require_eventually.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>

namespace c5c3::testing {

namespace kac = c5c3::keystoneapplicationcredential;

inline const k8s::gvk credential_gvk{"c5c3.io", "v1alpha1", "KeystoneApplicationCredential"};
inline const std::string orders_ns = "tenant-a";
inline const std::string credential_label = std::string(kac::label_name);

struct appcred_fixture : keystone_fixture {
  explicit appcred_fixture(const real_keystone_options& real = {}) : keystone_fixture(real) {}

  using keystone_fixture::ready;
  using keystone_fixture::reason;
  k8s::object credential_order() const { return get("keystoneapplicationcredentials.c5c3.io", "creds"); }
  // "Reason: message" of the condition of that type ("" none).
  std::string reason(const k8s::object& o, const std::string& type) const {
    auto c = o.find_condition(type);
    return c ? c->reason + ": " + c->message : "";
  }
  std::int64_t status_int(const std::string& field) const {
    return k8s::get_int(credential_order().json(), {"status", field}).value_or(0);
  }
  std::string delivered(const std::string& key) const {
    auto d = k8s::base64_decode(get("secrets", "creds-credentials").get_string({"data", key}));
    return d ? *d : "";
  }
  std::size_t children(const std::string& resource) const {
    std::size_t n = 0;
    for (auto& o : server.list_objects(resource, "openstack"))
      if (o.label(credential_label).value_or("") == "creds") ++n;
    return n;
  }
  // The user's application credentials in Keystone, as the admin lists them:
  // id -> expires_at.
  std::map<std::string, std::string> keystone_credential_list() const {
    std::map<std::string, std::string> out;
    if (auto memory = std::dynamic_pointer_cast<sim::world::memory_identity>(identity)) {
      for (const auto& c : memory->list("application_credentials"))
        out[std::string(c.get_string({"id"}))] = std::string(c.get_string({"expires_at"}));
      return out;
    }
    auto token = identity->send({"POST", "/v3/auth/tokens",
                                 R"({"auth":{"identity":{"methods":["password"],"password":{"user":{"name":"admin",)"
                                 R"("domain":{"name":"Default"},"password":")" +
                                     keystone_admin_password +
                                     R"("}}},"scope":{"project":{"name":"admin","domain":{"name":"Default"}}}}})",
                                 ""});
    const auto user_id = std::string(get("keystoneusers.c5c3.io", "alice").get_string({"status", "userID"}));
    auto reply = identity->send({"GET", "/v3/users/" + user_id + "/application_credentials", "", token.subject_token});
    auto body = k8s::object::parse(reply.body);
    if (const auto* items = body ? body->get({"application_credentials"}) : nullptr; items && items->IsArray())
      for (const auto& c : items->GetArray())
        if (c.HasMember("id") && c["id"].IsString())
          out[c["id"].GetString()] = c.HasMember("expires_at") && c["expires_at"].IsString() ? c["expires_at"].GetString() : "";
    return out;
  }
  std::size_t keystone_credentials() const { return keystone_credential_list().size(); }
  // expires_at of the credential `id` as Keystone reports it, to the second
  // ("YYYY-MM-DDTHH:MM:SS"; "" none).
  std::string keystone_expiry(const std::string& id) const {
    auto all = keystone_credential_list();
    auto it = all.find(id);
    return it == all.end() ? "" : it->second.substr(0, 19);
  }
  // What a client of the cloud gets from the delivered clouds.yaml
  // (tests/pylib/clouds_token.py, keystoneauth1): "ok <project>", "refused",
  // or the error.
  std::string client_token(const std::string& clouds_yaml) const {
    const auto file = dir + "/client-clouds.yaml";
    {
      std::ofstream out(file, std::ios::trunc);
      out << clouds_yaml;
    }
    std::filesystem::permissions(file, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    const std::string src = std::getenv("C5C3_SOURCE_DIR") ? std::getenv("C5C3_SOURCE_DIR") : ".";
    const std::string cmd = "/usr/bin/python3 " + src + "/tests/pylib/clouds_token.py " + file + " 2>&1";
    std::string out;
    if (FILE* p = ::popen(cmd.c_str(), "r")) {
      char buf[512];
      while (std::fgets(buf, sizeof buf, p)) out += buf;
      ::pclose(p);
    }
    std::filesystem::remove(file);
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  }
  // The member role for alice on team through a KeystoneRoleAssignment (the
  // assignment host grants it and reports status.roleID).
  void assign_member_role(const std::string& name = "ra-1") {
    create(R"({"apiVersion":"c5c3.io/v1alpha1","kind":"KeystoneRoleAssignment","metadata":{"name":")" + name +
           R"(","namespace":"tenant-a"},"spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"},)"
           R"("userRef":{"name":"alice"},"projectRef":{"name":"team"},"role":"member"}})");
  }
  // alice, team and the member role of alice on team, then the order "creds"
  // with that rotation schedule, Ready.
  void create_scheduled_credential(const std::string& interval, const std::string& grace_period);
  // The scenario both tests run: NoRoleOnProject until an assignment of the
  // user and project reports its role; Ready with a delivered credential that
  // authenticates in Keystone, scoped to the project; zero requests once
  // converged; credentialGeneration 2 with both credentials valid during the
  // grace period and the old one deleted in Keystone when it ends (the grace
  // timer); the two-phase teardown removing every credential from Keystone
  // and every child.
  void credential_from_order_to_teardown();
};

inline const std::string credential = R"({"apiVersion":"c5c3.io/v1alpha1","kind":"KeystoneApplicationCredential","metadata":{"name":"creds","namespace":"tenant-a"},
  "spec":{"controlPlaneRef":{"name":"cp","namespace":"openstack"},"userRef":{"name":"alice"},"projectRef":{"name":"team"},
          "rotation":{"interval":"1h","gracePeriod":"4s"}}})";

inline void appcred_fixture::create_scheduled_credential(const std::string& interval, const std::string& grace_period) {
  BOOST_TEST_REQUIRE(eventually([&] { return synced(); }));
  create(user_order("alice"));
  create(project_order("team"));
  assign_member_role();
  auto order = parse(credential);
  {
    auto b = order.edit();
    b.set_string({"spec", "rotation", "interval"}, interval);
    b.set_string({"spec", "rotation", "gracePeriod"}, grace_period);
    order = std::move(b).freeze();
  }
  BOOST_TEST_REQUIRE(world->create(order).ok());
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return ready(credential_order()); }, 90),
                          reason(credential_order(), "CredentialReady") << " / "
                                                                        << reason(credential_order(), "DeliveryReady"));
  BOOST_TEST_REQUIRE(status_int("credentialGeneration") == 1);
}

inline void appcred_fixture::credential_from_order_to_teardown() {
  BOOST_TEST_REQUIRE(eventually([&] { return synced(); }));
  create(user_order("alice"));
  create(project_order("team"));
  create(credential);

  BOOST_TEST_CONTEXT("no role on the project: NoRoleOnProject, nothing minted") {
    C5C3_REQUIRE_EVENTUALLY(eventually([&] {
                              return reason(credential_order(), "CredentialReady").starts_with("NoRoleOnProject");
                            }, 90),
                            reason(credential_order(), "CredentialReady"));
    BOOST_TEST(reason(credential_order(), "DeliveryReady").starts_with("WaitingForCredential"));
    BOOST_TEST(children("applicationcredentials.openstack.k-orc.cloud") == 0u);
  }

  assign_member_role();
  C5C3_REQUIRE_EVENTUALLY(eventually([&] { return ready(credential_order()); }, 90),
                          reason(credential_order(), "CredentialReady") << " / "
                                                                        << reason(credential_order(), "DeliveryReady"));
  const auto first_id = std::string(credential_order().get_string({"status", "credentialID"}));
  const auto first_secret = delivered("application_credential_secret");
  const auto first_clouds = delivered("clouds.yaml");
  BOOST_TEST_CONTEXT("Ready: a delivered credential that authenticates, scoped to the project") {
    BOOST_TEST(status_int("credentialGeneration") == 1);
    BOOST_TEST(delivered("application_credential_id") == first_id);
    BOOST_TEST(delivered("clouds.yaml").find("v3applicationcredential") != std::string::npos);
    BOOST_TEST(delivered("clouds.yaml").find(first_id) != std::string::npos);
    auto [status, project] = authenticate(first_id, first_secret);
    BOOST_TEST(status == 201);
    BOOST_TEST(project == "team");
    BOOST_TEST(keystone_credentials() == 1u);
    const auto expires = std::string(credential_order().get_string({"status", "credentialExpiresAt"}));
    BOOST_TEST(!expires.empty());
    BOOST_TEST(keystone_expiry(first_id) == expires.substr(0, 19), "the expiry Keystone reports is credentialExpiresAt");
    if (!keystone)  // a real Keystone: the delivered document as a client of the cloud uses it
      BOOST_TEST(client_token(delivered("clouds.yaml")) == "ok team");
    BOOST_TEST(!credential_order().get_string({"status", "nextRotation"}).empty());
  }

  BOOST_TEST_CONTEXT("a converged order makes zero API requests") {
    quiet();
    BOOST_TEST(no_requests_for(*operator_requests, 2s));
  }

  BOOST_TEST_CONTEXT("credentialGeneration 2: both valid during the grace period, then the old one deleted") {
    BOOST_TEST_REQUIRE(world->merge_patch(credential_gvk, orders_ns, "creds", R"({"spec":{"credentialGeneration":2}})").ok());
    C5C3_REQUIRE_EVENTUALLY(eventually([&] { return status_int("credentialGeneration") == 2; }),
                            reason(credential_order(), "CredentialReady"));
    const auto second_id = std::string(credential_order().get_string({"status", "credentialID"}));
    BOOST_TEST(second_id != first_id);
    BOOST_TEST(credential_order().get_string({"status", "previousCredentialID"}) == first_id);
    BOOST_TEST_REQUIRE(eventually([&] { return delivered("application_credential_id") == second_id; }));
    if (status_int("previousCredentialGeneration") == 1) {  // the 4 s grace may be over on a loaded machine
      BOOST_TEST(authenticate(first_id, first_secret).first == 201);
    }
    BOOST_TEST(authenticate(second_id, delivered("application_credential_secret")).first == 201);
    if (!keystone) BOOST_TEST(client_token(delivered("clouds.yaml")) == "ok team");
    // The grace timer: the superseded credential goes from Keystone, then its children.
    C5C3_REQUIRE_EVENTUALLY(eventually([&] {
      return status_int("previousCredentialGeneration") == 0 && keystone_credentials() == 1u &&
             children("applicationcredentials.openstack.k-orc.cloud") == 1u;
    }), reason(credential_order(), "CredentialReady") << " " << keystone_credentials());
    const auto refused = authenticate(first_id, first_secret).first;  // Keystone no longer knows it
    BOOST_TEST((refused == 401 || refused == 404), refused);
    if (!keystone) {
      const auto old_client = client_token(first_clouds);
      BOOST_TEST(old_client == "refused", "the superseded clouds.yaml no longer works: " << old_client);
    }
    BOOST_TEST(ready(credential_order()));
  }

  BOOST_TEST_CONTEXT("deletion: every credential gone from Keystone, every child gone") {
    BOOST_TEST_REQUIRE(world->remove(credential_gvk, orders_ns, "creds").ok());
    C5C3_REQUIRE_EVENTUALLY(eventually([&] { return !credential_order(); }, 90),
                            reason(credential_order(), "CredentialReady"));
    BOOST_TEST(keystone_credentials() == 0u);
    BOOST_TEST(children("applicationcredentials.openstack.k-orc.cloud") == 0u);
    BOOST_TEST(children("secrets") == 0u);
    BOOST_TEST(children("pushsecrets.external-secrets.io") == 0u);
    BOOST_TEST(!get("secrets", "creds-credentials"));
  }
}

}  // namespace c5c3::testing
