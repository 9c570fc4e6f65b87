// The KeystoneApplicationCredential's pure steps (keystone-orders-reconcilers.txt
// "Application credential provisioning"): the three reference gates, the
// generations (credentialChildren, desiredGeneration, pruneStrayGenerations,
// nextRotation), ensureMintCloud and provisionCredential 1-7, one row per
// sentence. Delivery, teardown and the pass: keystoneapplicationcredential_pass_test.cpp.
#include "actors/c5c3/keystoneapplicationcredential/declaration.hpp"
#include "actors/c5c3/keystoneapplicationcredential/gates.hpp"
#include "actors/runtime/reference_index.hpp"
#include "actors/c5c3/keystoneapplicationcredential/generations.hpp"
#include "actors/c5c3/keystoneapplicationcredential/mint_cloud.hpp"
#include "actors/c5c3/keystoneapplicationcredential/provision.hpp"
#include "actors/c5c3/korc/clouds_yaml.hpp"
#include "actors/c5c3/scaffold/order_secret.hpp"
#include "tests/c5c3/keystoneapplicationcredential_fixture.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;
using namespace std::chrono_literals;
namespace korc = c5c3::c5c3::korc;

namespace {

const std::string cp_ns = "openstack";

void expect(const k8s::condition& c, bool status, std::string_view reason) {
  BOOST_TEST(c.is_true() == status);
  BOOST_TEST(c.reason == reason, c.reason << ": " << c.message);
}

object with_status_condition(const object& obj, std::string_view type, bool status, std::string_view reason) {
  auto b = obj.edit();
  auto doc = parse(fmt::format(R"({{"c":[{{"type":"{}","status":"{}","reason":"{}","message":"",)"
                               R"("lastTransitionTime":"2026-12-01T00:00:00Z"}}]}})",
                               type, status ? "True" : "False", reason));
  b.set({"status", "conditions"}, k8s::copy_json(*doc.get({"c"}), b.alloc()));
  return std::move(b).freeze();
}

struct credential_fixture {
  object order = keystone_application_credential_object("creds", "alice", "team", appcred_spec);
  object cp = keystone_control_plane();
  kac::credential_order o = kac::make_credential_order(order, "");
  kac::credential_names n{o.id.ref};
  object user = ready_user();
  object project = ready_project();
  object pw = user_password();
  std::vector<object> credentials;
  std::vector<object> secrets;
  std::vector<c5c3::runtime::write_failure> failures;
  time_point now = t0();

