#include "actors/c5c3/keystoneapplicationcredential/gates.hpp"

#include "actors/c5c3/scaffold/status_fields.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace c5c3::c5c3::keystoneapplicationcredential {

gate_result reference_gates(const gate_input& in) {
  const credential_order& o = *in.order;
  korc::reference_input refs{&o.id, o.user_ref, o.project_ref, in.user, in.project, in.users_served,
                             in.projects_served};
  if (auto g = korc::reference_gate(refs); !g.passed) return g;
  static const std::vector<k8s::object> none;
  if (!role_assigned_on_project(in.role_assignments ? *in.role_assignments : none, o.user_ref, o.project_ref))
    return gate_result::refuse(
        reason_no_role_on_project,
        fmt::format("no KeystoneRoleAssignment in namespace \"{}\" has assigned a role to user \"{}\" on project "
                    "\"{}\"; the credential is minted with a project-scoped token, which needs a role on the project",
                    o.id.ref.namespace_, o.user_ref, o.project_ref),
        std::nullopt);
  return gate_result::pass();
}

bool role_assigned_on_project(const std::vector<k8s::object>& role_assignments, std::string_view user,
                              std::string_view project) {
  return std::any_of(role_assignments.begin(), role_assignments.end(), [&](const k8s::object& ra) {
    return ra.get_string({"spec", "userRef", "name"}) == user &&
           ra.get_string({"spec", "projectRef", "name"}) == project && !status_string(ra, "roleID").empty();
  });
}

bool role_assignment_update_passes(const k8s::object& before, const k8s::object& after) {
  return before.generation() != after.generation() || before.deletion_timestamp() != after.deletion_timestamp() ||
         status_string(before, "roleID") != status_string(after, "roleID");
}

bool user_update_passes(const k8s::object& before, const k8s::object& after) {
  return korc::reference_update_passes(before, after, "UserReady") ||
         status_int(before, "passwordGeneration") != status_int(after, "passwordGeneration");
}

}  // namespace c5c3::c5c3::keystoneapplicationcredential
