// The simulated world's driver: level-triggered passes over every simulated
// kind through a small synchronous API (world_api). Each pass gathers each
// object's snapshot, runs its pure step, writes what the step returns, runs
// the broker calls and the key-value writes, and answers when to come back.
//
// Wiring to a Kubernetes client (`c5c3-sim world --kubeconfig FILE`): implement
// world_api over k8s/client (blocking on its callbacks from the driver's own
// thread), install the CRDs of sim/crds when the kinds are not served, and call
// pass() on every watch event of the kinds in simulated_kinds() (and of
// Secrets) and when next_pass elapses.
#pragma once

#include "sim/world/broker.hpp"
#include "sim/world/cluster_operator.hpp"
#include "sim/world/control_plane_world.hpp"
#include "sim/world/identity.hpp"
#include "sim/world/keystone_session.hpp"
#include "sim/world/korc_step.hpp"
#include "sim/world/kv_store.hpp"
#include "sim/world/world_object.hpp"

#include <chrono>
#include <functional>
#include <map>
#include <tuple>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace c5c3::sim::world {

// What the driver needs of an API server.
class world_api {
 public:
  virtual ~world_api() = default;
  // Every object of `kind` ("" namespace: all namespaces, or cluster-scoped).
  virtual std::vector<k8s::object> list(const k8s::gvk& kind) = 0;
  // The object, or an empty object when it does not exist.
  virtual k8s::object get(const k8s::gvk& kind, std::string_view ns, std::string_view name) = 0;
  // Sends `w`; answers the object the server stored (empty when it is gone,
  // e.g. its last finalizer was removed) or the error text.
  struct write_result {
    k8s::object obj;
    std::optional<std::string> error;
  };
  virtual write_result write(const object_write& w) = 0;
};

// The kinds the world simulates.
const std::vector<k8s::gvk>& simulated_kinds();
k8s::gvk secret_kind();
// Kinds the world reads when they are served, and does without otherwise (the
// c5c3.io ControlPlane, whose CRD is the operator's).
const std::vector<k8s::gvk>& optional_kinds();
k8s::gvk control_plane_kind();

struct world_options {
  // Where every RabbitmqCluster's vhosts, users and permissions go (a
  // memory_broker, or a management_broker for a real RabbitMQ).
  std::shared_ptr<broker> rabbitmq;
  // With a real broker: the address and administrator reported as every
  // cluster's default user.
  std::optional<real_broker_endpoint> real_broker;
  // The key-value store standing in for OpenBao.
  std::shared_ptr<kv_store> openbao;
  std::function<k8s::time_point()> clock = [] { return k8s::clock::now(); };
  random_source random = system_random();
  // Reports a failed write or broker call (never carrying a secret).
  std::function<void(const std::string&)> log;
  // false: leave Vhosts, Users and Permissions to a real messaging topology
  // operator (`c5c3-sim world --no-topology-operator`); the RabbitmqClusters,
  // External Secrets and the broker's default user stay simulated.
  bool topology_operator = true;
  // The Keystone K-ORC talks to: a memory_identity (the default, made when
  // null) or an http_identity for a real one.
  std::shared_ptr<identity_service> identity;
  // The admin of that Keystone, for the admin password cloud Secrets. With a
  // memory_identity an empty password is taken from it.
  keystone_admin admin;
  korc_timing korc;
  // The longest wait before a K-ORC object whose call failed transiently is
  // tried again (doubling from 1 s), as K-ORC's rate limiter would.
  std::chrono::seconds korc_max_backoff{30};
};

struct pass_result {
  std::size_t writes = 0;       // API writes made
  std::size_t write_errors = 0;
  std::size_t broker_calls = 0;
  std::size_t identity_calls = 0;  // K-ORC's calls and reads (tokens not counted)
  // The earliest time a step asked to come back (none: only on a change).
  std::optional<k8s::time_point> next_pass;
};

class world {
 public:
  world(world_api& api, world_options opts);
  pass_result pass();

 private:
  // The objects the server answered to this step's earlier writes, so later
  // writes to the same object go on its newest resourceVersion.
  using answered = std::map<std::tuple<std::string, std::string, std::string>, k8s::object>;
  // Whether every write succeeded.
  bool write_all(const std::vector<object_write>& ws, pass_result& r, answered& latest);
  void come_back(pass_result& r, std::chrono::nanoseconds after);
  void clusters(pass_result& r);
  void topology(pass_result& r);
  void secret_stores(pass_result& r);
  void push_secrets(pass_result& r);
  // world_korc.cpp
  void control_planes(pass_result& r);
  void korc(pass_result& r);
  void korc_object(const k8s::object& o, pass_result& r);
  void korc_guards(pass_result& r, const std::vector<k8s::object>& all);

  world_api& api_;
  world_options opts_;
  k8s::time_point now_;
  std::shared_ptr<keystone_sessions> sessions_;
  // Per K-ORC object (uid): what its last step read and when it wants to come
  // back, so an object nothing changed for is not stepped (and Keystone not
  // asked) before then, as K-ORC reconciles on events and requeues only.
  struct korc_memo {
    std::string inputs;  // resourceVersions of the object and what it references
    std::optional<k8s::time_point> due;
    int failures = 0;
  };
  std::map<std::string, korc_memo> korc_memo_;
};

}  // namespace c5c3::sim::world
