#include "actors/c5c3/keystoneroleassignment/provision.hpp"

#include "actors/c5c3/korc/children.hpp"
#include "actors/c5c3/korc/outcome.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/ensure_child.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3::keystoneroleassignment {
namespace {

const k8s::object* find_named(const std::vector<k8s::object>& objs, std::string_view kind, std::string_view name) {
  for (auto& o : objs)
    if (o.kind() == kind && o.name() == name) return &o;
  return nullptr;
}

}  // namespace

provision_plan assign_role(const provision_snapshot& s) {
  const assignment_order& o = *s.order;
  const k8s::object& cp = *s.control_plane;
  const std::string ns(cp.namespace_());
  const assignment_names n(o);
  provision_plan p;
  p.status = o.status;
  auto set = [&](bool ok, std::string_view reason, std::string message, requeue r) {
    p.assignment_ready = make_condition(condition_type_assignment_ready, ok, reason, message, o.id.generation);
    p.requeue = r;
    return std::move(p);
  };
  auto key = [&](std::string_view name) { return fmt::format("{}/{}", ns, name); };

  for (auto [served, resource] : {std::pair{s.roles_served, "roles"}, {s.role_assignments_served, "roleassignments"}})
    if (!served)
      return set(false, reason_role_assignment_error,
                 fmt::format("the management cluster serves no {}.openstack.k-orc.cloud; install K-ORC (the OpenStack "
                             "Resource Controller)",
                             resource),
                 order_refresh_after);

  // applyAccountRole: the Role import, then the RoleAssignment, in one plan
  // (the import exists before the assignment names it).
  const auto creds = korc::admin_password_cloud(cp);
  struct child {
    std::string_view kind, slot;
    std::string name;
    k8s::object desired;
    const k8s::object* live;
  };
  child children[] = {
      {"Role", slot_roles, n.role(),
       korc::unmanaged_import_filtered("Role", n.role(), ns, {{"name", o.role}}, creds), nullptr},
      {"RoleAssignment", slot_role_assignments, n.assignment(),
       korc::managed_role_assignment(n.assignment(), ns, n.role(), n.user_child, n.project_child, creds), nullptr},
  };
  for (auto& c : children) {
    const auto& listed = c.kind == "Role" ? s.roles : s.role_assignments;
    c.live = find_named(listed, c.kind, c.name);
    if (!c.live) c.live = find_named(s.read_by_name, c.kind, c.name);
    auto ensured = ensure_order_child(o.id.ref, c.desired, c.live);
    if (ensured.refused())
      return set(false, reason_role_assignment_error, fmt::format("ensuring the {}: {}", c.kind, ensured.refusal),
                 std::nullopt);
    if (ensured.write) p.writes.push_back(*ensured.write);
  }
  if (!p.writes.empty()) {
    p.waiting_slot = slot_role_assignments;
    p.waiting_name = n.assignment();
    return set(false, reason_waiting_for_service_accounts,
               fmt::format("Role {} and RoleAssignment {} are being written", key(n.role()), key(n.assignment())),
               korc_requeue_after);
  }

  // Terminal first (the import, then the assignment), then pending.
  for (const auto& c : children)
    if (auto err = korc::terminal_error(*c.live))
      return set(false, reason_role_assignment_failed,
                 fmt::format("K-ORC reported a terminal error on {} {}: {}", c.kind, key(c.name), *err),
                 korc_requeue_after);
  for (const auto& c : children) {
    if (korc::available_up_to_date(*c.live)) continue;
    p.waiting_slot = c.slot;
    p.waiting_name = c.name;
    std::string message = fmt::format("{} {} is not yet Available: {}", c.kind, key(c.name), korc::pending_message(*c.live));
    const auto since = k8s::parse_rfc3339(children[0].live->creation_timestamp());
    if (since && s.now - *since >= role_may_not_exist_after)
      message += fmt::format("; after {} the role \"{}\" may not exist in Keystone (the Role import {} matches no "
                             "role of that name)",
                             k8s::format_go_duration(role_may_not_exist_after), o.role, key(n.role()));
    return set(false, reason_waiting_for_service_accounts, message, korc_requeue_after);
  }

  // 5. Assigned.
  const k8s::object& ra = *children[1].live;
  p.status.role_id = korc::status_resource(ra, "roleID");
  p.status.user_id = korc::status_resource(ra, "userID");
  p.status.project_id = korc::status_resource(ra, "projectID");
  return set(true, reason_role_assigned,
             fmt::format("role \"{}\" is assigned to KeystoneUser \"{}\" on KeystoneProject \"{}\" (RoleAssignment {})",
                         o.role, o.user, o.project, key(n.assignment())),
             std::nullopt);
}

}  // namespace c5c3::c5c3::keystoneroleassignment
