// What every Keystone order shares about K-ORC (apis.md 1.4b, 1.9b, 3.2;
// keystone-orders-reconcilers.txt): Keystone's name folding and the reserved
// names, the outcome reader, the transport-error unlatch, the clouds.yaml
// documents, the reference holds, the references to a user and a project,
// the child builders, the consent gate and the collision probe. One row per
// sentence of the documents.
#include "actors/c5c3/korc/children.hpp"
#include "actors/c5c3/korc/clouds_yaml.hpp"
#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/korc/holds.hpp"
#include "actors/c5c3/korc/names.hpp"
#include "actors/c5c3/korc/outcome.hpp"
#include "actors/c5c3/korc/order_pass.hpp"
#include "actors/c5c3/korc/probe.hpp"
#include "actors/c5c3/korc/references.hpp"
#include "actors/c5c3/korc/unlatch.hpp"
#include "tests/c5c3/keystone_world.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;
using namespace std::chrono_literals;
namespace korc = c5c3::c5c3::korc;

namespace {

const orders::order_ref ref{"alice", "tenant-a", "", "user",
                            {"c5c3.io/keystoneuser-name", "c5c3.io/keystoneuser-namespace",
                             "c5c3.io/keystoneuser-cluster"}};
const std::string managed_name = ref.child_prefix() + "user";
const std::string probe_name = ref.child_prefix() + "user-probe";

object user_child(std::string_view name = managed_name) {
  return make_object("openstack.k-orc.cloud/v1alpha1", "User", "openstack", name);
}

object at_generation(const object& o, std::int64_t gen) {
  auto b = o.edit();
  b.set_int({"metadata", "generation"}, gen);
  return std::move(b).freeze();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(korc_names)

// "compared case- and accent-insensitively" (apis.md 1.4): keystoneNameKey.
BOOST_AUTO_TEST_CASE(folding_rows) {
  struct row {
    const char* a;
    const char* b;
    bool same;
  };
  const row rows[] = {
      {"admin", "admin", true},       {"ADMIN", "admin", true},     {"Admin", "aDmIn", true},
      {"admín", "admin", true},       {"ádmin", "ADMIN", true},     {"Ädmïn", "admin", true},
      {"adm\u0131n", "admin", false},  // dotless i is a letter, not a mark
      {"glance", "glänce", true},      {"nova", "novas", false},    {"neutron-nova", "NEUTRON-NOVA", true},
      {"Ĉinder", "cinder", true},      {"ÅDMIN", "admin", true},    {"admin ", "admin", false},
  };
  for (const auto& r : rows)
    BOOST_TEST_CONTEXT(r.a << " ~ " << r.b) { BOOST_TEST(korc::same_keystone_name(r.a, r.b) == r.same); }
  // Not UTF-8: folded by ASCII case only, never widened onto another name.
  BOOST_TEST(korc::keystone_name_key("ADM\xff") == "adm\xff");
}

BOOST_AUTO_TEST_CASE(reserved_names) {
  auto cp = keystone_control_plane();
  const auto users = korc::reserved_user_names(cp);
  for (auto n : {"admin", "Glance", "placement", "barbican", "neutron", "cinder", "nova", "neutron-nova",
                 "hypervisor-operator", "Nóva"})
    BOOST_TEST_CONTEXT(n) { BOOST_TEST(korc::reserved(n, users)); }
  for (auto n : {"alice", "workflow", "service-nova"}) BOOST_TEST_CONTEXT(n) { BOOST_TEST(!korc::reserved(n, users)); }
  const auto projects = korc::reserved_project_names(cp);
  for (auto n : {"admin", "service-glance", "SERVICE-PLACEMENT", "service-barbican", "service-neutron",
                 "service-cinder", "service-nova", "sérvice-nova"})
    BOOST_TEST_CONTEXT(n) { BOOST_TEST(korc::reserved(n, projects)); }
  for (auto n : {"nova", "team"}) BOOST_TEST_CONTEXT(n) { BOOST_TEST(!korc::reserved(n, projects)); }
  // The admin identity follows spec.korc.adminCredential.
  auto b = cp.edit();
  b.set_string({"spec", "korc", "adminCredential", "userName"}, "root");
  b.set_string({"spec", "korc", "adminCredential", "projectName"}, "ops");
  auto edited = std::move(b).freeze();
  BOOST_TEST(korc::reserved("ROOT", korc::reserved_user_names(edited)));
  BOOST_TEST(!korc::reserved("admin", korc::reserved_user_names(edited)));
  BOOST_TEST(korc::reserved("Ops", korc::reserved_project_names(edited)));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(korc_outcome)

// apis.md 3.2: Available/Progressing with observedGeneration; terminal means
// InvalidConfiguration or UnrecoverableError at the current generation.
BOOST_AUTO_TEST_CASE(outcome_rows) {
  auto u = user_child();
  BOOST_TEST(korc::available_up_to_date(korc_available(u, "id-1")));
  BOOST_TEST(!korc::available_up_to_date(at_generation(korc_available(u, "id-1", 1), 2)));
  BOOST_TEST(!korc::available_up_to_date(korc_pending(u)));
  BOOST_TEST(!korc::available_up_to_date(u));

  BOOST_TEST(korc::terminal_reason(korc_terminal(u, "InvalidConfiguration", "bad")) == "InvalidConfiguration");
  BOOST_TEST(korc::terminal_reason(korc_terminal(u, "UnrecoverableError", "gone")) == "UnrecoverableError");
  BOOST_TEST(korc::terminal_reason(korc_terminal(u, "TransientError", "retrying")).empty());
  // A terminal condition of an older generation is not this generation's error.
  BOOST_TEST(korc::terminal_reason(korc_terminal(u, "InvalidConfiguration", "bad", 2, 1)).empty());
  BOOST_TEST(*korc::terminal_error(korc_terminal(u, "InvalidConfiguration", "bad")) == "bad");
  BOOST_TEST(!korc::terminal_error(korc_available(u, "id")));

  BOOST_TEST(korc::import_pending_external(korc_created_externally(u)));
  BOOST_TEST(!korc::import_pending_external(korc_pending(u)));
  BOOST_TEST(korc::pending_message(korc_pending(u, "creating the user")) == "creating the user");
  BOOST_TEST(korc::pending_message(u) == "no status from K-ORC yet");

  BOOST_TEST((korc::interpret_probe(korc_available(u, "id")) == korc::probe_verdict::resolved));
  BOOST_TEST((korc::interpret_probe(korc_created_externally(u)) == korc::probe_verdict::absent));
  BOOST_TEST((korc::interpret_probe(korc_pending(u)) == korc::probe_verdict::pending));
  BOOST_TEST((korc::interpret_probe(u) == korc::probe_verdict::pending));
  BOOST_TEST((korc::interpret_probe(korc_terminal(u, "UnrecoverableError", "several matched")) ==
              korc::probe_verdict::pending));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(korc_unlatch)

// classifyKORCMessage: the documented precedence, most specific first.
BOOST_AUTO_TEST_CASE(classification_rows) {
  struct row {
    const char* message;
    const char* reason;
  };
  const row rows[] = {
      {"No suitable endpoint could be found in the service catalog", "CatalogEndpointMismatch"},
      {"403 identity:create_application_credential", "CredentialDrift"},
      {"dial tcp: x509: certificate signed by unknown authority", "TLSVerificationFailed"},
      {"401 Unauthorized: dial tcp 10.0.0.1:5000", "AuthenticationFailed"},
      {"dial tcp 10.0.0.1:5000: connect: connection refused", "EndpointUnreachable"},
      {"lookup keystone.example: no such host", "EndpointUnreachable"},
      {"read: i/o timeout", "EndpointUnreachable"},
      // A Keystone that went down mid-request, in Go's net/http words.
      {"Post \"http://127.0.0.1:5000/v3/projects\": EOF", "EndpointUnreachable"},
      {"EOF", "EndpointUnreachable"},
      {"Get \"http://127.0.0.1:5000/v3/users\": unexpected EOF", "EndpointUnreachable"},
      {"read tcp 127.0.0.1:40312->127.0.0.1:5000: read: connection reset by peer", "EndpointUnreachable"},
      {"write tcp 127.0.0.1:40312->127.0.0.1:5000: write: broken pipe", "EndpointUnreachable"},
      {"Conflict: a project named NOEOF exists", ""}, {"a project named NOEOF", ""},
      {"Conflict: a project named x exists", ""},
  };
  for (const auto& r : rows) BOOST_TEST_CONTEXT(r.message) { BOOST_TEST(korc::classify_message(r.message) == r.reason); }
}

BOOST_AUTO_TEST_CASE(latched_only_for_transport_invalid_configuration) {
  auto u = with_uid(user_child(), "uid-user");
  BOOST_TEST(korc::transport_latched(korc_terminal(u, "InvalidConfiguration", "dial tcp: connection refused")));
  BOOST_TEST(!korc::transport_latched(korc_terminal(u, "UnrecoverableError", "dial tcp: connection refused")));
  BOOST_TEST(!korc::transport_latched(korc_terminal(u, "InvalidConfiguration", "x509: dial tcp")));
  BOOST_TEST(!korc::transport_latched(korc_terminal(u, "InvalidConfiguration", "401 dial tcp")));
  BOOST_TEST(!korc::transport_latched(korc_terminal(u, "InvalidConfiguration", "quota exceeded")));
  BOOST_TEST(!korc::transport_latched(korc_pending(u, "dial tcp: connection refused")));
}

// The first latch clears at once; later ones wait 30 s plus the uid's jitter;
// an unreadable or future stamp counts as due.
BOOST_AUTO_TEST_CASE(backoff_with_jitter) {
  auto off_a = korc::unlatch_offset("uid-a");
  auto off_b = korc::unlatch_offset("uid-b");
  BOOST_TEST((off_a >= 0s && off_a < 15s));
  BOOST_TEST((off_b >= 0s && off_b < 15s));
  BOOST_TEST((off_a != off_b));
  BOOST_TEST((korc::unlatch_offset("uid-a") == off_a));  // derived, not drawn

  auto u = with_uid(korc_terminal(user_child(), "InvalidConfiguration", "dial tcp: connection refused"), "uid-a");
  BOOST_TEST((korc::unlatch_due_at(u, t0()) == t0()));
  auto stamped = annotated(u, korc::annotation_unlatched_at, "2026-12-01T00:00:00Z");
  auto due = korc::unlatch_due_at(stamped, t0() + 1s);
  BOOST_TEST((due == t0() + std::chrono::duration_cast<std::chrono::system_clock::duration>(30s + off_a)));
  BOOST_TEST((korc::unlatch_due_at(annotated(u, korc::annotation_unlatched_at, "yesterday"), t0()) == t0()));
  BOOST_TEST((korc::unlatch_due_at(annotated(u, korc::annotation_unlatched_at, "2026-12-01T00:05:00Z"), t0()) == t0()));
}

BOOST_AUTO_TEST_CASE(plan_rows) {
  auto latched = with_uid(labelled(korc_terminal(user_child(), "InvalidConfiguration",
                                                 "dial tcp 10.0.0.1:5000: connect: connection refused"),
                                   ref),
                          "uid-a", "42");
  // Not latched: nothing.
  BOOST_TEST((korc::plan_unlatch(korc_available(user_child(), "id"), {}, t0()).step == korc::unlatch_step::not_latched));
  // Due: the status merge patch without Progressing, carrying the
  // resourceVersion, then the stamp; both reported, not failing the pass.
  auto p = korc::plan_unlatch(latched, {}, t0());
  BOOST_TEST((p.step == korc::unlatch_step::clearing));
  BOOST_REQUIRE(p.writes.size() == 2u);
  BOOST_TEST(p.writes[0].describe() == "patch User openstack/" + managed_name + " (status)");
  BOOST_TEST(p.writes[0].report_failure);
  BOOST_TEST(p.writes[0].body.resource_version() == "42");
  auto conds = p.writes[0].body.conditions();
  BOOST_REQUIRE(conds.size() == 1u);
  BOOST_TEST(conds[0].type == "Available");
  BOOST_TEST(p.writes[1].describe() == "patch User openstack/" + managed_name);
  BOOST_TEST(*p.writes[1].body.annotation(korc::annotation_unlatched_at) == "2026-12-01T00:00:00Z");
  // Inside the backoff: waiting, the requeue at the due time.
  auto stamped = annotated(latched, korc::annotation_unlatched_at, "2026-12-01T00:00:00Z");
  auto w = korc::plan_unlatch(stamped, {}, t0() + 10s);
  BOOST_TEST((w.step == korc::unlatch_step::waiting));
  BOOST_TEST(w.writes.empty());
  BOOST_TEST((*w.requeue == 20s + korc::unlatch_offset("uid-a")));
  // A clear refused for good (Forbidden): TransportErrorRetryFailed, naming the object.
  c5c3::runtime::write_failure forbidden{c5c3::runtime::write_cluster::management, "User", "openstack",
                                         managed_name, "status", c5c3::protocol::api_errc::forbidden,
                                         "users.openstack.k-orc.cloud/status is forbidden"};
  auto f = korc::plan_unlatch(latched, {forbidden}, t0());
  BOOST_TEST((f.step == korc::unlatch_step::failed));
  BOOST_TEST(f.writes.empty());
  BOOST_TEST(f.message ==
             "clearing the latched transport error on User openstack/" + managed_name +
                 ": users.openstack.k-orc.cloud/status is forbidden");
  // Conflict, NotFound, 429, 5xx: deferred to the next pass.
  for (auto code : {c5c3::protocol::api_errc::conflict, c5c3::protocol::api_errc::not_found,
                    c5c3::protocol::api_errc::too_many_requests, c5c3::protocol::api_errc::server_error}) {
    auto retry = forbidden;
    retry.code = code;
    auto d = korc::plan_unlatch(latched, {retry}, t0());
    BOOST_TEST((d.step == korc::unlatch_step::deferred));
    BOOST_TEST(d.writes.empty());
  }
  // A failed stamp is not the clear failing.
  auto stamp_failed = forbidden;
  stamp_failed.subresource = "";
  BOOST_TEST((korc::plan_unlatch(latched, {stamp_failed}, t0()).step == korc::unlatch_step::clearing));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(korc_clouds_yaml)

BOOST_AUTO_TEST_CASE(go_quote_rows) {
  struct row {
    const char* in;
    const char* out;
  };
  const row rows[] = {
      {"admin", R"("admin")"},           {"a\"b", R"("a\"b")"},         {"back\\slash", R"("back\\slash")"},
      {"two\nlines", R"("two\nlines")"}, {"tab\there", R"("tab\there")"}, {"\x01", R"("\x01")"},
      {"ünïcode", "\"ünïcode\""},        {"bad\xff", R"("bad\xff")"},    {"- x", R"("- x")"},
      {"*alias", R"("*alias")"},
  };
  for (const auto& r : rows) BOOST_TEST_CONTEXT(r.in) { BOOST_TEST(korc::go_quote(r.in) == r.out); }
}

// korcAuthURL: Managed on the same cluster in-cluster; elsewhere the public
// endpoint, then the gateway, else unpublished; External the authURL.
BOOST_AUTO_TEST_CASE(auth_url_rows) {
  struct row {
    const char* name;
    const char* keystone;
    const char* cluster;
    const char* url;
    const char* endpoint_type;
  };
  const row rows[] = {
      {"managed, management cluster", R"({"publicEndpoint":"https://keystone.example.test"})", "",
       "http://cp-keystone.openstack.svc:5000/v3", "internal"},
      {"managed, target cluster", R"({"publicEndpoint":"https://keystone.example.test"})", "edge-1",
       "https://keystone.example.test", "internal"},
      {"managed, gateway", R"({"gateway":{"hostname":"id.example.test"}})", "edge-1", "https://id.example.test/v3",
       "internal"},
      {"managed, unpublished", "{}", "edge-1", "", "internal"},
      {"managed on edge-1, order there", R"({"targetClusterRef":{"name":"edge-1"}})", "edge-1",
       "http://cp-keystone.openstack.svc:5000/v3", "internal"},
      {"managed on edge-1, order on management", R"({"targetClusterRef":{"name":"edge-1"}})", "", "", "internal"},
      {"external", R"({"mode":"External","external":{"authURL":"https://ks.corp/v3"}})", "", "https://ks.corp/v3",
       "public"},
      {"external, internal interface",
       R"({"mode":"External","external":{"authURL":"https://ks.corp/v3","endpointType":"internal"}})", "edge-1",
       "https://ks.corp/v3", "internal"},
  };
  for (const auto& r : rows) {
    BOOST_TEST_CONTEXT(r.name) {
      auto cp = keystone_control_plane(true, r.keystone);
      BOOST_TEST(korc::auth_url(cp, r.cluster) == r.url);
      BOOST_TEST(korc::endpoint_type(cp) == r.endpoint_type);
    }
  }
}

BOOST_AUTO_TEST_CASE(documents) {
  auto cp = keystone_control_plane();
  BOOST_TEST(korc::build_user_clouds_yaml(cp, "alice", "Default", "pa\"ss", "") ==
             "clouds:\n"
             "  \"admin\":\n"
             "    auth:\n"
             "      auth_url: \"http://cp-keystone.openstack.svc:5000/v3\"\n"
             "      username: \"alice\"\n"
             "      password: \"pa\\\"ss\"\n"
             "      user_domain_name: \"Default\"\n"
             "    region_name: \"RegionOne\"\n"
             "    endpoint_type: internal\n"
             "    identity_api_version: 3\n");
  auto sa = korc::build_service_account_clouds_yaml(cp, "alice", "team", "Default", "pw", "edge-1");
  BOOST_TEST(sa.find("      project_name: \"team\"\n      user_domain_name: \"Default\"\n"
                     "      project_domain_name: \"Default\"\n") != std::string::npos);
  BOOST_TEST(sa.find("auth_url: \"https://keystone.example.test\"") != std::string::npos);
  auto ac = korc::build_app_cred_clouds_yaml(cp, "ac-id", "s3cr3t", "");
  BOOST_TEST(ac.find("      application_credential_id: \"ac-id\"\n      application_credential_secret: \"s3cr3t\"\n"
                     "    auth_type: v3applicationcredential\n") != std::string::npos);
  for (const auto* doc : {&sa, &ac}) {
    BOOST_TEST(doc->find("endpoint_type: internal") != std::string::npos);
    BOOST_TEST(doc->find("interface") == std::string::npos);
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(korc_holds)

BOOST_AUTO_TEST_CASE(hold_rows) {
  std::vector<object> ras{role_assignment("ra-b", "alice", "team"), role_assignment("ra-a", "alice", "other"),
                          role_assignment("ra-c", "bob", "team")};
  std::vector<object> acs{application_credential("ac-1", "alice", "team")};
  auto h = korc::reference_hold(ras, acs, "userRef", "alice", "tenant-a", "user", "why");
  BOOST_TEST(h.held);
  BOOST_TEST(h.reason == "ReferencedByRoleAssignments");
  BOOST_TEST(h.message ==
             "KeystoneRoleAssignment(s) [\"ra-a\" \"ra-b\"] in namespace \"tenant-a\" still reference this user; "
             "delete them first, because deleting the user would take their assignments with it");
  BOOST_TEST((*h.requeue == 1min));
  // The assignments first, then the credential orders.
  auto second = korc::reference_hold({}, acs, "userRef", "alice", "tenant-a", "user", "it is the reason");
  BOOST_TEST(second.reason == "ReferencedByApplicationCredentials");
  BOOST_TEST(second.message ==
             "KeystoneApplicationCredential(s) [\"ac-1\"] in namespace \"tenant-a\" still reference this user; "
             "delete them first, because it is the reason");
  auto project = korc::reference_hold(ras, {}, "projectRef", "team", "tenant-a", "project", "");
  BOOST_TEST(project.message.find("[\"ra-b\" \"ra-c\"]") != std::string::npos);
  BOOST_TEST(!korc::reference_hold(ras, acs, "userRef", "carol", "tenant-a", "user", "").held);
  BOOST_TEST(!korc::reference_hold({}, {}, "userRef", "alice", "tenant-a", "user", "").requeue);
}

// The holds are read only for a deleting order, from the order's cluster and
// namespace, optional; their events wake the order they name.
BOOST_AUTO_TEST_CASE(slots_and_references) {
  auto slots = korc::hold_slots();
  BOOST_REQUIRE(slots.size() == 2u);
  for (const auto& s : slots) {
    BOOST_TEST((s.cluster == c5c3::runtime::cluster_role::order));
    BOOST_TEST((s.ns == c5c3::runtime::namespace_role::order));
    BOOST_TEST(s.optional);
    c5c3::runtime::sense_snapshot snap;
    snap.order = keystone_user_object();
    BOOST_TEST(!s.locate(snap));
    snap.order = terminating(snap.order);
    BOOST_TEST(s.locate(snap).has_value());
  }
  auto refs = korc::hold_references("projectRef");
  BOOST_REQUIRE(refs.size() == 2u);
  BOOST_TEST(refs[0].gvk.kind == "KeystoneRoleAssignment");
  BOOST_TEST(refs[1].gvk.kind == "KeystoneApplicationCredential");
  BOOST_TEST((refs[0].path == std::vector<std::string>{"spec", "projectRef", "name"}));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(korc_probe)

BOOST_AUTO_TEST_CASE(gate_rows) {
  auto cp = keystone_control_plane();
  auto desired = korc::unmanaged_import("User", probe_name, "openstack", "alice",
                                        "cp-domain-default", korc::admin_password_cloud(cp));
  BOOST_TEST(desired.get_string({"spec", "managementPolicy"}) == "unmanaged");
  BOOST_TEST(desired.get_string({"spec", "import", "filter", "name"}) == "alice");
  BOOST_TEST(desired.get_string({"spec", "import", "filter", "domainRef"}) == "cp-domain-default");
  BOOST_TEST(desired.get_string({"spec", "cloudCredentialsRef", "secretName"}) == "cp-admin-password-cloud");
  BOOST_TEST(desired.get_string({"spec", "cloudCredentialsRef", "cloudName"}) == "admin");
  auto probe = labelled(desired, ref);
  auto managed = labelled(user_child(), ref);

  // No probe yet: it is created, the verdict pending.
  auto r = korc::probe_gate({&ref, nullptr, nullptr, desired, true, {}});
  BOOST_TEST(!r.proceed);
  BOOST_TEST((describe(r.writes) == std::vector<std::string>{"create User openstack/" + probe_name}));
  // Pending, resolved (a collision), absent (the probe goes, proceed).
  r = korc::probe_gate({&ref, nullptr, &probe, desired, true, {}});
  BOOST_TEST((!r.proceed && r.verdict == korc::probe_verdict::pending && r.writes.empty()));
  auto found = korc_available(probe, "u-1");
  r = korc::probe_gate({&ref, nullptr, &found, desired, true, {}});
  BOOST_TEST((!r.proceed && r.verdict == korc::probe_verdict::resolved && r.writes.empty()));
  auto free = korc_created_externally(probe);
  r = korc::probe_gate({&ref, nullptr, &free, desired, true, {}});
  BOOST_TEST(r.proceed);
  BOOST_TEST((describe(r.writes) == std::vector<std::string>{"delete User openstack/" + probe_name}));
  // The managed child exists: settled; a leftover probe goes (user) or stays (project).
  r = korc::probe_gate({&ref, &managed, &probe, desired, true, {}});
  BOOST_TEST(r.proceed);
  BOOST_TEST(r.writes.size() == 1u);
  r = korc::probe_gate({&ref, &managed, &probe, desired, false, {}});
  BOOST_TEST((r.proceed && r.writes.empty()));
  // A probe of that name the order did not create is refused.
  auto foreign = make_object("openstack.k-orc.cloud/v1alpha1", "User", "openstack", probe_name);
  r = korc::probe_gate({&ref, nullptr, nullptr, desired, true, {foreign}});
  BOOST_TEST(!r.proceed);
  BOOST_TEST(r.refusal.find("refusing to adopt pre-existing User") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(korc_references_and_builders)

// The assignment's hold: a credential order with the same user and project.
BOOST_AUTO_TEST_CASE(credential_hold_rows) {
  std::vector<object> acs{application_credential("ac-2", "alice", "team"), application_credential("ac-1", "alice", "team"),
                          application_credential("ac-3", "alice", "other"), application_credential("ac-4", "bob", "team")};
  auto h = korc::credential_hold(acs, "alice", "team", "tenant-a");
  BOOST_TEST(h.held);
  BOOST_TEST(h.reason == "ReferencedByApplicationCredentials");
  BOOST_TEST(h.message.starts_with(
      R"(KeystoneApplicationCredential(s) ["ac-1" "ac-2"] in namespace "tenant-a" have the user "alice" and the project "team" of this assignment)"));
  BOOST_TEST((*h.requeue == 1min));
  BOOST_TEST(!korc::credential_hold(acs, "carol", "team", "tenant-a").held);
  auto slot = korc::application_credential_hold_slot();
  BOOST_TEST(slot.id == "referencing_application_credentials");
  BOOST_TEST(slot.gvk.kind == "KeystoneApplicationCredential");
}

// The reference slots read a live order's user and project by name, on its
// cluster and in its namespace; same_user_and_project is a compound key.
BOOST_AUTO_TEST_CASE(reference_slots_and_keys) {
  auto slots = korc::reference_slots();
  BOOST_REQUIRE(slots.size() == 2u);
  c5c3::runtime::sense_snapshot snap;
  snap.order = role_assignment("ra", "alice", "team");
  BOOST_TEST(slots[0].id == "user");
  BOOST_TEST(slots[0].locate(snap)->name == "alice");
  BOOST_TEST(slots[1].locate(snap)->name == "team");
  BOOST_TEST((slots[0].cluster == c5c3::runtime::cluster_role::order));
  BOOST_TEST((slots[0].ns == c5c3::runtime::namespace_role::order));
  BOOST_TEST(slots[0].optional);
  snap.order = terminating(snap.order);
  BOOST_TEST(!slots[0].locate(snap));
  auto shared = korc::same_user_and_project(korc::application_credential_gvk());
  BOOST_TEST(shared.path.empty());
  BOOST_TEST((shared.shared == std::vector<std::vector<std::string>>{{"spec", "userRef", "name"},
                                                                     {"spec", "projectRef", "name"}}));
  BOOST_TEST(!shared.passes);
}

// The K-ORC children the assignment and the catalog entry write.
BOOST_AUTO_TEST_CASE(builders) {
  const korc::cloud_credentials creds{"cp-admin-password-cloud", "admin"};
  auto role = korc::unmanaged_import_filtered("Role", "x-role", "openstack", {{"name", "member"}}, creds);
  BOOST_TEST(role.get_string({"spec", "managementPolicy"}) == "unmanaged");
  BOOST_TEST(role.get_string({"spec", "import", "filter", "name"}) == "member");
  BOOST_TEST(!role.get({"spec", "import", "filter", "domainRef"}));
  // The user's and project's import is the same builder with the domain.
  auto probe = korc::unmanaged_import("User", "p", "openstack", "alice", "cp-domain-default", creds);
  BOOST_TEST(probe.get_string({"spec", "import", "filter", "domainRef"}) == "cp-domain-default");
  auto ra = korc::managed_role_assignment("x-assignment", "openstack", "x-role", "u-user", "p-project", creds);
  BOOST_TEST(ra.kind() == "RoleAssignment");
  BOOST_TEST(ra.get_string({"spec", "managementPolicy"}) == "managed");
  BOOST_TEST(ra.get_string({"spec", "resource", "roleRef"}) == "x-role");
  BOOST_TEST(ra.get_string({"spec", "resource", "userRef"}) == "u-user");
  BOOST_TEST(ra.get_string({"spec", "resource", "projectRef"}) == "p-project");
  BOOST_TEST(ra.get_string({"spec", "cloudCredentialsRef", "cloudName"}) == "admin");
  auto svc = korc::managed_service("x-service", "openstack", "designate", "dns", creds);
  BOOST_TEST(svc.get_string({"spec", "resource", "type"}) == "dns");
  BOOST_TEST(svc.get({"spec", "resource", "enabled"})->GetBool());
  auto ep = korc::managed_endpoint("x-endpoint-public", "openstack", "public", "https://d/v2", "x-service", "x-region", creds);
  BOOST_TEST(ep.get_string({"spec", "resource", "interface"}) == "public");
  BOOST_TEST(ep.get_string({"spec", "resource", "regionRef"}) == "x-region");
  BOOST_TEST(ep.get_string({"spec", "resource", "serviceRef"}) == "x-service");
}

// A kind's consent check runs right after admission and before the
// finalizer; it never runs for an order admission refuses.
BOOST_AUTO_TEST_CASE(consent_between_admission_and_the_finalizer) {
  auto cp = keystone_control_plane();
  auto order = keystone_user_object("alice", "", "{}", false);
  auto id = korc::identity_of(order, "", "user", {"a", "b", "c"});
  int asked = 0;
  korc::consent_check refuse = [&](const orders::namespace_assignment& e) -> std::optional<korc::gate_stop> {
    ++asked;
    BOOST_TEST(e.namespace_ == "tenant-a");
    return korc::gate_stop{korc::pass_stage::refused_admission, "Nope", "no consent", 1min};
  };
  auto stop = korc::order_gates(id, order, &cp, "c5c3.io/keystoneuser-teardown", refuse);
  BOOST_REQUIRE(stop);
  BOOST_TEST(stop->reason == "Nope");
  BOOST_TEST(asked == 1);
  stop = korc::order_gates(id, order, nullptr, "c5c3.io/keystoneuser-teardown", refuse);
  BOOST_TEST(stop->reason == "ControlPlaneNotFound");
  BOOST_TEST(asked == 1);
  stop = korc::order_gates(id, order, &cp, "c5c3.io/keystoneuser-teardown", {});
  BOOST_TEST((stop->stage == korc::pass_stage::add_finalizer));
}

BOOST_AUTO_TEST_SUITE_END()
