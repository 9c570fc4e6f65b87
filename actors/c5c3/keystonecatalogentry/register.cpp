#include "actors/c5c3/keystonecatalogentry/register.hpp"

#include "actors/c5c3/korc/children.hpp"
#include "actors/c5c3/korc/outcome.hpp"
#include "actors/c5c3/korc/probe.hpp"
#include "actors/c5c3/korc/unlatch.hpp"
#include "actors/c5c3/scaffold/aggregate_ready.hpp"
#include "actors/c5c3/scaffold/ensure_child.hpp"

#include <fmt/format.h>

namespace c5c3::c5c3::keystonecatalogentry {
namespace {

const k8s::object* find_named(const std::vector<k8s::object>& objs, std::string_view kind, std::string_view name) {
  for (auto& o : objs)
    if (o.kind() == kind && o.name() == name) return &o;
  return nullptr;
}

// A child the registration ensures: its kind, slot, desired object and the
// live one (after the ensure).
struct child {
  std::string_view kind, slot;
  k8s::object desired;
  const k8s::object* live = nullptr;
};

}  // namespace

std::vector<const k8s::object*> dropped_endpoints(const catalog_order& o, const std::vector<k8s::object>& endpoints) {
  const catalog_names n(o.id.ref);
  std::vector<const k8s::object*> out;
  for (const auto& e : endpoints) {
    if (e.kind() != "Endpoint" || !owns_order_child(e, o.id.ref)) continue;
    bool declared = false;
    for (const auto& d : o.endpoints) declared = declared || e.name() == n.endpoint(d.interface);
    if (!declared) out.push_back(&e);
  }
  return out;
}

register_plan register_catalog_entry(const register_snapshot& s) {
  const catalog_order& o = *s.order;
  const k8s::object& cp = *s.control_plane;
  const std::string ns(cp.namespace_());
  const catalog_names n(o.id.ref);
  register_plan p;
  p.status = o.status;
  auto set = [&](bool ok, std::string_view reason, std::string message, requeue r) {
    p.catalog_ready = make_condition(condition_type_catalog_ready, ok, reason, message, o.id.generation);
    p.requeue = r;
    return std::move(p);
  };
  auto key = [&](std::string_view name) { return fmt::format("{}/{}", ns, name); };

  for (auto [served, resource] : {std::pair{s.services_served, "services"}, {s.regions_served, "regions"},
                                  {s.endpoints_served, "endpoints"}})
    if (!served)
      return set(false, reason_catalog_error,
                 fmt::format("the management cluster serves no {}.openstack.k-orc.cloud; install K-ORC (the OpenStack "
                             "Resource Controller)",
                             resource),
                 order_refresh_after);

  // Dropped rows go on every pass, before anything else is read.
  const auto dropped = dropped_endpoints(o, s.endpoints);
  for (const auto* e : dropped)
    if (!e->terminating()) p.writes.push_back(make_delete(*e));

  // The probe, while the order owns no managed Service.
  const auto creds = korc::admin_password_cloud(cp);
  korc::probe_gate_input pin{
      &o.id.ref,
      find_named(s.services, "Service", n.service()),
      find_named(s.services, "Service", n.probe()),
      korc::unmanaged_import_filtered("Service", n.probe(), ns, {{"name", o.service_name}, {"type", o.service_type}},
                                      creds),
      true,
      s.read_by_name};
  auto gate = korc::probe_gate(pin);
  // Passing the gate, its writes are the probe's delete: written after the
  // Service, the Region import and the Endpoints, so a restart between them
  // finds the Service (and drops the probe on the owned path), never
  // neither, and makes no second probe.
  std::vector<child_write> probe_drop;
  for (auto& w : gate.writes) (gate.proceed ? probe_drop : p.writes).push_back(std::move(w));
  if (!gate.refusal.empty())
    return set(false, reason_catalog_error, "probing for a pre-existing service: " + gate.refusal, std::nullopt);
  if (!gate.proceed) {
    p.waiting_slot = slot_services;
    p.waiting_name = n.probe();
    if (gate.verdict == korc::probe_verdict::resolved)
      return set(false, reason_service_collision,
                 fmt::format("service \"{}\" of type \"{}\" already exists in Keystone (Service {} found it); the order "
                             "never takes over a service it did not create; pick another serviceName or delete the order",
                             o.service_name, o.service_type, key(n.probe())),
                 korc_requeue_after);
    return set(false, reason_probing_for_collision,
               fmt::format("probing whether service \"{}\" of type \"{}\" already exists before creating it (Service "
                           "{}: {})",
                           o.service_name, o.service_type, key(n.probe()),
                           gate.probe ? korc::pending_message(*gate.probe) : "being written"),
               korc_requeue_after);
  }

  // The Service, the Region import, the Endpoints, in one plan.
  const std::string region = korc::region(cp);
  std::vector<child> children{
      {"Service", slot_services, korc::managed_service(n.service(), ns, o.service_name, o.service_type, creds)},
      {"Region", slot_regions, korc::unmanaged_import_filtered("Region", n.region(), ns, {{"name", region}}, creds)}};
  for (const auto& e : o.endpoints)
    children.push_back({"Endpoint", slot_endpoints,
                        korc::managed_endpoint(n.endpoint(e.interface), ns, e.interface, e.url, n.service(), n.region(),
                                               creds)});
  bool writing = false;
  for (auto& c : children) {
    const auto& listed = c.kind == "Service" ? s.services : c.kind == "Region" ? s.regions : s.endpoints;
    c.live = find_named(listed, c.kind, c.desired.name());
    if (!c.live) c.live = find_named(s.read_by_name, c.kind, c.desired.name());
    auto ensured = ensure_order_child(o.id.ref, c.desired, c.live);
    if (ensured.refused())
      return set(false, reason_catalog_error, fmt::format("ensuring the {}: {}", c.kind, ensured.refusal),
                 std::nullopt);
    if (ensured.write) {
      p.writes.push_back(*ensured.write);
      writing = true;
    }
  }
  for (auto& w : probe_drop) p.writes.push_back(std::move(w));

  // status.endpoints, rebuilt from what is listed.
  p.status.service_name = o.service_name;
  if (const auto* svc = children[0].live) p.status.service_id = korc::status_id(*svc);
  p.status.endpoints.clear();
  for (std::size_t i = 2; i < children.size(); ++i)
    if (children[i].live)
      if (auto id = korc::status_id(*children[i].live); !id.empty())
        p.status.endpoints.push_back({std::string(children[i].desired.get_string({"spec", "resource", "interface"})), id});
  if (writing) {
    p.waiting_slot = slot_services;
    p.waiting_name = n.service();
    return set(false, reason_waiting_for_catalog,
               fmt::format("the catalog entry of service \"{}\" is being written (Service {}, Region {}, {} Endpoint(s))",
                           o.service_name, key(n.service()), key(n.region()), o.endpoints.size()),
               korc_requeue_after);
  }

  // A latched transport error first, then terminal errors, then waits; each
  // in the order Service, Region, Endpoints.
  requeue wait = korc_requeue_after;
  std::string clearing;
  for (const auto& c : children) {
    auto unlatch = korc::plan_unlatch(*c.live, s.failures, s.now);
    switch (unlatch.step) {
      case korc::unlatch_step::failed:
        return set(false, korc::reason_transport_error_retry_failed, unlatch.message, korc_requeue_after);
      case korc::unlatch_step::clearing:
        for (auto& w : unlatch.writes) p.writes.push_back(std::move(w));
        if (clearing.empty())
          clearing = fmt::format("K-ORC could not reach Keystone for {} {}; it is handed back to K-ORC to retry: {}",
                                 c.kind, key(c.live->name()), korc::pending_message(*c.live));
        break;
      case korc::unlatch_step::waiting: wait = shortest_requeue(wait, unlatch.requeue); break;
      case korc::unlatch_step::deferred:
      case korc::unlatch_step::not_latched: break;
    }
  }
  if (!clearing.empty()) return set(false, reason_waiting_for_catalog, clearing, korc_requeue_after);
  for (const auto& c : children)
    if (auto err = korc::terminal_error(*c.live))
      return set(false, reason_catalog_failed,
                 fmt::format("K-ORC reported a terminal error on {} {}: {}", c.kind, key(c.live->name()), *err), wait);
  for (const auto& c : children)
    if (!korc::available_up_to_date(*c.live)) {
      p.waiting_slot = c.slot;
      p.waiting_name = c.live->name();
      return set(false, reason_waiting_for_catalog,
                 fmt::format("{} {} is registered but not yet Available: {}", c.kind, key(c.live->name()),
                             korc::pending_message(*c.live)),
                 wait);
    }
  if (!dropped.empty()) {
    p.waiting_slot = slot_endpoints;
    p.waiting_name = dropped.front()->name();
    return set(false, reason_waiting_for_catalog,
               fmt::format("Endpoint {} is no longer declared and is being deleted", key(dropped.front()->name())),
               korc_requeue_after);
  }

  std::vector<std::string> interfaces;
  for (const auto& e : o.endpoints) interfaces.push_back(e.interface);
  return set(true, reason_catalog_registered,
             fmt::format("service \"{}\" of type \"{}\" is registered in region \"{}\" with endpoints [{}] (Service {})",
                         o.service_name, o.service_type, region, fmt::join(interfaces, " "), key(n.service())),
             std::nullopt);
}

}  // namespace c5c3::c5c3::keystonecatalogentry
