#include "actors/c5c3/scaffold/admission.hpp"

#include "actors/c5c3/scaffold/reasons.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3 {
namespace {

bool admin_credential_ready(const k8s::object& cp) {
  auto c = cp.find_condition(condition_type_admin_credential_ready);
  return c && c->is_true();
}

}  // namespace

k8s::object_key order_control_plane_key(std::string_view ref_namespace, std::string_view ref_name,
                                        std::string_view order_namespace) {
  return {std::string(ref_namespace.empty() ? order_namespace : ref_namespace), std::string(ref_name)};
}

std::string order_not_assigned_message(const k8s::object_key& cp_key, std::string_view namespace_,
                                       std::string_view cluster) {
  return fmt::format(
      "ControlPlane {} assigns no namespace \"{}\" on {} (spec.namespaceAssignments); the order is "
      "frozen: nothing is provisioned, delivered or repaired, and what was created stays",
      cp_key.to_string(), namespace_, cluster_location(cluster));
}

admission_result order_admission(const admission_input& in) {
  const order_ref& o = *in.order;
  if (o.cluster.size() > label_value_max_length) {
    return {gate_result::refuse(
                reason_cluster_name_too_long,
                fmt::format("the order lives on {}, whose name exceeds {} characters and cannot be "
                            "carried as a label value; nothing is provisioned for an order on that "
                            "cluster",
                            o.location(), label_value_max_length),
                std::nullopt),
            std::nullopt};
  }
  if (!in.control_plane_present) {
    if (!o.on_management_cluster()) {
      // The owner on a target cluster must not learn which ControlPlanes exist.
      return {gate_result::refuse(reason_namespace_not_assigned,
                                  order_not_assigned_message(in.control_plane_key, o.namespace_, o.cluster),
                                  namespace_assignment_requeue_after),
              std::nullopt};
    }
    return {gate_result::refuse(reason_control_plane_not_found,
                                fmt::format("ControlPlane {} not found; the order is deferred until it exists",
                                            in.control_plane_key.to_string()),
                                korc_requeue_after),
            std::nullopt};
  }
  const namespace_assignment* entry = namespace_assignment_for(in.assignments, o.namespace_, o.cluster);
  if (!entry) {
    return {gate_result::refuse(reason_namespace_not_assigned,
                                order_not_assigned_message(in.control_plane_key, o.namespace_, o.cluster),
                                namespace_assignment_requeue_after),
            std::nullopt};
  }
  return {gate_result::pass(), *entry};
}

gate_result order_admin_credential_gate(const k8s::object& cp) {
  if (admin_credential_ready(cp)) return gate_result::pass();
  return gate_result::refuse(
      reason_waiting_for_admin_credential,
      fmt::format("ControlPlane {}/{} reports AdminCredentialReady is not True; the order is deferred",
                  cp.namespace_(), cp.name()),
      korc_requeue_after);
}

bool order_control_plane_predicate(const k8s::object& old_cp, const k8s::object& new_cp) {
  return old_cp.generation() != new_cp.generation() ||
         old_cp.deletion_timestamp() != new_cp.deletion_timestamp() ||
         admin_credential_ready(old_cp) != admin_credential_ready(new_cp);
}

}  // namespace c5c3::c5c3
