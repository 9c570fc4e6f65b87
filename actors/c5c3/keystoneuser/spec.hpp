// The KeystoneUser as the reconciler resolves it (apis.md 1.4): the spec with
// its defaults, the status fields, the child names.
#pragma once

#include "actors/c5c3/keystoneuser/constants.hpp"
#include "actors/c5c3/korc/order_pass.hpp"
#include "k8s/object.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::c5c3::keystoneuser {

struct user_status {
  std::int64_t observed_generation = 0;
  std::string user_id;
  std::int64_t password_generation = 0;
  std::optional<k8s::time_point> last_password_rotation;
  std::string secret_name;
  std::vector<std::string> secret_keys;
  friend bool operator==(const user_status&, const user_status&) = default;
};

user_status read_status(const k8s::object& order);
// Every field of `s` under status (an empty or zero field removed),
// status.conditions left alone.
void write_status(k8s::object_builder& b, const user_status& s);

struct user_order {
  korc::order_identity id;
  std::string user_name;               // spec.userName, else metadata.name
  std::int64_t password_generation = 1;  // spec.passwordGeneration, at least 1
  user_status status;
};
user_order make_user_order(const k8s::object& order, std::string_view cluster);

// The child names: <name>-<8 hex>-user-...
struct user_names {
  std::string prefix;
  std::string order_name;

  explicit user_names(const order_ref& ref);
  std::string user() const { return prefix + "user"; }
  std::string probe() const { return prefix + "user-probe"; }
  std::string password_prefix() const { return prefix + "password-v"; }
  std::string password(std::int64_t gen) const { return password_prefix() + std::to_string(gen); }
  std::string source() const { return prefix + "source"; }
  std::string backup() const { return prefix + "backup"; }
  std::string credentials() const { return order_name + std::string(credentials_secret_suffix); }
  // openstack/keystone/<cp ns>/<prefix without the trailing dash>/service-accounts/credentials
  std::string remote_key(std::string_view control_plane_namespace) const;
};

}  // namespace c5c3::c5c3::keystoneuser
