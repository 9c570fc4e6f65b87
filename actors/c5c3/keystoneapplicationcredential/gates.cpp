#include "actors/c5c3/keystoneapplicationcredential/gates.hpp"

#include "actors/c5c3/scaffold/admission.hpp"
#include "actors/c5c3/scaffold/status_fields.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

namespace c5c3::c5c3::keystoneapplicationcredential {

namespace rt = ::c5c3::runtime;

k8s::gvk keystone_user_gvk() { return {"c5c3.io", "v1alpha1", "KeystoneUser"}; }
k8s::gvk keystone_project_gvk() { return {"c5c3.io", "v1alpha1", "KeystoneProject"}; }

reference_kind user_reference() {
  return {"KeystoneUser", "user", "UserReady", reason_user_not_found, reason_waiting_for_user};
}
reference_kind project_reference() {
  return {"KeystoneProject", "project", "ProjectReady", reason_project_not_found, reason_waiting_for_project};
}

gate_result gate_reference(const reference_kind& k, const k8s::object* referenced, std::string_view name,
                           std::string_view namespace_, std::string_view location,
                           const k8s::object_key& control_plane) {
  if (!referenced || !*referenced)
    return {false, std::string(k.not_found),
            fmt::format("{} \"{}\" is not in namespace \"{}\" on {}; the {} must be ordered from the same namespace",
                        k.kind, name, namespace_, location, k.noun)};
  auto theirs = order_control_plane_key(referenced->get_string({"spec", "controlPlaneRef", "namespace"}),
                                        referenced->get_string({"spec", "controlPlaneRef", "name"}), namespace_);
  if (theirs != control_plane)
    return {false, std::string(reason_control_plane_mismatch),
            fmt::format("{} \"{}\" orders from ControlPlane {}, this order from {}", k.kind, name, theirs.to_string(),
                        control_plane.to_string())};
  auto ready = referenced->find_condition(k.ready_condition);
  if (!ready || !ready->is_true())
    return {false, std::string(k.waiting),
            fmt::format("{} \"{}\" is not provisioned yet ({})", k.kind, name,
                        ready ? ready->reason : std::string("not reconciled yet"))};
  return {true, {}, {}};
}

rt::read_slot referenced_order_slot(std::string id, k8s::gvk gvk, std::string ref_field) {
  auto slot = rt::named(
      std::move(id), std::move(gvk),
      [ref_field](const rt::sense_snapshot& s) -> std::optional<rt::locator> {
        if (s.order.terminating()) return std::nullopt;
        auto name = s.order.get_string({"spec", ref_field, "name"});
        if (name.empty()) return std::nullopt;
        return rt::locator{std::nullopt, std::string(name)};
      },
      "", true);
  slot.cluster = rt::cluster_role::order;
  slot.ns = rt::namespace_role::order;
  return slot;
}

gate_result reference_gates(const gate_input& in) {
  const credential_order& o = *in.order;
  const auto location = o.id.ref.location();
  const auto& ns = o.id.ref.namespace_;
  for (auto [k, obj, name] : {std::tuple{user_reference(), in.user, &o.user_ref},
                              std::tuple{project_reference(), in.project, &o.project_ref}}) {
    auto v = gate_reference(k, obj, *name, ns, location, o.id.control_plane_key);
    if (!v.admitted) return v;
  }
  static const std::vector<k8s::object> none;
  if (!role_assigned_on_project(in.role_assignments ? *in.role_assignments : none, o.user_ref, o.project_ref))
    return {false, std::string(reason_no_role_on_project),
            fmt::format("no KeystoneRoleAssignment in namespace \"{}\" has assigned a role to user \"{}\" on "
                        "project \"{}\"; the credential is minted with a project-scoped token, which needs a role "
                        "on the project",
                        ns, o.user_ref, o.project_ref)};
  return {true, {}, {}};
}

bool role_assigned_on_project(const std::vector<k8s::object>& role_assignments, std::string_view user,
                              std::string_view project) {
  return std::any_of(role_assignments.begin(), role_assignments.end(), [&](const k8s::object& ra) {
    return ra.get_string({"spec", "userRef", "name"}) == user &&
           ra.get_string({"spec", "projectRef", "name"}) == project && !status_string(ra, "roleID").empty();
  });
}

bool role_assignment_update_passes(const k8s::object& before, const k8s::object& after) {
  return before.generation() != after.generation() ||
         before.get_string({"metadata", "deletionTimestamp"}) != after.get_string({"metadata", "deletionTimestamp"}) ||
         status_string(before, "roleID") != status_string(after, "roleID");
}

bool user_update_passes(const k8s::object& before, const k8s::object& after) {
  if (before.generation() != after.generation()) return true;
  if (before.get_string({"metadata", "deletionTimestamp"}) != after.get_string({"metadata", "deletionTimestamp"}))
    return true;
  for (auto type : {"Ready", "UserReady", "ProjectReady"}) {
    auto a = before.find_condition(type);
    auto b = after.find_condition(type);
    if (a.has_value() != b.has_value() || (a && a->status != b->status)) return true;
  }
  return status_int(before, "passwordGeneration") != status_int(after, "passwordGeneration");
}

}  // namespace c5c3::c5c3::keystoneapplicationcredential
