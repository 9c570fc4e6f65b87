// The RabbitMQVhost's spec as the reconciler resolves it, its status fields,
// and the names of its children (apis.md 1.3; rabbitmqvhost-reconciler.txt,
// "Child Naming and Placement").
#pragma once

#include "actors/c5c3/rabbitmqvhost/constants.hpp"
#include "k8s/object.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::c5c3::rabbitmqvhost {

struct vhost_spec {
  std::string control_plane_name;
  std::string control_plane_namespace;  // as written; "" means the order's own
  std::int64_t password_generation = 1;  // 0 reads as 1
  duration interval = default_rotation_interval;        // absent: 720h; 0s: the schedule is off
  duration grace_period = default_rotation_grace_period;  // absent: 24h
  std::string deletion_policy = "Retain";                 // "" reads as Retain

  bool schedule_on() const { return interval > duration::zero(); }
  // The topology operator's spelling: "retain" or "delete".
  std::string topology_deletion_policy() const;
};

vhost_spec resolve_spec(const k8s::object& order);

struct vhost_status {
  std::int64_t observed_generation = 0;
  std::string vhost;
  std::string username;
  std::string host;
  std::int32_t port = 0;
  std::int64_t password_generation = 0;
  std::optional<k8s::time_point> last_rotation;
  std::optional<k8s::time_point> next_rotation;
  std::int64_t previous_password_generation = 0;
  std::optional<k8s::time_point> previous_password_delete_at;
  std::string secret_name;
  std::vector<std::string> secret_keys;
  friend bool operator==(const vhost_status&, const vhost_status&) = default;
};

// status.* (conditions aside) of an order.
vhost_status read_status(const k8s::object& order);
// Writes every field of `s` under status (an empty or zero field is removed),
// leaving status.conditions alone.
void write_status(k8s::object_builder& b, const vhost_status& s);

// The order as the steps need it.
struct vhost_order {
  order_ref ref;          // segment "vhost", the kind's label keys
  order_owner owner;      // its uid
  std::int64_t generation = 0;
  vhost_spec spec;
  vhost_status status;
  k8s::object_key control_plane_key;  // the resolved controlPlaneRef
};

// From the order object and the cluster it was seen on.
vhost_order make_vhost_order(const k8s::object& order, std::string_view cluster);
order_ref make_order_ref(std::string_view name, std::string_view namespace_, std::string_view cluster);

// The child names.
struct vhost_names {
  std::string prefix;  // <name>-<8 hex>-vhost-
  std::string order_name;

  explicit vhost_names(const order_ref& ref);
  // The vhost on the broker: the prefix without its -vhost- tail.
  std::string vhost() const;
  std::string vhost_child() const { return prefix + "vhost"; }
  std::string password_prefix() const { return prefix + "password-v"; }
  std::string user_prefix() const { return prefix + "user-v"; }
  std::string permission_prefix() const { return prefix + "permission-v"; }
  std::string password_secret(std::int64_t gen) const;
  std::string user(std::int64_t gen) const;
  std::string permission(std::int64_t gen) const;
  // The broker user of generation N: <vhost>-v<N>.
  std::string broker_user(std::int64_t gen) const;
  std::string source_secret() const { return prefix + "source"; }
  std::string push_secret() const { return prefix + "backup"; }
  // <name>-credentials, in the order's namespace.
  std::string credentials_secret() const { return order_name + std::string(credentials_secret_suffix); }
  // openstack/rabbitmq/<cp ns>/<prefix without the trailing dash>/credentials
  std::string remote_key(std::string_view control_plane_namespace) const;
};

// credentialGenerationOf (actors/c5c3/scaffold/order_ref.hpp).
using ::c5c3::c5c3::generation_of;

}  // namespace c5c3::c5c3::rabbitmqvhost
