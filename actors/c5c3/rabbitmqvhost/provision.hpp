// provisionVhost (rabbitmqvhost-reconciler.txt, "Vhost provisioning"): the
// Vhost CR, the user generations and the rotation schedule, as a pure function
// of what the order sees. It writes VhostReady.
#pragma once

#include "actors/c5c3/rabbitmqvhost/spec.hpp"
#include "actors/c5c3/scaffold/child_write.hpp"
#include "actors/c5c3/scaffold/crypto.hpp"
#include "actors/c5c3/scaffold/secret_store.hpp"
#include "k8s/object.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::c5c3::rabbitmqvhost {

// Which topology kinds the management cluster serves (the discovery probe).
struct topology_kinds_served {
  bool vhost = true;
  bool user = true;
  bool permission = true;
};

struct provision_snapshot {
  const vhost_order* order = nullptr;
  std::string control_plane_namespace;  // where every child lives
  std::string control_plane_name;
  std::string rabbitmq_cluster;  // spec.infrastructure.messaging.clusterRef.name
  secret_store_state store;
  topology_kinds_served served;
  // The Vhost of the child's name (null: none); any object of that name, so a
  // foreign one is refused.
  const k8s::object* vhost = nullptr;
  // Listed in the ControlPlane's namespace by the order's labels.
  std::vector<k8s::object> users;
  std::vector<k8s::object> permissions;
  std::vector<k8s::object> secrets;
  // Objects the actor read by name after a create found the name taken.
  std::vector<k8s::object> read_by_name;
  k8s::time_point now;
  random_source random;
};

// The order's generation children, keyed by generation: only objects it owns
// whose names carry its prefix and a generation.
struct vhost_generations {
  std::map<std::int64_t, k8s::object> users;
  std::map<std::int64_t, k8s::object> permissions;
  std::map<std::int64_t, k8s::object> secrets;
};
vhost_generations key_generations(const vhost_order& order, const provision_snapshot& s);

// vhostDesiredGeneration: the generation the pass works toward.
std::int64_t vhost_desired_generation(const vhost_order& order, const vhost_generations& children,
                                      k8s::time_point now);

// vhostNextRotation: lastRotation plus the interval; none with the schedule
// off or before the first generation.
std::optional<k8s::time_point> vhost_next_rotation(const vhost_spec& spec, const vhost_status& status);

struct provision_plan {
  std::vector<child_write> writes;
  vhost_status status;      // the order's status after the step
  k8s::condition vhost_ready;
  c5c3::requeue requeue;
  // A user generation is live (status.passwordGeneration > 0): delivery runs.
  bool live = false;
};

provision_plan provision_vhost(const provision_snapshot& s);

}  // namespace c5c3::c5c3::rabbitmqvhost