  object mine(const object& obj) const { return labelled(obj, o.id.ref); }
  std::vector<object> read_by_name;
  // The mint document as the order writes it.
  object mint_cloud_secret() const {
    return mine(kac::ensure_mint_cloud({&o, &cp, &user, &project, &pw, nullptr, nullptr}).write->body);
  }
  kac::provision_plan provision() const {
    kac::provision_snapshot s{&o,       &cp, &user, &project,         &pw, nullptr, true, credentials, secrets,
                              read_by_name, failures, now, counting_random()};
    return kac::provision_credential(s);
  }
  // A live generation `gen` in status, minted at `at`.
  void live(std::int64_t gen, time_point at) {
    o.status.credential_generation = gen;
    o.status.credential_id = "ac-" + std::to_string(gen);
    o.status.last_rotation = at;
    o.status.credential_expires_at = at + 1h + 10min;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(keystoneapplicationcredential_gates)

// The user, then the project (roleAssignmentReference.gate), then a role.
BOOST_FIXTURE_TEST_CASE(the_three_reference_gates, credential_fixture) {
  const auto other_cp = ready_user("alice", 1, R"({"name":"other","namespace":"openstack"})");
  const auto user_waiting = with_status_condition(user, "UserReady", false, "WaitingForServiceAccounts");
  const auto project_waiting = with_status_condition(project, "ProjectReady", false, "Progressing");
  const std::vector<object> none, role{assigned()}, unreported{assigned("ra-1", "alice", "team", "")},
      other_project{assigned("ra-1", "alice", "other")}, other_user{assigned("ra-1", "bob", "team")};
  struct row {
    const char* name;
    const object* user;
    const object* project;
    const std::vector<object>* assignments;
    const char* reason;  // "" admitted
    const char* in_message;
  };
  for (const auto& r : std::vector<row>{
           {"no user", nullptr, &project, &role, "UserNotFound", "KeystoneUser tenant-a/alice not found"},
           {"no project", &user, nullptr, &role, "ProjectNotFound", "KeystoneProject tenant-a/team not found"},
           {"both missing: the user first", nullptr, nullptr, &role, "UserNotFound", "alice"},
           {"another ControlPlane", &other_cp, &project, &role, "ControlPlaneMismatch", "openstack/other"},
           {"user not provisioned", &user_waiting, &project, &role, "WaitingForUser", "WaitingForServiceAccounts"},
           {"project not provisioned", &user, &project_waiting, &role, "WaitingForProject", "Progressing"},
           {"no assignment", &user, &project, &none, "NoRoleOnProject", "user \"alice\" on project \"team\""},
           {"no roleID reported", &user, &project, &unreported, "NoRoleOnProject", ""},
           {"another project", &user, &project, &other_project, "NoRoleOnProject", ""},
           {"another user", &user, &project, &other_user, "NoRoleOnProject", ""},
           {"admitted", &user, &project, &role, "", ""},
       }) {
    BOOST_TEST_CONTEXT(r.name) {
      auto g = kac::reference_gates({&o, r.user, r.project, true, true, r.assignments});
      BOOST_TEST(g.passed == (*r.reason == 0));
      BOOST_TEST(!g.requeue.has_value(), "no requeue of its own: the watches bring it back");
      BOOST_TEST(g.reason == r.reason);
      BOOST_TEST(g.message.find(r.in_message) != std::string::npos, g.message);
    }
  }
}

// The watches' update filters: what the gates and the mint document read.
BOOST_AUTO_TEST_CASE(update_filters) {
  auto user = ready_user();
  auto bumped = [](const object& obj, std::string_view field, std::int64_t v) {
    auto b = obj.edit();
    b.set_int({"status", field}, v);
    return std::move(b).freeze();
  };
  auto ra = assigned();
  auto ra_moved = assigned("ra-1", "alice", "team", "role-reader");
  BOOST_TEST(!kac::user_update_passes(user, user));
  BOOST_TEST(kac::user_update_passes(user, bumped(user, "passwordGeneration", 2)));
  BOOST_TEST(kac::user_update_passes(user, with_status_condition(user, "UserReady", false, "X")));
  BOOST_TEST(kac::user_update_passes(user, terminating(user)));
  BOOST_TEST(!kac::user_update_passes(user, bumped(user, "observedGeneration", 7)));
  BOOST_TEST(!kac::role_assignment_update_passes(ra, ra));
  BOOST_TEST(kac::role_assignment_update_passes(ra, ra_moved));
  BOOST_TEST(kac::role_assignment_update_passes(ra, terminating(ra)));
}

// The declaration's references in the host's index: an assignment's
// creation, deletion and status.roleID change wake exactly the credential
// orders of its user and project (not one of the same user on another
// project, nor one of another user on the same project); a status change that
// leaves roleID alone wakes none; the user's password generation wakes the
// orders naming the user.
BOOST_AUTO_TEST_CASE(an_assignment_wakes_the_credentials_of_its_user_and_project) {
  c5c3::runtime::reference_index index(kac::references());
  const c5c3::protocol::order_key creds{"", "tenant-a", "creds"}, same_user{"", "tenant-a", "same-user"},
      same_project{"", "tenant-a", "same-project"}, elsewhere{"", "tenant-b", "elsewhere"};
  index.update(creds, {}, keystone_application_credential_object("creds", "alice", "team", appcred_spec));
  index.update(same_user, {}, keystone_application_credential_object("same-user", "alice", "other", appcred_spec));
  index.update(same_project, {}, keystone_application_credential_object("same-project", "bob", "team", appcred_spec));
  auto far = keystone_application_credential_object("elsewhere", "alice", "team", appcred_spec);
  {
    auto b = far.edit();
    b.set_string({"metadata", "namespace"}, "tenant-b");
    far = std::move(b).freeze();
  }
  index.update(elsewhere, {}, far);
  using keys = std::set<c5c3::protocol::order_key>;
  const auto unreported = assigned("ra-1", "alice", "team", "");
  const auto reported = assigned("ra-1", "alice", "team");
  BOOST_TEST((index.woken_by(unreported, {}, "") == keys{creds}));
  BOOST_TEST((index.woken_by(reported, unreported, "") == keys{creds}));
  BOOST_TEST(index.woken_by(with_status_condition(reported, "Ready", true, "AllReady"), reported, "").empty());
  BOOST_TEST((index.woken_by(reported, {}, "") == keys{creds}));  // its deletion
  BOOST_TEST((index.woken_by(assigned("ra-2", "bob", "team"), {}, "") == keys{same_project}));
  auto user = ready_user();
  auto rotated = user.edit();
  rotated.set_int({"status", "passwordGeneration"}, 2);
  BOOST_TEST((index.woken_by(std::move(rotated).freeze(), user, "") == keys{creds, same_user}));
  BOOST_TEST(index.woken_by(ready_user(), user, "").empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(keystoneapplicationcredential_generations)

// 2. credentialChildren: by the order's labels and prefix, keyed by generation.
BOOST_FIXTURE_TEST_CASE(children_keyed_by_generation, credential_fixture) {
  auto stranger = labelled(credential_child(o, 3), kac::make_credential_order(
                                                       keystone_application_credential_object("other"), "")
                                                       .id.ref);
  auto c = kac::credential_children(
      o, {credential_child(o, 1), credential_child(o, 2, false), stranger},
      {value_secret(o, 1, "v"), mine(make_secret(cp_ns, n.mint_cloud(), {})), mine(make_secret(cp_ns, n.source(), {}))});
  BOOST_TEST(c.credentials.size() == 1u);
  BOOST_TEST(c.credentials.count(1) == 1u);
  BOOST_TEST(c.secrets.size() == 1u);
  BOOST_TEST(c.secrets.count(1) == 1u);
}

// 7. nextRotation: min(lastRotation + interval, credentialExpiresAt - grace).
BOOST_AUTO_TEST_CASE(next_rotation) {
  const c5c3::c5c3::rotation_schedule on{1h, 10min}, off{0s, 10min};
  struct row {
    const char* name;
    c5c3::c5c3::rotation_schedule rotation;
    std::optional<time_point> last, expires, want;
  };
  const auto t = t0();
  for (const auto& r : std::vector<row>{
           {"schedule off", off, t, t + 2h, std::nullopt},
           {"before the first credential", on, std::nullopt, std::nullopt, std::nullopt},
           {"the interval first", on, t, t + 2h, t + 1h},
           {"the expiry first", on, t, t + 30min, t + 20min},
           {"no expiry reported", on, t, std::nullopt, t + 1h},
       }) {
    BOOST_TEST_CONTEXT(r.name) {
      kac::credential_status s;
      s.last_rotation = r.last;
      s.credential_expires_at = r.expires;
      BOOST_TEST((kac::next_rotation(r.rotation, s) == r.want));
    }
  }
}

// 3. desiredGeneration, every clause.
BOOST_FIXTURE_TEST_CASE(desired_generation, credential_fixture) {
  struct row {
    const char* name;
    std::int64_t declared, live;
    std::vector<std::int64_t> listed;  // credential generations listed
    std::int64_t terminal = 0;         // the one K-ORC failed terminally
    bool secret_lost = false;
    bool in_grace = false;
    time_point at;
    std::int64_t want;
    std::int64_t lapsed = 0;  // the one listed with spec.resource.expiresAt t + 1h
  };
  const auto t = t0();
  for (const auto& r : std::vector<row>{
           {"the declared one before the first", 3, 0, {}, 0, false, false, t, 3},
           {"the live one, nothing due", 1, 1, {1}, 0, false, false, t + 5min, 1},
           {"the next one: declared higher", 2, 1, {1}, 0, false, false, t, 2},
           {"the declared one when it jumps", 5, 1, {1}, 0, false, false, t, 5},
           {"the next one: the schedule is due", 1, 1, {1}, 0, false, false, t + 1h, 2},
           {"the next one: expired", 1, 1, {1}, 0, false, false, t + 1h + 10min, 2},
           {"the next one: the secret is lost", 1, 1, {1}, 0, true, false, t, 2},
           {"the highest in flight", 1, 1, {1, 2, 3}, 0, false, false, t, 3},
           {"a terminal one until a higher is declared", 2, 1, {1, 2}, 2, false, false, t, 2},
           {"a higher one declared past a terminal one", 3, 1, {1, 2}, 2, false, false, t, 3},
           {"no rotation during a grace period", 4, 1, {1}, 0, false, true, t + 2h, 1},
           // Keystone refuses an expiry in the past and K-ORC keeps the
           // resource immutable: the next generation above the expired one.
           {"one in flight before its expiry", 1, 1, {1, 2}, 0, false, false, t + 59min, 2, 2},
           {"one in flight past its expiry is given up", 1, 1, {1, 2}, 0, false, false, t + 1h, 3, 2},
           {"a declared one above an expired one", 5, 1, {1, 2}, 0, false, false, t + 1h, 5, 2},
           {"declared as the expired one: the next", 2, 1, {1, 2}, 0, false, false, t + 1h, 3, 2},
           {"a higher one in flight past an expired one", 1, 1, {1, 2, 3}, 0, false, false, t + 1h, 3, 2},
           {"an expired terminal one", 2, 1, {1, 2}, 2, false, false, t + 1h, 3, 2},
       }) {
    BOOST_TEST_CONTEXT(r.name) {
      o = kac::make_credential_order(keystone_application_credential_object(
                                         "creds", "alice", "team",
                                         appcred_spec + fmt::format(R"(,"credentialGeneration":{})", r.declared)),
                                     "");
      if (r.live > 0) live(r.live, t);
      if (r.in_grace) o.status.previous_credential_delete_at = t + 3h;
      kac::credential_generations c;
      for (auto g : r.listed) {
        auto ac = credential_child(o, g, true, g == r.lapsed ? std::optional<time_point>(t + 1h) : std::nullopt);
        c.credentials.emplace(g, g == r.terminal ? korc_terminal(ac, "InvalidConfiguration", "bad") : ac);
      }
      if (r.live > 0 && !r.secret_lost) c.secrets.emplace(r.live, value_secret(o, r.live, "s"));
      BOOST_TEST(kac::desired_generation(o, c, r.at) == r.want);
    }
  }
}

// 4. pruneStrayGenerations: all but the live one, the superseded one in its
// grace period and the one worked toward; a terminating one is left alone.
BOOST_FIXTURE_TEST_CASE(prune_stray_generations, credential_fixture) {
  live(3, now);
  o.status.previous_credential_generation = 2;
  o.status.previous_credential_delete_at = now + 10min;
  kac::credential_generations c;
  for (std::int64_t g : {1, 2, 3, 4, 5}) {
    c.credentials.emplace(g, g == 5 ? terminating(credential_child(o, g)) : credential_child(o, g));
    c.secrets.emplace(g, value_secret(o, g, "s"));
  }
  auto writes = kac::prune_stray_generations(o, c, 4);
  BOOST_TEST((describe(writes) == std::vector<std::string>{
                  "delete ApplicationCredential openstack/" + n.credential(1),
                  "delete Secret openstack/" + n.secret(1), "delete Secret openstack/" + n.secret(5)}));
  o.status.previous_credential_delete_at.reset();
  BOOST_TEST(kac::prune_stray_generations(o, c, 3).size() == 7u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(keystoneapplicationcredential_provision)

// 1. ensureMintCloud: its waits, then the project-scoped password cloud of
// the user's current password, following a rotation of it.
BOOST_FIXTURE_TEST_CASE(the_mint_document, credential_fixture) {
  auto run = [&](const object* ca = nullptr, const object* live_doc = nullptr) {
    return kac::ensure_mint_cloud({&o, &cp, &user, &project, &pw, ca, live_doc});
  };
  auto unnamed = ready_project();
  {
    auto b = unnamed.edit();
    b.remove({"status", "projectName"});
    unnamed = std::move(b).freeze();
  }
  auto r = kac::ensure_mint_cloud({&o, &cp, &user, &unnamed, &pw, nullptr, nullptr});
  BOOST_TEST(!r.ready);
  BOOST_TEST(r.reason == "WaitingForProject");
  auto empty = user_password(1, "");
  r = kac::ensure_mint_cloud({&o, &cp, &user, &project, &empty, nullptr, nullptr});
  BOOST_TEST(r.reason == "WaitingForUser");
  BOOST_TEST(r.message.find("Secret openstack/" + kac::user_children_of("alice", "tenant-a", "", 1).password_secret) !=
             std::string::npos);
  BOOST_TEST((r.requeue == std::optional<std::chrono::nanoseconds>(10s)));

  r = run();
  BOOST_TEST_REQUIRE(r.ready);
  BOOST_TEST_REQUIRE(r.write.has_value());
  BOOST_TEST(r.write->describe() == "create Secret openstack/" + n.mint_cloud());
  const auto want = korc::build_service_account_clouds_yaml(cp, "alice", "team", korc::admin_domain_name(cp),
                                                            "user-pw-1", "");
  BOOST_TEST(*orders::secret_value(r.write->body, "clouds.yaml") == want);
  BOOST_TEST(!orders::secret_value(r.write->body, "cacert"));

  // Up to date: nothing written; a password rotation rewrites it.
  auto doc = mine(r.write->body);
  r = run(nullptr, &doc);
  BOOST_TEST(!r.write.has_value());
  user = ready_user("alice", 2);
  pw = user_password(2, "user-pw-2");
  r = run(nullptr, &doc);
  BOOST_TEST_REQUIRE(r.write.has_value());
  BOOST_TEST(orders::secret_value(r.write->body, "clouds.yaml")->find("user-pw-2") != std::string::npos);
}

// 1. An External Keystone's CA bundle: WaitingForCABundle, then cacert.
BOOST_FIXTURE_TEST_CASE(the_ca_bundle, credential_fixture) {
  cp = keystone_control_plane(true, R"({"mode":"External","external":{"authURL":"https://id.example.test/v3",)"
                                    R"("caBundleSecretRef":{"name":"keystone-ca"}}})");
  auto r = kac::ensure_mint_cloud({&o, &cp, &user, &project, &pw, nullptr, nullptr});
  BOOST_TEST(r.reason == "WaitingForCABundle");
  BOOST_TEST(r.message.find("Secret openstack/keystone-ca, key ca.crt") != std::string::npos, r.message);
  auto ca = make_secret(cp_ns, "keystone-ca", {{"ca.crt", "PEM"}});
  r = kac::ensure_mint_cloud({&o, &cp, &user, &project, &pw, &ca, nullptr});
  BOOST_TEST_REQUIRE(r.write.has_value());
  BOOST_TEST(*orders::secret_value(r.write->body, "cacert") == "PEM");
}

// 5. The first mint: secret-v1 once, credential-v1 created once with the
// expiry; WaitingForCredential until it is Available; then the switch.
BOOST_FIXTURE_TEST_CASE(the_first_generation, credential_fixture) {
  auto p = provision();
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"create Secret openstack/" + n.mint_cloud(),
                                                               "create Secret openstack/" + n.secret(1),
                                                               "create ApplicationCredential openstack/" +
                                                                   n.credential(1)}));
  expect(p.credential_ready, false, "WaitingForCredential");
  const auto& ac = p.writes[2].body;
  BOOST_TEST(ac.get_string({"spec", "resource", "userRef"}) ==
             kac::user_children_of("alice", "tenant-a", "", 0).managed_user);
  BOOST_TEST(ac.get_string({"spec", "resource", "secretRef"}) == n.secret(1));
  BOOST_TEST(ac.get_string({"spec", "resource", "expiresAt"}) == "2026-12-01T01:10:00Z");
  BOOST_TEST(ac.get_string({"spec", "cloudCredentialsRef", "secretName"}) == n.mint_cloud());
  BOOST_TEST(k8s::to_json(*ac.get({"spec", "resource", "unrestricted"})) == "false");
  BOOST_TEST(orders::secret_value(p.writes[1].body, "value")->size() > 16u);

  // Listed, pending: nothing re-applied.
  secrets = {mint_cloud_secret(), mine(p.writes[1].body)};
  credentials = {korc_pending(mine(ac))};
  auto again = provision();
  BOOST_TEST(again.writes.empty());
  expect(again.credential_ready, false, "WaitingForCredential");

  // Available: status switches to it.
  auto minted = korc_resource(korc_available(mine(ac), "ac-1"), "expiresAt", "2026-12-01T01:10:00Z");
  credentials = {minted};
  now = t0() + 30s;
  p = provision();
  expect(p.credential_ready, true, "CredentialMinted");
  BOOST_TEST(p.status.credential_generation == 1);
  BOOST_TEST(p.status.credential_id == "ac-1");
  BOOST_TEST((p.status.last_rotation == now));
  BOOST_TEST((p.status.credential_expires_at == t0() + 1h + 10min));
  // min(now + 1h, expires - 10min) = t0 + 1h.
  BOOST_TEST((p.status.next_rotation == t0() + 1h));
  BOOST_TEST(p.status.previous_credential_generation == 0);
}

// An expiry K-ORC reports in Keystone's own form (no zone) is not read; the
// one the credential was created with stands.
BOOST_FIXTURE_TEST_CASE(an_unreadable_reported_expiry, credential_fixture) {
  auto first = provision();
  secrets = {mint_cloud_secret(), mine(first.writes[1].body)};
  credentials = {korc_resource(korc_available(mine(first.writes[2].body), "ac-1"), "expiresAt",
                               "2026-12-01T01:10:00.000000")};
  auto p = provision();
  BOOST_TEST((p.status.credential_expires_at == t0() + 1h + 10min));
}

// 5-6. A rotation: CredentialReady stays True while the successor is minted;
// the switch starts the grace period; the sweep deletes the superseded one.
BOOST_FIXTURE_TEST_CASE(rotation_and_grace, credential_fixture) {
  live(1, t0());
  secrets = {mint_cloud_secret(), value_secret(o, 1, "s1")};
  credentials = {korc_available(credential_child(o, 1), "ac-1")};
  now = t0() + 1h;  // due
  auto p = provision();
  expect(p.credential_ready, true, "CredentialMinted");
  BOOST_TEST(p.credential_ready.message.find("generation 2 is being minted") != std::string::npos);
  BOOST_TEST_REQUIRE(p.writes.size() >= 2u);
  auto s2 = mine(p.writes[p.writes.size() - 2].body);
  auto ac2 = mine(p.writes.back().body);
  BOOST_TEST(ac2.name() == n.credential(2));
  BOOST_TEST(ac2.get_string({"spec", "resource", "expiresAt"}) == "2026-12-01T02:10:00Z");

  secrets.push_back(s2);
  credentials.push_back(korc_available(ac2, "ac-2"));
  p = provision();
  BOOST_TEST(p.status.credential_generation == 2);
  BOOST_TEST(p.status.previous_credential_generation == 1);
  BOOST_TEST(p.status.previous_credential_id == "ac-1");
  BOOST_TEST((p.status.previous_credential_delete_at == now + 10min));
  BOOST_TEST(p.writes.empty());
  BOOST_TEST((p.requeue == std::optional<std::chrono::nanoseconds>(10min)));

  // The grace period ends: credential-v1 goes, then (no longer listed) its secret.
  o.status = p.status;
  now += 10min;
  p = provision();
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"delete ApplicationCredential openstack/" +
                                                               n.credential(1)}));
  BOOST_TEST(p.status.previous_credential_generation == 1);
  credentials.erase(credentials.begin());
  p = provision();
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"delete Secret openstack/" + n.secret(1)}));
  BOOST_TEST(p.status.previous_credential_generation == 0);
  BOOST_TEST(!p.status.previous_credential_delete_at);
  BOOST_TEST(p.status.previous_credential_id.empty());
}

