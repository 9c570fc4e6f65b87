#include "actors/c5c3/keystonecatalogentry/pass.hpp"

#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/korc/pass_frame.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3::keystonecatalogentry {

std::optional<korc::gate_stop> catalog_consent(const k8s::object& cp, const namespace_assignment& entry) {
  if (entry.allow_catalog_entries) return std::nullopt;
  return korc::gate_stop{
      korc::pass_stage::refused_admission, std::string(reason_catalog_not_allowed),
      fmt::format("ControlPlane {}/{} assigns namespace \"{}\" on {} without allowCatalogEntries "
                  "(spec.namespaceAssignments); the order is frozen: nothing is registered, repaired or swept, and what "
                  "was created stays",
                  cp.namespace_(), cp.name(), entry.namespace_, entry.location()),
      namespace_assignment_requeue_after};
}

sweep_result sweep_catalog_children(const catalog_order& o, const std::vector<k8s::object>& endpoints,
                                    const std::vector<k8s::object>& services, const std::vector<k8s::object>& regions) {
  const auto managed = catalog_names(o.id.ref).service();
  return sweep_order_lists(o.id.ref, {{&endpoints, {}},
                                      {&services, [&](const k8s::object& svc) { return svc.name() == managed; }},
                                      {&regions, {}}});
}

korc::order_pass_plan plan_pass(const pass_snapshot& given) {
  pass_snapshot s = given;
  s.services = typed_items(given.services, korc::api_version, "Service");
  s.regions = typed_items(given.regions, korc::api_version, "Region");
  s.endpoints = typed_items(given.endpoints, korc::api_version, "Endpoint");
  const k8s::object& order = *s.order;
  const catalog_order o = make_catalog_order(order, s.cluster);
  const korc::pass_frame frame(order, o.id, sub_condition_types, korc::pass_clock(s.now), read_status, write_status);
  korc::order_pass_plan p;

  if (order.terminating()) {
    if (order.has_finalizer(finalizer))
      korc::swept_plan(p, sweep_catalog_children(o, s.endpoints, s.services, s.regions), s.control_plane != nullptr);
    return p;
  }

  const k8s::object* cp = s.control_plane;
  auto consent = [cp](const namespace_assignment& entry) { return catalog_consent(*cp, entry); };
  if (frame.stopped(p, cp, finalizer, o.status, consent)) return p;

  register_snapshot rs{&o,         cp,         s.services_served, s.regions_served, s.endpoints_served, s.services,
                       s.regions,  s.endpoints, s.read_by_name,   s.failures,       s.now};
  auto reg = register_catalog_entry(rs);
  p.stage = korc::pass_stage::legs;
  p.writes = std::move(reg.writes);
  p.instrument = {reg.catalog_ready};
  p.status = frame.status(reg.status, {reg.catalog_ready});
  p.requeue = order_pass_result(s.cluster, reg.catalog_ready.is_true(), reg.requeue);
  p.waiting_slot = reg.waiting_slot;
  p.waiting_name = reg.waiting_name;
  return p;
}

}  // namespace c5c3::c5c3::keystonecatalogentry
