// The messaging gate (rabbitmqvhost-reconciler.txt, "Reconciliation Flow";
// apis.md 1.3): an order is admitted only onto a managed bus that is up. It
// writes both sub-conditions. No message ever quotes the broker URL or the
// default user's password.
#pragma once

#include "actors/c5c3/scaffold/admission.hpp"
#include "actors/c5c3/scaffold/messaging.hpp"
#include "k8s/object.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace c5c3::c5c3::rabbitmqvhost {

struct messaging_snapshot {
  const k8s::object* control_plane = nullptr;    // present (admission passed)
  const k8s::object* rabbitmq_cluster = nullptr;  // null: NotFound
  const k8s::object* default_user_secret = nullptr;  // null: NotFound
};

struct messaging_gate_result {
  gate_result gate;
  std::string host;        // the broker's in-cluster host
  std::int32_t port = 0;   // and port
  std::string cluster_name;  // spec.infrastructure.messaging.clusterRef.name
};

// The scaffold's (actors/c5c3/scaffold/messaging.hpp), named here too.
using ::c5c3::c5c3::default_user_secret_key;
using ::c5c3::c5c3::messaging_cluster_key;

// MessagingNotDeclared and MessagingNotManaged ask for no requeue of their
// own; WaitingForMessagingCredentials and WaitingForMessaging come back after
// 10 s (the waits are the scaffold's resolve_in_cluster_broker; a port that
// is not a number reads VhostError).
messaging_gate_result messaging_gate(const messaging_snapshot& s);

}  // namespace c5c3::c5c3::rabbitmqvhost