// A restart between two writes of a rotation mints nothing twice: a listed
// secret-v2 is kept (its value too) and only credential-v2 is created; a
// listed credential-v2 is waited for, and no generation 3 appears.
BOOST_FIXTURE_TEST_CASE(a_restart_mid_rotation_mints_nothing_twice, credential_fixture) {
  live(1, t0());
  o.declared_generation = 2;
  secrets = {mint_cloud_secret(), value_secret(o, 1, "s1"), value_secret(o, 2, "s2")};
  credentials = {korc_available(credential_child(o, 1), "ac-1")};
  auto p = provision();
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{"create ApplicationCredential openstack/" +
                                                               n.credential(2)}));
  credentials.push_back(korc_pending(mine(p.writes[0].body)));
  now = t0() + 1h;  // the schedule is due too (credential-v2 not yet expired): still generation 2
  p = provision();
  BOOST_TEST(p.writes.empty());
  expect(p.credential_ready, true, "CredentialMinted");
  BOOST_TEST(p.status.credential_generation == 1);
}

// 3-5. Under load K-ORC posts credential-v2 only after its expiry has
// passed and Keystone refuses it: that generation is given up and pruned,
// credential-v3 is minted with a fresh expiry, and an expired live credential
// does not read CredentialReady=True (WaitingForCredential) while it is.
BOOST_FIXTURE_TEST_CASE(a_generation_expired_before_minted, credential_fixture) {
  live(1, t0());
  secrets = {mint_cloud_secret(), value_secret(o, 1, "s1"), value_secret(o, 2, "s2")};
  auto ac2 = credential_child(o, 2, true, t0() + 1h + 10min);
  credentials = {korc_available(credential_child(o, 1), "ac-1"), korc_pending(ac2, "The expiration time is in the past")};

  // Before its expiry: worked toward, and the delivered credential stays valid.
  now = t0() + 1h;
  auto p = provision();
  BOOST_TEST(p.writes.empty());
  expect(p.credential_ready, true, "CredentialMinted");

  now = t0() + 1h + 10min;
  p = provision();
  BOOST_TEST((describe(p.writes) == std::vector<std::string>{
                  "delete ApplicationCredential openstack/" + n.credential(2),
                  "delete Secret openstack/" + n.secret(2), "create Secret openstack/" + n.secret(3),
                  "create ApplicationCredential openstack/" + n.credential(3)}));
  BOOST_TEST_REQUIRE(p.writes.size() == 4u);
  BOOST_TEST(p.writes[3].body.get_string({"spec", "resource", "expiresAt"}) == "2026-12-01T02:20:00Z");
  expect(p.credential_ready, false, "WaitingForCredential");
  BOOST_TEST(p.credential_ready.message.find("expired at 2026-12-01T01:10:00Z") != std::string::npos,
             p.credential_ready.message);
  BOOST_TEST(p.credential_ready.message.find("generation 3 is being minted") != std::string::npos,
             p.credential_ready.message);
  BOOST_TEST(p.status.credential_generation == 1);

  // credential-v2 gone, credential-v3 Available: the switch, Ready again.
  credentials = {korc_available(credential_child(o, 1), "ac-1"), korc_available(mine(p.writes[3].body), "ac-3")};
  secrets = {mint_cloud_secret(), value_secret(o, 1, "s1"), mine(p.writes[2].body)};
  p = provision();
  expect(p.credential_ready, true, "CredentialMinted");
  BOOST_TEST(p.status.credential_generation == 3);
  BOOST_TEST(p.status.previous_credential_generation == 1);
  BOOST_TEST((p.status.credential_expires_at == t0() + 2h + 20min));
}

