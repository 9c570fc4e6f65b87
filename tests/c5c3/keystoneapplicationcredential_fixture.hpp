// What a KeystoneApplicationCredential's steps see, for the step and pass
// tests: the order tenant-a/creds of user alice on project team, the
// referenced orders as their own reconcilers leave them, the user's password
// Secret, a role assignment, and the order's K-ORC children in each state.
#pragma once

#include "actors/c5c3/keystoneapplicationcredential/spec.hpp"
#include "actors/c5c3/korc/children.hpp"
#include "actors/c5c3/korc/control_plane.hpp"
#include "tests/c5c3/keystone_world.hpp"

#include <fmt/format.h>

#include <string>

namespace c5c3::test {

namespace kac = ::c5c3::c5c3::keystoneapplicationcredential;

inline const std::string appcred_spec = R"("rotation":{"interval":"1h","gracePeriod":"10m"})";

// A KeystoneUser / KeystoneProject as their reconcilers leave them: Ready,
// the user at password generation `gen`, the project named in Keystone.
inline object ready_user(std::string_view name = "alice", std::int64_t gen = 1,
                         std::string_view cp_json = R"({"name":"cp","namespace":"openstack"})") {
  return keystone_user_object(
      name, fmt::format(R"({{"controlPlaneRef":{}}})", cp_json),
      fmt::format(R"({{"passwordGeneration":{},"userID":"id-{}","conditions":[)"
                  R"({{"type":"UserReady","status":"True","reason":"UserProvisioned","message":"",)"
                  R"("lastTransitionTime":"2026-12-01T00:00:00Z"}},)"
                  R"({{"type":"Ready","status":"True","reason":"AllReady","message":"",)"
                  R"("lastTransitionTime":"2026-12-01T00:00:00Z"}}]}})",
                  gen, name));
}
inline object ready_project(std::string_view name = "team") {
  return keystone_project_object(
      name, "",
      fmt::format(R"({{"projectID":"id-{0}","projectName":"{0}","domainName":"Default","conditions":[)"
                  R"({{"type":"ProjectReady","status":"True","reason":"ProjectProvisioned","message":"",)"
                  R"("lastTransitionTime":"2026-12-01T00:00:00Z"}}]}})",
                  name));
}
inline object assigned(std::string_view name = "ra-1", std::string_view user = "alice",
                       std::string_view project = "team", std::string_view role_id = "role-member") {
  auto b = role_assignment(name, user, project).edit();
  if (!role_id.empty()) b.set_string({"status", "roleID"}, role_id);
  return std::move(b).freeze();
}
// The user's password Secret of generation `gen`, as the KeystoneUser writes it.
inline object user_password(std::int64_t gen = 1, std::string_view value = "user-pw-1", std::string_view user = "alice") {
  auto name = kac::user_children_of(user, "tenant-a", "", gen).password_secret;
  return make_secret("openstack", name, {{"password", std::string(value)}},
                     {{"c5c3.io/keystoneuser-name", std::string(user)},
                      {"c5c3.io/keystoneuser-namespace", "tenant-a"},
                      {"c5c3.io/keystoneuser-cluster", ""}});
}

// The order's K-ORC ApplicationCredential of a generation, as the order
// creates it (unlabelled when `mine` is false), with spec.resource.expiresAt
// when `expires` is given.
inline object credential_child(const kac::credential_order& o, std::int64_t gen, bool mine = true,
                               std::optional<time_point> expires = std::nullopt) {
  kac::credential_names n(o.id.ref);
  auto ac = ::c5c3::c5c3::korc::managed_application_credential(
      n.credential(gen), "openstack", "d", kac::user_children_of("alice", "tenant-a", "", 0).managed_user,
      n.secret(gen), expires, {n.mint_cloud(), "admin"});
  return mine ? labelled(ac, o.id.ref) : ac;
}
inline object value_secret(const kac::credential_order& o, std::int64_t gen, std::string_view value = "") {
  kac::credential_names n(o.id.ref);
  std::map<std::string, std::string> data;
  if (!value.empty()) data["value"] = std::string(value);
  return labelled(make_secret("openstack", n.secret(gen), data), o.id.ref);
}

}  // namespace c5c3::test
