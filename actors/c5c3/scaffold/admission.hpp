// orderAdmission and orderAdminCredentialGate (keystone-orders-reconcilers.txt,
// "The shared scaffold"; apis.md 1.1) as pure decisions, and the ControlPlane
// watch's orderControlPlanePredicate.
//
// The freeze: a refused admission returns before anything in the
// ControlPlane's namespace is read or written, and the finalizer is installed
// only past it. An actor acts on `admitted` alone.
#pragma once

#include "actors/c5c3/scaffold/namespace_assignment.hpp"
#include "actors/c5c3/scaffold/order_ref.hpp"
#include "actors/c5c3/scaffold/pass_result.hpp"
#include "k8s/object.hpp"

#include <optional>
#include <string>

namespace c5c3::c5c3 {

// The outcome of a gate: passed, or a reason and message for the kind's own
// failure setter and the gate's requeue.
struct gate_result {
  bool passed = true;
  std::string reason;
  std::string message;
  c5c3::requeue requeue;

  static gate_result pass() { return {}; }
  static gate_result refuse(std::string_view reason, std::string message, c5c3::requeue r) {
    return {false, std::string(reason), std::move(message), r};
  }
};

// orderControlPlaneKey: the namespace defaults to the order's own.
k8s::object_key order_control_plane_key(std::string_view ref_namespace, std::string_view ref_name,
                                        std::string_view order_namespace);

// The NamespaceNotAssigned message (the freeze).
std::string order_not_assigned_message(const k8s::object_key& cp_key, std::string_view namespace_,
                                       std::string_view cluster);

struct admission_input {
  const order_ref* order = nullptr;
  k8s::object_key control_plane_key;
  // What the ControlPlane actor answers: present with its namespaceAssignments,
  // or absent (NotFound).
  bool control_plane_present = false;
  std::vector<namespace_assignment> assignments;
};

struct admission_result {
  gate_result gate;
  // The order's spec.namespaceAssignments entry, once admitted.
  std::optional<namespace_assignment> entry;
  bool admitted() const { return gate.passed; }
};

// (1) a cluster name over 63 characters: ClusterNameTooLong, no requeue;
// (2) the ControlPlane absent: on a target cluster NamespaceNotAssigned with
// the not-assigned message (1 m), on the management cluster
// ControlPlaneNotFound (10 s); (3) no entry for the order's namespace and
// cluster: NamespaceNotAssigned (1 m), the freeze.
admission_result order_admission(const admission_input& in);

// WaitingForAdminCredential (10 s) while the ControlPlane's
// AdminCredentialReady is not True.
gate_result order_admin_credential_gate(const k8s::object& control_plane);

// Passes a ControlPlane update an order reads: the generation changed, the
// deletion timestamp changed, or AdminCredentialReady's truth flipped.
bool order_control_plane_predicate(const k8s::object& old_cp, const k8s::object& new_cp);

}  // namespace c5c3::c5c3
