#include "actors/c5c3/keystoneproject/pass.hpp"

#include "actors/c5c3/keystoneproject/provision.hpp"
#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/korc/pass_frame.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"

namespace c5c3::c5c3::keystoneproject {

sweep_result sweep_keystone_project_children(const project_order& o, const std::vector<k8s::object>& projects) {
  const auto managed = project_names(o.id.ref).project();
  return sweep_order_list(o.id.ref, projects, [&](const k8s::object& p) { return p.name() == managed; });
}

korc::order_pass_plan plan_pass(const pass_snapshot& given) {
  pass_snapshot s = given;
  s.projects = typed_items(given.projects, korc::api_version, "Project");
  const k8s::object& order = *s.order;
  const project_order o = make_project_order(order, s.cluster);
  const korc::pass_frame frame(order, o.id, sub_condition_types, korc::pass_clock(s.now), read_status, write_status);
  korc::order_pass_plan p;

  if (order.terminating()) {
    if (!order.has_finalizer(finalizer)) return p;
    auto hold = korc::reference_hold(s.role_assignments, s.application_credentials, "projectRef", o.id.ref.name,
                                     o.id.ref.namespace_, "project",
                                     "the credentials are scoped to the project, and K-ORC deletes them with a "
                                     "token scoped to it");
    if (hold.held)
      frame.held(p, hold, condition_type_project_ready, o.status);
    else
      korc::swept_plan(p, sweep_keystone_project_children(o, s.projects), s.control_plane != nullptr);
    return p;
  }
  if (frame.stopped(p, s.control_plane, finalizer, o.status)) return p;

  provision_snapshot ps{&o, s.control_plane, s.projects_served, s.projects, s.read_by_name, s.failures, s.now};
  auto prov = provision_project(ps);
  p.stage = korc::pass_stage::legs;
  p.writes = std::move(prov.writes);
  p.instrument = {prov.project_ready};
  p.status = frame.status(prov.status, {prov.project_ready});
  p.requeue = order_pass_result(s.cluster, prov.project_ready.is_true(), prov.requeue);
  return p;
}

}  // namespace c5c3::c5c3::keystoneproject
