// The KeystoneApplicationCredential as the reconciler resolves it (apis.md
// 1.8): the spec with its defaults, the status fields, the child names.
#pragma once

#include "actors/c5c3/keystoneapplicationcredential/constants.hpp"
#include "actors/c5c3/korc/order_pass.hpp"
#include "actors/c5c3/scaffold/rotation.hpp"
#include "k8s/object.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::c5c3::keystoneapplicationcredential {

struct credential_status {
  std::int64_t observed_generation = 0;
  std::string credential_id;
  std::int64_t credential_generation = 0;
  std::optional<k8s::time_point> credential_expires_at;
  std::optional<k8s::time_point> last_rotation;
  std::optional<k8s::time_point> next_rotation;
  std::string previous_credential_id;
  std::int64_t previous_credential_generation = 0;
  std::optional<k8s::time_point> previous_credential_delete_at;
  std::string secret_name;
  std::vector<std::string> secret_keys;
  friend bool operator==(const credential_status&, const credential_status&) = default;
};

credential_status read_status(const k8s::object& order);
// Every field of `s` under status (an empty or zero field removed),
// status.conditions left alone.
void write_status(k8s::object_builder& b, const credential_status& s);

struct credential_order {
  korc::order_identity id;
  std::string user_ref;     // spec.userRef.name
  std::string project_ref;  // spec.projectRef.name
  // spec.credentialGeneration, at least 1 (keystoneApplicationCredentialGeneration).
  std::int64_t declared_generation = 1;
  rotation_schedule rotation;
  credential_status status;
};
credential_order make_credential_order(const k8s::object& order, std::string_view cluster);

// The child names: <name>-<8 hex>-applicationcredential-...
struct credential_names {
  std::string prefix;
  std::string order_name;

  explicit credential_names(const order_ref& ref);
  std::string mint_cloud() const { return prefix + "mint-cloud"; }
  std::string secret_prefix() const { return prefix + "secret-v"; }
  std::string secret(std::int64_t gen) const { return secret_prefix() + std::to_string(gen); }
  std::string credential_prefix() const { return prefix + "credential-v"; }
  std::string credential(std::int64_t gen) const { return credential_prefix() + std::to_string(gen); }
  std::string source() const { return prefix + "source"; }
  std::string backup() const { return prefix + "backup"; }
  std::string credentials() const { return order_name + std::string(credentials_secret_suffix); }
  // openstack/keystone/<cp ns>/<prefix without the trailing dash>/service-accounts/application-credential
  std::string remote_key(std::string_view control_plane_namespace) const;
};

// The KeystoneUser's children the credential order reads or names (the
// user's own naming, apis.md 1.4): its managed User <user prefix>user and its
// password Secret of a generation.
struct user_children {
  std::string managed_user;
  std::string password_secret;
};
user_children user_children_of(std::string_view user_name, std::string_view namespace_, std::string_view cluster,
                               std::int64_t password_generation);

}  // namespace c5c3::c5c3::keystoneapplicationcredential
