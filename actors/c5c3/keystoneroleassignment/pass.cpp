#include "actors/c5c3/keystoneroleassignment/pass.hpp"

#include "actors/c5c3/keystoneroleassignment/refusals.hpp"
#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/korc/holds.hpp"
#include "actors/c5c3/korc/pass_frame.hpp"
#include "actors/c5c3/korc/references.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"

namespace c5c3::c5c3::keystoneroleassignment {

sweep_result sweep_role_assignment_children(const assignment_order& o, const std::vector<k8s::object>& role_assignments,
                                            const std::vector<k8s::object>& roles) {
  return sweep_order_lists(o.id.ref, {{&role_assignments, {}}, {&roles, {}}});
}

korc::order_pass_plan plan_pass(const pass_snapshot& given) {
  pass_snapshot s = given;
  s.roles = typed_items(given.roles, korc::api_version, "Role");
  s.role_assignments = typed_items(given.role_assignments, korc::api_version, "RoleAssignment");
  const k8s::object& order = *s.order;
  const assignment_order o = make_assignment_order(order, s.cluster);
  const korc::pass_frame frame(order, o.id, sub_condition_types, korc::pass_clock(s.now), read_status, write_status);
  korc::order_pass_plan p;
  auto refuse = [&](const gate_result& g, std::string_view slot = {}, std::string_view name = {}) {
    p.stage = korc::pass_stage::legs;
    p.status = frame.status(
        o.status, {make_condition(condition_type_assignment_ready, false, g.reason, g.message, o.id.generation)});
    p.requeue = order_pass_result(s.cluster, false, g.requeue);
    p.waiting_slot = slot;
    p.waiting_name = name;
    return p;
  };

  if (order.terminating()) {
    if (!order.has_finalizer(finalizer)) return p;
    auto hold = korc::credential_hold(s.application_credentials, o.user, o.project, o.id.ref.namespace_);
    if (hold.held)
      frame.held(p, hold, condition_type_assignment_ready, o.status);
    else
      korc::swept_plan(p, sweep_role_assignment_children(o, s.role_assignments, s.roles), s.control_plane != nullptr);
    return p;
  }
  if (frame.stopped(p, s.control_plane, finalizer, o.status)) return p;

  // 1. The allowlist (the freeze), 2. the references, 3. the duplicates.
  if (auto g = role_allowlist(o, *s.control_plane); !g.passed) return refuse(g);
  korc::reference_input refs{&o.id, o.user, o.project, s.user, s.project, s.users_served, s.projects_served};
  if (auto g = korc::reference_gate(refs); !g.passed) {
    std::string_view slot;
    if (g.reason == korc::reason_user_not_found || g.reason == korc::reason_waiting_for_user) slot = korc::slot_user;
    if (g.reason == korc::reason_project_not_found || g.reason == korc::reason_waiting_for_project)
      slot = korc::slot_project;
    return refuse(g, slot);
  }
  if (auto g = duplicate_check(o, order, s.peers); !g.passed) {
    const auto* other = older_duplicate(o, order, s.peers);
    return refuse(g, slot_peers, other ? other->name() : std::string_view{});
  }

  // 4-5. assignRole.
  provision_snapshot ps{&o,      s.control_plane,    s.roles_served, s.role_assignments_served,
                        s.roles, s.role_assignments, s.read_by_name, s.now};
  auto prov = assign_role(ps);
  p.stage = korc::pass_stage::legs;
  p.writes = std::move(prov.writes);
  p.instrument = {prov.assignment_ready};
  p.status = frame.status(prov.status, {prov.assignment_ready});
  p.requeue = order_pass_result(s.cluster, prov.assignment_ready.is_true(), prov.requeue);
  p.waiting_slot = prov.waiting_slot;
  p.waiting_name = prov.waiting_name;
  return p;
}

}  // namespace c5c3::c5c3::keystoneroleassignment
