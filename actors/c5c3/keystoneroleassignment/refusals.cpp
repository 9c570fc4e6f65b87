#include "actors/c5c3/keystoneroleassignment/refusals.hpp"

#include "actors/c5c3/korc/holds.hpp"
#include "actors/c5c3/scaffold/namespace_assignment.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

namespace c5c3::c5c3::keystoneroleassignment {

gate_result role_allowlist(const assignment_order& o, const k8s::object& cp) {
  const auto entries = namespace_assignments_of(cp);
  const auto* entry = namespace_assignment_for(entries, o.id.ref.namespace_, o.id.ref.cluster);
  std::vector<std::string> allowed = entry ? entry->allowed_roles : std::vector<std::string>{};
  if (std::find(allowed.begin(), allowed.end(), o.role) != allowed.end()) return gate_result::pass();
  return gate_result::refuse(
      reason_role_not_allowed,
      fmt::format("ControlPlane {}/{} admits roles {} from namespace \"{}\" on {} (spec.namespaceAssignments); {} is "
                  "not on that list",
                  cp.namespace_(), cp.name(), korc::quote_names(allowed), o.id.ref.namespace_,
                  cluster_location(o.id.ref.cluster), korc::quote_names({o.role})),
      std::nullopt);
}

bool older(const k8s::object& a, const k8s::object& b) {
  auto at = [](const k8s::object& o) {
    auto t = k8s::parse_rfc3339(o.creation_timestamp());
    return t.value_or(k8s::time_point::max());
  };
  return std::make_tuple(at(a), a.name()) < std::make_tuple(at(b), b.name());
}

const k8s::object* older_duplicate(const assignment_order& o, const k8s::object& order,
                                   const std::vector<k8s::object>& peers) {
  const k8s::object* oldest = nullptr;
  for (const auto& p : peers) {
    if (p.name() == order.name() || p.namespace_() != order.namespace_()) continue;
    if (p.get_string({"spec", "userRef", "name"}) != o.user || p.get_string({"spec", "projectRef", "name"}) != o.project ||
        p.get_string({"spec", "role"}) != o.role)
      continue;
    if (!older(p, order)) continue;
    if (!oldest || older(p, *oldest)) oldest = &p;
  }
  return oldest;
}

gate_result duplicate_check(const assignment_order& o, const k8s::object& order,
                            const std::vector<k8s::object>& peers) {
  const auto* other = older_duplicate(o, order, peers);
  if (!other) return gate_result::pass();
  return gate_result::refuse(
      reason_duplicate_role_assignment,
      fmt::format("KeystoneRoleAssignment {}/{} (older) already assigns role \"{}\" to KeystoneUser \"{}\" on "
                  "KeystoneProject \"{}\"; this order assigns nothing while it exists",
                  other->namespace_(), other->name(), o.role, o.user, o.project),
      std::nullopt);
}

}  // namespace c5c3::c5c3::keystoneroleassignment
