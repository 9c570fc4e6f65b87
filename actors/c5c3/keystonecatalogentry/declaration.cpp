#include "actors/c5c3/keystonecatalogentry/declaration.hpp"

#include "actors/c5c3/korc/control_plane.hpp"
#include "actors/c5c3/korc/order_declaration.hpp"

namespace c5c3::c5c3::keystonecatalogentry {

namespace rt = ::c5c3::runtime;

k8s::gvk order_gvk() { return {"c5c3.io", "v1alpha1", std::string(kind)}; }

namespace {

rt::ownership_keys keys() { return korc::ownership_keys_of(label_keys()); }

}  // namespace

std::vector<rt::read_slot> reads() {
  const auto k = keys();
  return {rt::children(std::string(slot_services), korc::gvk("Service"), k),
          rt::children(std::string(slot_regions), korc::gvk("Region"), k),
          rt::children(std::string(slot_endpoints), korc::gvk("Endpoint"), k)};
}

pass_snapshot snapshot_of(const rt::sense_snapshot& s) {
  pass_snapshot p;
  p.order = &s.order;
  p.cluster = s.key.cluster;
  p.control_plane = s.control_plane_or_null();
  p.services_served = s.served(slot_services);
  p.regions_served = s.served(slot_regions);
  p.endpoints_served = s.served(slot_endpoints);
  p.services = s.list(slot_services);
  p.regions = s.list(slot_regions);
  p.endpoints = s.list(slot_endpoints);
  p.read_by_name = s.read_by_name;
  p.failures = s.write_failures;
  p.now = s.now;
  return p;
}

std::shared_ptr<const rt::kind_declaration> declaration() {
  auto k = korc::order_declaration("keystonecatalogentry", order_gvk(), label_keys(), finalizer, sub_reconcilers);
  k->reads = reads();
  k->plan = [](const rt::sense_snapshot& s) { return korc::runner_plan(plan_pass(snapshot_of(s))); };
  return k;
}

}  // namespace c5c3::c5c3::keystonecatalogentry