// An expired live credential with no rotation allowed (a grace period runs):
// not ready either.
BOOST_FIXTURE_TEST_CASE(an_expired_live_credential_is_not_ready, credential_fixture) {
  live(2, t0());
  o.status.previous_credential_generation = 1;
  o.status.previous_credential_delete_at = t0() + 3h;
  secrets = {mint_cloud_secret(), value_secret(o, 1, "s1"), value_secret(o, 2, "s2")};
  credentials = {korc_available(credential_child(o, 1), "ac-1"), korc_available(credential_child(o, 2), "ac-2")};
  now = t0() + 1h;
  expect(provision().credential_ready, true, "CredentialMinted");
  now = t0() + 1h + 10min;
  auto p = provision();
  expect(p.credential_ready, false, "WaitingForCredential");
  BOOST_TEST(p.credential_ready.message.find("credential generation 2") != std::string::npos, p.credential_ready.message);
}

// 5. The waits and failures of a mint.
BOOST_FIXTURE_TEST_CASE(failures, credential_fixture) {
  secrets = {mint_cloud_secret(), value_secret(o, 1, "s1")};
  credentials = {korc_terminal(credential_child(o, 1), "InvalidConfiguration", "user has no role")};
  auto p = provision();
  expect(p.credential_ready, false, "CredentialFailed");
  BOOST_TEST(p.credential_ready.message.find("user has no role") != std::string::npos);

  // Not listed (no labels), met by the create.
  credentials.clear();
  read_by_name = {credential_child(o, 1, false)};
  p = provision();
  expect(p.credential_ready, false, "CredentialError");

  kac::provision_snapshot s{&o, &cp, &user, &project, &pw, nullptr, false, {}, {}, {}, {}, now, counting_random()};
  p = kac::provision_credential(s);
  expect(p.credential_ready, false, "CredentialError");
  BOOST_TEST(p.credential_ready.message.find("applicationcredentials.openstack.k-orc.cloud") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
