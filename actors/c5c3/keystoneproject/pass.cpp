#include "actors/c5c3/keystoneproject/pass.hpp"

#include "actors/c5c3/keystoneproject/provision.hpp"
#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"

namespace c5c3::c5c3::keystoneproject {
namespace {

std::optional<k8s::object> status_of(const k8s::object& order, const project_order& o,
                                     const project_status& status, const std::vector<k8s::condition>& set,
                                     k8s::time_point now) {
  return korc::order_status(order, status, o.id.generation, set, sub_condition_types, now, read_status,
                            write_status);
}

}  // namespace

sweep_result sweep_keystone_project_children(const project_order& o, const std::vector<k8s::object>& projects) {
  const auto managed = project_names(o.id.ref).project();
  return sweep_order_list(o.id.ref, projects, [&](const k8s::object& p) { return p.name() == managed; });
}

korc::order_pass_plan plan_pass(const pass_snapshot& given) {
  pass_snapshot s = given;
  s.projects = typed_items(given.projects, korc::api_version, "Project");
  const k8s::object& order = *s.order;
  const project_order o = make_project_order(order, s.cluster);
  const auto now = korc::pass_clock(s.now);
  korc::order_pass_plan p;

  if (order.terminating()) {
    if (!order.has_finalizer(finalizer)) return p;
    auto hold = korc::reference_hold(s.role_assignments, s.application_credentials, "projectRef", o.id.ref.name,
                                     o.id.ref.namespace_, "project",
                                     "the credentials are scoped to the project, and K-ORC deletes them with a "
                                     "token scoped to it");
    if (hold.held) {
      p.stage = korc::pass_stage::hold;
      p.requeue = hold.requeue;
      p.status = status_of(order, o, o.status,
                           {make_condition(condition_type_project_ready, false, hold.reason, hold.message,
                                           o.id.generation)},
                           now);
      return p;
    }
    auto swept = sweep_keystone_project_children(o, s.projects);
    auto decision = order_teardown(true, s.control_plane != nullptr, swept.count);
    p.stage = korc::pass_stage::teardown;
    p.writes = std::move(swept.writes);
    p.release_finalizer = decision.release_finalizer;
    p.requeue = decision.requeue;
    return p;
  }

  if (auto stop = korc::order_gates(o.id, order, s.control_plane, finalizer)) {
    korc::stopped_plan(p, *stop, sub_condition_types, o.id.generation,
                       [&](const std::vector<k8s::condition>& conds) { return status_of(order, o, o.status, conds, now); });
    return p;
  }

  provision_snapshot ps{&o, s.control_plane, s.projects_served, s.projects, s.read_by_name, s.failures, s.now};
  auto prov = provision_project(ps);
  p.stage = korc::pass_stage::legs;
  p.writes = std::move(prov.writes);
  p.instrument = {prov.project_ready};
  p.status = status_of(order, o, prov.status, {prov.project_ready}, now);
  p.requeue = order_pass_result(s.cluster, prov.project_ready.is_true(), prov.requeue);
  return p;
}

}  // namespace c5c3::c5c3::keystoneproject
