#include "actors/c5c3/keystoneproject/provision.hpp"

#include "actors/c5c3/korc/children.hpp"
#include "actors/c5c3/korc/names.hpp"
#include "actors/c5c3/korc/outcome.hpp"
#include "actors/c5c3/korc/probe.hpp"
#include "actors/c5c3/korc/unlatch.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/ensure_child.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3::keystoneproject {
namespace {

const k8s::object* find_named(const std::vector<k8s::object>& objs, std::string_view name) {
  for (auto& o : objs)
    if (o.kind() == "Project" && o.name() == name) return &o;
  return nullptr;
}

}  // namespace

provision_plan provision_project(const provision_snapshot& s) {
  const project_order& o = *s.order;
  const k8s::object& cp = *s.control_plane;
  const std::string ns(cp.namespace_());
  const std::string domain = korc::admin_domain_name(cp);
  project_names n(o.id.ref);
  provision_plan p;
  p.status = o.status;
  auto fail = [&](std::string_view reason, std::string message, requeue r) {
    p.project_ready = make_condition(condition_type_project_ready, false, reason, message, o.id.generation);
    p.requeue = r;
    return std::move(p);
  };
  auto key = [&](std::string_view name) { return fmt::format("{}/{}", ns, name); };

  // 1. Reserved: only an edit of the ControlPlane clears it (the refresh only).
  if (korc::reserved(o.project_name, korc::reserved_project_names(cp)))
    return fail(reason_project_collision,
                fmt::format("the order resolves to project \"{}\" in domain \"{}\", which ControlPlane {}/{} reserves "
                            "for its admin project or a built-in service project; it is never provisioned",
                            o.project_name, domain, ns, cp.name()),
                std::nullopt);
  if (!s.projects_served)
    return fail(reason_project_error,
                "the management cluster serves no projects.openstack.k-orc.cloud; install K-ORC (the OpenStack "
                "Resource Controller)",
                order_refresh_after);

  // 2. The probe, while the order owns no managed Project.
  const auto creds = korc::admin_password_cloud(cp);
  const auto domain_ref = korc::admin_domain_ref(cp);
  korc::probe_gate_input pin{&o.id.ref,
                             find_named(s.projects, n.project()),
                             find_named(s.projects, n.probe()),
                             korc::unmanaged_import("Project", n.probe(), ns, o.project_name, domain_ref, creds),
                             true,
                             s.read_by_name};
  auto gate = korc::probe_gate(pin);
  // Passing the gate, its writes are the probe's delete: written after the
  // managed Project, so a restart between the two finds the Project (and
  // drops the probe on the owned path), never neither, and makes no second
  // probe (the fault plans' crash after the probe's delete did).
  std::vector<child_write> probe_drop;
  (gate.proceed ? probe_drop : p.writes) = std::move(gate.writes);
  if (!gate.refusal.empty())
    return fail(reason_project_error, "probing for a pre-existing project: " + gate.refusal, std::nullopt);
  if (!gate.proceed) {
    if (gate.verdict == korc::probe_verdict::resolved)
      return fail(reason_project_collision,
                  fmt::format("project \"{}\" in domain \"{}\" already exists (Project {} found it); the order never "
                              "takes over a project it did not create; pick another projectName or delete the order",
                              o.project_name, domain, key(n.probe())),
                  korc_requeue_after);
    return fail(reason_probing_for_collision,
                fmt::format("probing whether project \"{}\" already exists before creating it (Project {}: {})",
                            o.project_name, key(n.probe()),
                            gate.probe ? korc::pending_message(*gate.probe) : "being written"),
                korc_requeue_after);
  }

  // 3. The managed Project.
  const k8s::object* live = find_named(s.projects, n.project());
  if (!live) live = find_named(s.read_by_name, n.project());
  auto ensured = ensure_order_child(
      o.id.ref, korc::managed_project(n.project(), ns, o.project_name, domain_ref, creds), live);
  if (ensured.refused()) return fail(reason_project_error, "ensuring the managed Project: " + ensured.refusal, std::nullopt);
  if (ensured.write) p.writes.push_back(*ensured.write);
  for (auto& w : probe_drop) p.writes.push_back(std::move(w));
  if (ensured.write)
    return fail(reason_waiting_for_project, fmt::format("Project {} is being written", key(n.project())),
                korc_requeue_after);

  // 4. A latched transport error first; then terminal, then pending.
  const std::string project_key = key(live->name());
  auto unlatch = korc::plan_unlatch(*live, s.failures, s.now);
  requeue wait = korc_requeue_after;
  switch (unlatch.step) {
    case korc::unlatch_step::failed:
      return fail(korc::reason_transport_error_retry_failed, unlatch.message, korc_requeue_after);
    case korc::unlatch_step::clearing:
      for (auto& w : unlatch.writes) p.writes.push_back(std::move(w));
      return fail(reason_waiting_for_project,
                  fmt::format("K-ORC could not reach Keystone for Project {}; it is handed back to K-ORC to retry: {}",
                              project_key, korc::pending_message(*live)),
                  korc_requeue_after);
    case korc::unlatch_step::waiting: wait = shortest_requeue(wait, unlatch.requeue); break;
    case korc::unlatch_step::deferred:
    case korc::unlatch_step::not_latched: break;
  }
  if (auto err = korc::terminal_error(*live))
    return fail(reason_project_failed,
                fmt::format("K-ORC reported a terminal error on Project {}: {}", project_key, *err), wait);
  if (!korc::available_up_to_date(*live))
    return fail(reason_waiting_for_project,
                fmt::format("Project {} is registered but not yet Available: {}", project_key,
                            korc::pending_message(*live)),
                wait);

  // 5. Provisioned.
  if (auto id = korc::status_id(*live); !id.empty()) p.status.project_id = id;
  p.status.project_name = o.project_name;
  p.status.domain_name = domain;
  p.project_ready = make_condition(condition_type_project_ready, true, reason_project_provisioned,
                                   fmt::format("project \"{}\" is provisioned in domain \"{}\" (Project {})",
                                               o.project_name, domain, project_key),
                                   o.id.generation);
  return p;
}

}  // namespace c5c3::c5c3::keystoneproject
